/**
 * DeDust v2's liquidity (dedust-v2-liquidity.ts) on traces built by hand, with the details ton-index-go would
 * answer (`dex` `dedust_v2`):
 * - `dex_withdraw_liquidity`: a withdrawal paid in USDT and TON (the liquidity burnt from the pool's log); one the
 *   pool refused (no log, no payouts: failed, the liquidity asked for); one that also claims fees (none).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { actionDoc } from '../../../src/index/actions/action-rows.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { toncenterV3 } from '../../api/v3/support/spec.js';
import { USDT, account, address, buildTrace, op, type Step } from './support.js';

const [USER, POOL, POSITION, USER_USDT, POOL_USDT] = [0xa11ce, 0x9001, 0x9002, 0xa1, 0xb1].map(account);
const EMPTY = beginCell().endCell();

const contracts: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [POOL_USDT, { owner: POOL, jetton: USDT }],
  ]),
};

const excess = (): Step => ({ to: USER, body: op(0xd53276db).endCell(), value: 10_000_000n });
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
const jettons = (amount: bigint, from: string, fromWallet: string, to: string, toWallet: string, forward: Cell | null, then: Step): Step => ({
  to: fromWallet,
  body: transfer(amount, to, from, forward),
  then: [{ to: toWallet, body: internalTransfer(amount, from), then: [{ ...then, body: then.body ?? notify(amount, from) }] }],
});
/** payout#3216ca09 query_id amount:Coins exit_code:int32 payload:(Maybe ^Cell): TON from the pool. */
const tonPayout = (amount: bigint, exitCode = 0): Step => ({
  to: USER,
  value: amount,
  body: op(0x3216ca09).storeCoins(amount).storeInt(exitCode, 32).storeMaybeRef(null).endCell(),
});

function againstSpec(action: ActionRecord): void {
  const body = { actions: [{ ...JSON.parse(actionDoc(action)), accounts: action.accounts }], address_book: {}, metadata: {} };
  assert.deepEqual(toncenterV3().errors('/api/v3/actions', body), [], "against toncenter's spec");
}

const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, `${type} among ${actions.map((a) => a.type).join()}`);
  return found[0];
};
const types = (actions: ActionRecord[]): string => actions.map((a) => a.type).join();

// --- withdrawals -------------------------------------------------------------------------------------------------

const LIQUIDITY = 3_000_000_000n;
const BURNT = 2_999_000_000n;
const USDT_OUT = 14_500_000n;
const TON_OUT = 5_000_000_000n;

const withdraw = (liquidity: bigint, autoClaimFees = false): Cell =>
  op(0x20b5ef89).storeCoins(liquidity).storeCoins(1n).storeCoins(1n).storeBit(autoClaimFees).storeRef(EMPTY).endCell();
/** withdraw_liquidity#bc1531a9: the pool's order to the position (the fee growth and rewards it passes on). */
const withdrawLiquidity = (liquidity: bigint): Cell =>
  op(0xbc1531a9)
    .storeCoins(liquidity)
    .storeCoins(1n)
    .storeCoins(1n)
    .storeVarUint(11n, 5)
    .storeVarUint(12n, 5)
    .storeMaybeRef(null)
    .storeBit(0)
    .storeRef(EMPTY)
    .endCell();
/** exit_liquidity#f6f6a3aa: the position's answer (liquidity, fees, owner, minimums). */
const exitLiquidity = (liquidity: bigint): Cell =>
  op(0xf6f6a3aa)
    .storeCoins(liquidity)
    .storeCoins(0n)
    .storeCoins(0n)
    .storeAddress(address(USER))
    .storeCoins(1n)
    .storeCoins(1n)
    .storeRef(EMPTY)
    .endCell();
/** withdrawal#c0d77b54 (the pool's log, no query id): liquidity, amounts out, initiator, recipient, ^state. */
const withdrawalLog = (liquidity: bigint, x: bigint, y: bigint): Cell =>
  beginCell()
    .storeUint(0xc0d77b54, 32)
    .storeCoins(liquidity)
    .storeCoins(x)
    .storeCoins(y)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeRef(EMPTY)
    .endCell();

/** user -> pool -> position -> pool, whose last step logs `logs` and sends `legs`. */
const withdrawn = (request: Cell, logs: Cell[], legs: Step[]) =>
  buildTrace(USER, [
    {
      to: POOL,
      body: request,
      then: [
        {
          to: POSITION,
          body: withdrawLiquidity(LIQUIDITY),
          then: [{ to: POOL, body: exitLiquidity(LIQUIDITY), logBodies: logs, then: [...legs, excess()] }],
        },
      ],
    },
  ]);

const WITHDRAW_BASE = {
  dex: 'dedust_v2',
  is_refund: null,
  source: USER,
  pool: POOL,
  destination_liquidity: POOL,
  burnt_nft_index: null,
  burnt_nft_address: null,
  tick_lower: null,
  tick_upper: null,
};

test('DeDust v2 dex_withdraw_liquidity: USDT and TON paid out, the liquidity burnt from the pool`s log', () => {
  const { trace, txs } = withdrawn(
    withdraw(LIQUIDITY),
    [withdrawalLog(BURNT, USDT_OUT, TON_OUT)],
    [jettons(USDT_OUT, POOL, POOL_USDT, USER, USER_USDT, null, { to: USER }), tonPayout(TON_OUT)],
  );
  const actions = classifyTrace(trace, contracts).actions;
  const withdrawal = only(actions, 'dex_withdraw_liquidity');
  assert.equal(withdrawal.success, true);
  assert.deepEqual(withdrawal.details, {
    ...WITHDRAW_BASE,
    amount_1: USDT_OUT.toString(),
    amount_2: TON_OUT.toString(),
    asset_1: USDT,
    asset_2: null,
    user_jetton_wallet_1: USER_USDT,
    user_jetton_wallet_2: null,
    lp_tokens_burnt: BURNT.toString(),
  });
  for (const who of [USER, POOL, POSITION, POOL_USDT, USER_USDT]) assert.ok(withdrawal.accounts.includes(who), who);
  // Every transaction but the pool's excess (toncenter's matcher takes none); the wallet's as the initiating one.
  assert.equal(withdrawal.transactions.length, txs.length - 1);
  assert.equal(only(actions, 'call_contract').details.opcode, '0xd53276db');
  assert.ok(!actions.some((a) => a.type === 'jetton_transfer'), 'the USDT payout is a part, not an action');
  againstSpec(withdrawal);
});

test('DeDust v2 dex_withdraw_liquidity: refused by the pool (no log, nothing paid) is failed; auto_claim_fees is none', () => {
  const refused = only(classifyTrace(withdrawn(withdraw(LIQUIDITY), [], []).trace, contracts).actions, 'dex_withdraw_liquidity');
  assert.equal(refused.success, false);
  assert.deepEqual(refused.details, {
    ...WITHDRAW_BASE,
    amount_1: null,
    amount_2: null,
    asset_1: null,
    asset_2: null,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: null,
    lp_tokens_burnt: LIQUIDITY.toString(),
  });
  againstSpec(refused);
  const claiming = classifyTrace(
    withdrawn(withdraw(LIQUIDITY, true), [withdrawalLog(BURNT, USDT_OUT, TON_OUT)], [tonPayout(TON_OUT)]).trace,
    contracts,
  ).actions;
  assert.ok(!claiming.some((a) => a.type === 'dex_withdraw_liquidity'), types(claiming));
});
