/**
 * DeDust v2's `jetton_swap` (dedust-v2-swaps.ts) on traces built by hand, with the details ton-index-go would
 * answer (`dex` `dedust_v2`, `min_out_amount` the route's last minimum):
 * - TON for USDT through one pool (pay_native, the pool's swap log, the USDT payout);
 * - USDT for another jetton through two pools (pay_jetton in the transfer, a pool paying the next with pay_native):
 *   each pool a peer swap; a pool that aborted makes it failed;
 * - a TON swap the pool refused (payout with a non-zero exit code, no log): failed, nothing out, the asset asked for
 *   the pool's other one when the index knows the pool (else null); a payout with exit code 0 is no refund (none).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { USDT, account, address, buildTrace, op, type Step, againstSpec } from './support.js';

const [USER, POOL, POOL2, USER_USDT, POOL_USDT, JET, USER_JET, POOL2_JET] = [0xa11ce, 0x9001, 0x9002, 0xa1, 0xb1, 0x7e7, 0xa2, 0xb2].map(
  account,
);
const EMPTY = beginCell().endCell();

const contracts = (pools: boolean): KnownContracts => ({
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [POOL_USDT, { owner: POOL, jetton: USDT }],
    [USER_JET, { owner: USER, jetton: JET }],
    [POOL2_JET, { owner: POOL2, jetton: JET }],
  ]),
  dexPools: pools ? new Map([[POOL, { dex: 'dedust' as const, assets: [null, USDT] as const }]]) : new Map(),
});

/** SwapStep: pool, minimal_amount_out, deadline, next. */
const step = (pool: string, minOut: bigint): Cell =>
  beginCell().storeAddress(address(pool)).storeCoins(minOut).storeUint(1_800_000_000, 40).storeMaybeRef(null).endCell();
/** swap#c442500f minimal_amount_out deadline next, no partner, no referrer. */
const swap = (minOut: bigint, next: Cell | null = null): Cell =>
  beginCell()
    .storeUint(0xc442500f, 32)
    .storeCoins(minOut)
    .storeUint(1_800_000_000, 40)
    .storeMaybeRef(next)
    .storeBit(0)
    .storeBit(0)
    .endCell();
const payNative = (amount: bigint, payload: Cell): Cell => op(0xa5a7cbf8).storeCoins(amount).storeRef(payload).storeRef(EMPTY).endCell();
const payJetton = (payload: Cell): Cell => beginCell().storeUint(0xcbc33949, 32).storeRef(payload).storeRef(EMPTY).endCell();
const swapLog = (amountIn: bigint, amountOut: bigint): Cell =>
  beginCell()
    .storeUint(0x78e79ba4, 32)
    .storeBit(1)
    .storeCoins(amountIn)
    .storeCoins(amountOut)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeRef(EMPTY)
    .storeRef(EMPTY)
    .endCell();
const payout = (amount: bigint, exitCode: number): Step => ({
  to: USER,
  value: amount,
  body: op(0x3216ca09).storeCoins(amount).storeInt(exitCode, 32).storeMaybeRef(null).endCell(),
});
const excess = (): Step => ({ to: USER, body: op(0xd53276db).endCell(), value: 1_000_000n });

const transfer = (amount: bigint, to: string, from: string, forward: Cell | null): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(from))
    .storeBit(0)
    .storeCoins(forward ? 300_000_000n : 1n)
    .storeMaybeRef(forward)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(1n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
/** A jetton moved from `from` (through `fromWallet`) to `to`'s `toWallet`; the receiver then does `then`. */
const jettons = (
  amount: bigint,
  from: string,
  fromWallet: string,
  to: string,
  toWallet: string,
  forward: Cell | null,
  then: Step,
): Step => ({
  to: fromWallet,
  body: transfer(amount, to, from, forward),
  then: [{ to: toWallet, body: internalTransfer(amount, from), then: [{ ...then, body: then.body ?? notify(amount, from) }] }],
});

const TON_IN = 5_000_000_000n;
const USDT_OUT = 14_500_000n;
const JET_OUT = 777_000n;

const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, `${type} among ${actions.map((a) => a.type).join()}`);
  return found[0];
};

test('DeDust v2 jetton_swap: TON for USDT through one pool, its log and the USDT payout', () => {
  const { trace } = buildTrace(USER, [
    {
      to: POOL,
      value: TON_IN + 200_000_000n,
      body: payNative(TON_IN, swap(14_000_000n)),
      logBodies: [swapLog(TON_IN, USDT_OUT)],
      then: [jettons(USDT_OUT, POOL, POOL_USDT, USER, USER_USDT, null, { to: USER }), excess()],
    },
  ]);
  const actions = classifyTrace(trace, contracts(false)).actions;
  const swapped = only(actions, 'jetton_swap');
  assert.equal(swapped.success, true);
  assert.deepEqual(swapped.details, {
    dex: 'dedust_v2',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: {
      asset: null,
      source: USER,
      destination: POOL,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: TON_IN.toString(),
    },
    dex_outgoing_transfer: {
      asset: USDT,
      source: POOL,
      destination: USER,
      source_jetton_wallet: POOL_USDT,
      destination_jetton_wallet: USER_USDT,
      amount: USDT_OUT.toString(),
    },
    peer_swaps: [],
    min_out_amount: '14000000',
  });
  for (const who of [USER, POOL, POOL_USDT, USER_USDT]) assert.ok(swapped.accounts.includes(who), who);
  againstSpec(swapped);
});

const twoPools = (secondAborted: boolean, secondExitCode?: number) =>
  buildTrace(USER, [
    jettons(USDT_OUT, USER, USER_USDT, POOL, POOL_USDT, payJetton(swap(1n, step(POOL2, 700_000n))), {
      to: POOL,
      logBodies: [swapLog(USDT_OUT, TON_IN)],
      then: [
        {
          to: POOL2,
          value: TON_IN,
          body: payNative(TON_IN, swap(700_000n)),
          aborted: secondAborted,
          exitCode: secondExitCode,
          logBodies: [swapLog(TON_IN, JET_OUT)],
          then: [jettons(JET_OUT, POOL2, POOL2_JET, USER, USER_JET, null, { to: USER }), excess()],
        },
      ],
    }),
  ]);

test('DeDust v2 jetton_swap: USDT for a jetton through two pools, each a peer swap; a pool aborted or ending with a code other than 0 makes it failed', () => {
  const swapped = only(classifyTrace(twoPools(false).trace, contracts(false)).actions, 'jetton_swap');
  assert.equal(swapped.success, true);
  assert.deepEqual(swapped.details, {
    dex: 'dedust_v2',
    sender: USER,
    asset_in: USDT,
    asset_out: JET,
    dex_incoming_transfer: {
      asset: USDT,
      source: USER,
      destination: POOL,
      source_jetton_wallet: USER_USDT,
      destination_jetton_wallet: POOL_USDT,
      amount: USDT_OUT.toString(),
    },
    dex_outgoing_transfer: {
      asset: JET,
      source: POOL2,
      destination: USER,
      source_jetton_wallet: POOL2_JET,
      destination_jetton_wallet: USER_JET,
      amount: JET_OUT.toString(),
    },
    peer_swaps: [
      { asset_in: USDT, amount_in: USDT_OUT.toString(), asset_out: null, amount_out: TON_IN.toString() },
      { asset_in: null, amount_in: TON_IN.toString(), asset_out: JET, amount_out: JET_OUT.toString() },
    ],
    min_out_amount: '700000',
  });
  againstSpec(swapped);
  assert.equal(only(classifyTrace(twoPools(true).trace, contracts(false)).actions, 'jetton_swap').success, false);
  // A pool whose compute phase ended with another code than 0 fails the swap too, though it did not abort; 0 does not.
  assert.equal(only(classifyTrace(twoPools(false, 1).trace, contracts(false)).actions, 'jetton_swap').success, false);
  assert.equal(only(classifyTrace(twoPools(false, 0).trace, contracts(false)).actions, 'jetton_swap').success, true);
});

const refused = (exitCode: number) =>
  buildTrace(USER, [{ to: POOL, value: TON_IN, body: payNative(TON_IN, swap(99_000_000n)), then: [payout(TON_IN, exitCode), excess()] }]);

test('DeDust v2 jetton_swap: a TON swap the pool refused is failed, nothing out; a payout with exit code 0 is no refund', () => {
  const known = only(classifyTrace(refused(0x1234).trace, contracts(true)).actions, 'jetton_swap');
  assert.equal(known.success, false);
  assert.deepEqual(known.details, {
    dex: 'dedust_v2',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: {
      asset: null,
      source: USER,
      destination: POOL,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: TON_IN.toString(),
    },
    dex_outgoing_transfer: {
      asset: USDT,
      source: POOL,
      destination: USER,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '0',
    },
    peer_swaps: [],
    min_out_amount: '99000000',
  });
  againstSpec(known);
  const unknownPool = only(classifyTrace(refused(0x1234).trace, contracts(false)).actions, 'jetton_swap');
  assert.equal((unknownPool.details as { asset_out: unknown }).asset_out, null);
  const paid = classifyTrace(refused(0).trace, contracts(true)).actions;
  assert.ok(!paid.some((a) => a.type === 'jetton_swap'), paid.map((a) => a.type).join());
});
