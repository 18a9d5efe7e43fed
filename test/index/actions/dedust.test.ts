/**
 * DeDust's `jetton_swap` on traces built by hand (support.ts) whose vault, pool and jetton master are DeDust's and
 * Tether's mainnet addresses: a jetton swapped for TON through a jetton vault, TON offered through the native vault
 * and refunded (the pool refused: no swap log, a failed action), a two-pool route with its peer swaps, and a step
 * through a pool the index does not know (no swap, as toncenter's matcher). Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { actionDoc } from '../../../src/index/actions/action-rows.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { toncenterV3 } from '../../api/v3/support/spec.js';
import { account, address, buildTrace } from './support.js';

const raw = (friendly: string): string => Address.parse(friendly).toRawString().toUpperCase();
/** DeDust's native (TON) vault and its TON/USDT pool on mainnet; Tether's USDT master. */
const NATIVE_VAULT = raw('EQDa4VOnTYlLvDJ0gZjNYm5PXfSmmtL6Vs6A_CZEtXCNICq_');
const TON_USDT_POOL = raw('EQA-X_yo3fzzbDbJ_0bzFWKqtRuZFIRa1sJsveZJ1YpViO3r');
const USDT = raw('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs');
const [USER, USER_USDT, USDT_VAULT, VAULT_USDT, OTHER_JETTON, OTHER_POOL] = [0xa11ce, 0xa11c1, 0x7a, 0x7b, 0x07, 0x0b].map(account);

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

const op = (code: number, queryId = 1n): Builder => beginCell().storeUint(code, 32).storeUint(queryId, 64);
/** SwapStep: pool, kind (given in), limit, next step. */
const step = (pool: string, next: Cell | null = null): Builder =>
  beginCell().storeAddress(address(pool)).storeBit(0).storeCoins(0n).storeMaybeRef(next);
const jettonAsset = (b: Builder, master: string): Builder =>
  b.storeUint(1, 4).storeInt(Address.parseRaw(master).workChain, 8).storeBuffer(Address.parseRaw(master).hash);
const asset = (b: Builder, master: string | null): Builder => (master === null ? b.storeUint(0, 4) : jettonAsset(b, master));
/** The pool's swap log (swap#9c610de3). */
const swapLog = (assetIn: string | null, assetOut: string | null, amountIn: bigint, amountOut: bigint): Cell =>
  asset(asset(beginCell().storeUint(0x9c610de3, 32), assetIn), assetOut)
    .storeCoins(amountIn)
    .storeCoins(amountOut)
    .storeRef(beginCell().storeAddress(address(USER)).storeAddress(null).storeCoins(1n).storeCoins(2n))
    .endCell();
const payoutFromPool = (amount: bigint): Cell =>
  op(0xad4eb6f5).storeRef(beginCell().endCell()).storeCoins(amount).storeAddress(address(USER)).storeMaybeRef(null).endCell();
const payout = (): Cell => op(0x474f86cf).storeRef(beginCell().endCell()).endCell();
const swapExternal = (): Cell => op(0x61ee542d).endCell();
const internalTransfer = (amount: bigint, from: string) =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(0).storeBit(0).endCell();
const notify = (amount: bigint, from: string, payload: Cell) =>
  op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(1).storeRef(payload).endCell();
const transfer = (amount: bigint, to: string, payload: Cell) =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(200_000_000n)
    .storeBit(1)
    .storeRef(payload)
    .endCell();
/** swap#e3a0d482 step swap_params: the jetton transfer's forward payload. */
const swapPayload = (first: Cell): Cell =>
  beginCell().storeUint(0xe3a0d482, 32).storeSlice(first.beginParse()).storeRef(beginCell().endCell()).endCell();

function againstSpec(action: ActionRecord): void {
  const body = { actions: [{ ...JSON.parse(actionDoc(action)), accounts: action.accounts }], address_book: {}, metadata: {} };
  assert.deepEqual(toncenterV3().errors('/api/v3/actions', body), [], "against toncenter's spec");
}

/** USDT into DeDust's USDT vault, swapped on `pools` (the route), paid in TON by the native vault. */
function usdtForTon(pools: string[], logs: Cell[][]) {
  let route: Cell | null = null;
  for (const pool of [...pools].reverse()) route = step(pool, route).endCell();
  const payload = swapPayload(route!);
  // The pool chain: swap_external to the first, swap_peer onward, the last pays through the native vault.
  type S = Parameters<typeof buildTrace>[1][number];
  let hop: S = { to: NATIVE_VAULT, body: payoutFromPool(990n), then: [{ to: USER, body: payout(), value: 990n }] };
  for (let i = pools.length - 1; i >= 0; i--) {
    hop = { to: pools[i], body: i === 0 ? swapExternal() : op(0x72aca8aa).endCell(), logBodies: logs[i], then: [hop] };
  }
  return buildTrace(USER, [
    {
      to: USER_USDT,
      body: transfer(1_000n, USDT_VAULT, payload),
      then: [
        {
          to: VAULT_USDT,
          body: internalTransfer(1_000n, USER),
          then: [{ to: USDT_VAULT, body: notify(1_000n, USER, payload), then: [hop] }],
        },
      ],
    },
  ]);
}

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
