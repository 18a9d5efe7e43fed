/**
 * DeDust's `jetton_swap` on traces built by hand (support.ts) whose vault, pool and jetton master are DeDust's and
 * Tether's mainnet addresses: a jetton swapped for TON through a jetton vault, TON offered through the native vault
 * and refunded (the pool refused: no swap log, a failed action), a two-pool route with its peer swaps, and a step
 * through a pool the index does not know (no swap, as toncenter's matcher). Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { account, address, buildTrace, againstSpec } from './support.js';
import {
  internalTransfer,
  NATIVE_VAULT,
  op,
  OTHER_JETTON,
  OTHER_POOL,
  payout,
  payoutFromPool,
  step,
  swapExternal,
  swapLog,
  TON_USDT_POOL,
  USDT,
  USDT_VAULT,
  usdtForTon,
  USER,
  USER_USDT,
  VAULT_USDT,
} from './dedust-traces.js';

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [VAULT_USDT, { owner: USDT_VAULT, jetton: USDT }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
  dexPools: new Map([
    [TON_USDT_POOL, { dex: 'dedust', assets: [null, USDT] }],
    [OTHER_POOL, { dex: 'dedust', assets: [null, OTHER_JETTON] }],
  ]),
};

test('DeDust jetton_swap: USDT through the jetton vault and the TON/USDT pool, TON paid out by the native vault', () => {
  const { trace } = usdtForTon([TON_USDT_POOL], [[swapLog(USDT, null, 1_000n, 990n)]]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['jetton_swap', true]],
  );
  const [swap] = actions;
  assert.deepEqual(swap.details, {
    dex: 'dedust',
    sender: USER,
    asset_in: USDT,
    asset_out: null,
    dex_incoming_transfer: {
      asset: USDT,
      source: USER,
      destination: USDT_VAULT,
      source_jetton_wallet: USER_USDT,
      destination_jetton_wallet: VAULT_USDT,
      amount: '1000',
    },
    dex_outgoing_transfer: {
      asset: null,
      source: NATIVE_VAULT,
      destination: USER,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '990',
    },
    peer_swaps: [],
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'every step is the swap');
  for (const a of [USER, USER_USDT, NATIVE_VAULT]) assert.ok(swap.accounts.includes(a), `${a} among the accounts`);
  againstSpec(swap);
});

test('DeDust jetton_swap: TON offered through the native vault, the pool refuses (no swap log): refunded, failed', () => {
  const { trace } = buildTrace(USER, [
    {
      to: NATIVE_VAULT,
      value: 5_200_000_000n,
      body: op(0xea06185d)
        .storeCoins(5_000_000_000n)
        .storeSlice(step(TON_USDT_POOL).endCell().beginParse())
        .storeRef(beginCell().endCell())
        .endCell(),
      then: [
        {
          to: TON_USDT_POOL,
          body: swapExternal(),
          then: [{ to: NATIVE_VAULT, body: payoutFromPool(5_000_000_000n), then: [{ to: USER, value: 5_000_000_000n, body: payout() }] }],
        },
      ],
    },
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.equal(swap.type, 'jetton_swap');
  assert.equal(swap.success, false, 'a refund is never a success');
  assert.deepEqual(swap.details, {
    dex: 'dedust',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: {
      asset: null,
      source: USER,
      destination: NATIVE_VAULT,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '5000000000',
    },
    dex_outgoing_transfer: {
      asset: null,
      source: NATIVE_VAULT,
      destination: USER,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '5000000000',
    },
    peer_swaps: [],
  });
  againstSpec(swap);
});

test('DeDust jetton_swap through two pools: each pool step a peer swap, asset_out from the route', () => {
  const { trace } = usdtForTon(
    [TON_USDT_POOL, OTHER_POOL],
    [[swapLog(USDT, null, 1_000n, 500n)], [swapLog(null, OTHER_JETTON, 500n, 990n)]],
  );
  const [swap] = classifyTrace(trace, contracts).actions;
  assert.equal(swap.type, 'jetton_swap');
  assert.equal(swap.success, true);
  const details = swap.details as Record<string, unknown>;
  assert.equal(details.asset_in, USDT);
  assert.equal(details.asset_out, OTHER_JETTON, 'the last pool of the route decides what was asked for');
  assert.deepEqual(details.peer_swaps, [
    { asset_in: USDT, amount_in: '1000', asset_out: null, amount_out: '500' },
    { asset_in: null, amount_in: '500', asset_out: OTHER_JETTON, amount_out: '990' },
  ]);
  againstSpec(swap);
});

test('DeDust: a step through a pool the index does not know makes no swap (the transfer and the calls stay)', () => {
  const unknownPool = account(0xdead);
  const { trace } = usdtForTon([unknownPool], [[swapLog(USDT, null, 1_000n, 990n)]]);
  const types = classifyTrace(trace, contracts).actions.map((a) => a.type);
  assert.ok(!types.includes('jetton_swap'));
  assert.ok(types.includes('jetton_transfer'));
});

test('DeDust jetton_swap: TON for USDT, paid by the USDT vault with a jetton transfer', () => {
  const { trace } = buildTrace(USER, [
    {
      to: NATIVE_VAULT,
      value: 2_200_000_000n,
      body: op(0xea06185d)
        .storeCoins(2_000_000_000n)
        .storeSlice(step(TON_USDT_POOL).endCell().beginParse())
        .storeRef(beginCell().endCell())
        .endCell(),
      then: [
        {
          to: TON_USDT_POOL,
          body: swapExternal(),
          logBodies: [swapLog(null, USDT, 2_000_000_000n, 6_000_000n)],
          then: [
            {
              to: USDT_VAULT,
              body: payoutFromPool(6_000_000n),
              then: [
                {
                  to: VAULT_USDT,
                  body: beginCell()
                    .storeUint(0x0f8a7ea5, 32)
                    .storeUint(1, 64)
                    .storeCoins(6_000_000n)
                    .storeAddress(address(USER))
                    .storeAddress(address(USER))
                    .storeBit(0)
                    .storeCoins(0n)
                    .storeBit(0)
                    .endCell(),
                  then: [{ to: USER_USDT, body: internalTransfer(6_000_000n, USDT_VAULT) }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  const details = swap.details as Record<string, unknown>;
  assert.equal(details.asset_in, null);
  assert.equal(details.asset_out, USDT);
  assert.deepEqual(details.dex_outgoing_transfer, {
    asset: USDT,
    source: USDT_VAULT,
    destination: USER,
    source_jetton_wallet: VAULT_USDT,
    destination_jetton_wallet: USER_USDT,
    amount: '6000000',
  });
  assert.equal(swap.transactions.length, trace.transactions.length);
  againstSpec(swap);
});
