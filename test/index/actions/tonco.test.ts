/**
 * TONCO's `jetton_swap` on traces built by hand (support.ts) with Tether's USDT master and TONCO's wTTON master as
 * toncenter lists it (mainnet); the router, pools and wallets are made-up accounts (toncenter's matcher names no
 * TONCO address): USDT for TON paid in wTTON, TON offered through wTTON and refused by the pool (failed, the
 * asked-for asset from the swap payload), USDT refused (its refund is `asset_out`, as toncenter reads it), a route
 * through two pools with the router paying itself in between (`peer_swaps`), and the router wallets the index must
 * look up. Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { toncoSwapWallets } from '../../../src/index/actions/tonco-swaps.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { account, address, buildTrace, type Step, againstSpec } from './support.js';
import { internalTransfer, notify, op, transfer, USDT, USER, USER_USDT } from './dedust-traces.js';
import { payTo, routerTransfer, tonTransfer, WTTON } from './tonco-traces.js';

const [ROUTER, POOL, POOL_2, ROUTER_USDT, ROUTER_WTTON, X, ROUTER_X] = [0x70c0, 0x9001, 0x9002, 0x7a1, 0x7a2, 0x0c, 0x7a3].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [ROUTER_USDT, { owner: ROUTER, jetton: USDT }],
    [ROUTER_WTTON, { owner: ROUTER, jetton: WTTON }],
    [ROUTER_X, { owner: ROUTER, jetton: X }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};

/** The swap request as a forward payload: the router's wallet of the asset asked for, the minimum out, the recipient. */
const swapPayload = (target: string, minOut: bigint, next: Cell | null = null): Cell =>
  beginCell()
    .storeUint(0xa7fb58f8, 32)
    .storeAddress(address(target))
    .storeUint(0, 160)
    .storeCoins(minOut)
    .storeAddress(address(USER))
    .storeMaybeRef(next)
    .endCell();
/** POOLV3_SWAP from the router to the pool: the router's wallet that took the offer in. */
const poolSwap = (sourceWallet: string, amount: bigint): Cell =>
  op(0xa7fb58f8)
    .storeAddress(address(USER))
    .storeAddress(address(sourceWallet))
    .storeRef(beginCell().storeCoins(amount).storeUint(0, 160).storeCoins(0n).endCell())
    .storeRef(beginCell().storeAddress(address(USER)).storeCoins(0n).storeMaybeRef(null).storeCoins(0n).storeMaybeRef(null).endCell())
    .endCell();

/** The router paying TON: a wTTON transfer to its own wallet, which passes the TON on to the user. */
const tonOut = (amount: bigint): Step => ({
  to: ROUTER_WTTON,
  body: routerTransfer(amount, USER),
  then: [{ to: USER, value: amount, body: tonTransfer(amount) }],
});

/** USDT into the router (its notification carries the swap payload), then the router's swap to `pool` and what follows. */
function usdtIn(payload: Cell, afterNotify: Step): Step {
  return {
    to: USER_USDT,
    body: transfer(1_000n, ROUTER, payload),
    then: [
      {
        to: ROUTER_USDT,
        body: internalTransfer(1_000n, USER),
        then: [{ to: ROUTER, body: notify(1_000n, USER, payload), then: [afterNotify] }],
      },
    ],
  };
}

const transferSide = (asset: string | null, amount: string, ends: [string, string | null, string, string | null]) => ({
  asset,
  source: ends[0],
  destination: ends[2],
  source_jetton_wallet: ends[1],
  destination_jetton_wallet: ends[3],
  amount,
});

test('TONCO jetton_swap: USDT for TON, paid out in wTTON whose wallet passes the TON on', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(swapPayload(ROUTER_WTTON, 900n), {
      to: POOL,
      body: poolSwap(ROUTER_USDT, 1_000n),
      then: [{ to: ROUTER, body: payTo(200, 0n, ROUTER_USDT, 990n, ROUTER_WTTON), then: [tonOut(990n)] }],
    }),
  ]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['jetton_swap', true]],
  );
  const [swap] = actions;
  assert.deepEqual(swap.details, {
    dex: 'tonco',
    sender: USER,
    asset_in: USDT,
    asset_out: null,
    dex_incoming_transfer: transferSide(USDT, '1000', [USER, USER_USDT, ROUTER, ROUTER_USDT]),
    dex_outgoing_transfer: transferSide(null, '990', [ROUTER, null, USER, null]),
    peer_swaps: [],
    // ton-index-go's TONCO-only field; toncenter writes what was paid there.
    min_out_amount: '990',
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'every step, the TON passed on too');
  againstSpec(swap);
});

test('TONCO jetton_swap: TON offered through wTTON, the pool refuses: refunded, failed, asset_out from the payload', () => {
  const payload = swapPayload(ROUTER_USDT, 100n);
  const { trace } = buildTrace(USER, [
    {
      to: ROUTER_WTTON,
      value: 5_300_000_000n,
      body: tonTransfer(5_000_000_000n, payload),
      then: [
        {
          to: ROUTER,
          body: notify(5_000_000_000n, USER, payload),
          then: [
            {
              to: POOL,
              body: poolSwap(ROUTER_WTTON, 5_000_000_000n),
              then: [{ to: ROUTER, body: payTo(0xfff, 5_000_000_000n, ROUTER_WTTON, 0n, ROUTER_USDT), then: [tonOut(5_000_000_000n)] }],
            },
          ],
        },
      ],
    },
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', false]);
  assert.deepEqual(swap.details, {
    dex: 'tonco',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: transferSide(null, '5000000000', [USER, null, ROUTER, ROUTER_WTTON]),
    dex_outgoing_transfer: transferSide(null, '5000000000', [ROUTER, null, USER, null]),
    peer_swaps: [],
    // The payload's minimum for the asset asked for.
    min_out_amount: '100',
  });
  againstSpec(swap);
});

test('TONCO jetton_swap: USDT refused by the pool: failed, and asset_out is the refund, as toncenter reads a jetton offer', () => {
  const refund: Step = {
    to: ROUTER_USDT,
    body: routerTransfer(1_000n, USER),
    then: [{ to: USER_USDT, body: internalTransfer(1_000n, ROUTER) }],
  };
  const { trace } = buildTrace(USER, [
    usdtIn(swapPayload(ROUTER_WTTON, 900n), {
      to: POOL,
      body: poolSwap(ROUTER_USDT, 1_000n),
      then: [{ to: ROUTER, body: payTo(0xfff, 1_000n, ROUTER_USDT, 0n, ROUTER_WTTON), then: [refund] }],
    }),
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', false]);
  const details = swap.details as Record<string, unknown>;
  // toncenter looks for the swap payload in the transfer block, which keeps none: the payload's wTTON is not read.
  assert.deepEqual([details.asset_in, details.asset_out], [USDT, USDT]);
  assert.deepEqual(details.dex_outgoing_transfer, transferSide(USDT, '1000', [ROUTER, ROUTER_USDT, USER, USER_USDT]));
  assert.equal(details.min_out_amount, '1000');
  againstSpec(swap);
});

test('TONCO jetton_swap through two pools: the router pays itself X in between; each pool a peer swap', () => {
  const selfTransfer: Step = {
    to: ROUTER_X,
    body: routerTransfer(500n, ROUTER),
    then: [
      {
        to: ROUTER_X,
        body: internalTransfer(500n, ROUTER),
        then: [
          {
            to: ROUTER,
            body: notify(500n, ROUTER, beginCell().endCell()),
            then: [
              {
                to: POOL_2,
                body: poolSwap(ROUTER_X, 500n),
                then: [{ to: ROUTER, body: payTo(200, 0n, ROUTER_X, 990n, ROUTER_WTTON), then: [tonOut(990n)] }],
              },
            ],
          },
        ],
      },
    ],
  };
  const { trace } = buildTrace(USER, [
    usdtIn(swapPayload(ROUTER_X, 0n, swapPayload(ROUTER_WTTON, 900n)), {
      to: POOL,
      body: poolSwap(ROUTER_USDT, 1_000n),
      then: [{ to: ROUTER, body: payTo(200, 0n, ROUTER_USDT, 500n, ROUTER_X), then: [selfTransfer] }],
    }),
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  const details = swap.details as Record<string, unknown>;
  assert.deepEqual([details.asset_in, details.asset_out], [USDT, null]);
  assert.deepEqual(details.peer_swaps, [
    { asset_in: USDT, amount_in: '1000', asset_out: X, amount_out: '500' },
    { asset_in: X, amount_in: '500', asset_out: null, amount_out: '990' },
  ]);
  assert.deepEqual(details.dex_outgoing_transfer, transferSide(null, '990', [ROUTER, null, USER, null]));
  assert.equal(details.min_out_amount, '990');
  assert.equal(swap.transactions.length, trace.transactions.length, 'both pools, the payment in between');
  againstSpec(swap);
});

test("TONCO: the router wallets a trace's swap payloads and pay_to name are looked up with its accounts", () => {
  const payload = swapPayload(ROUTER_X, 0n, swapPayload(ROUTER_WTTON, 900n));
  const { txs } = buildTrace(USER, [
    usdtIn(payload, {
      to: POOL,
      body: poolSwap(ROUTER_USDT, 1_000n),
      then: [{ to: ROUTER, body: payTo(200, 0n, ROUTER_USDT, 500n, ROUTER_X) }],
    }),
  ]);
  const named = txs.flatMap((tx) => toncoSwapWallets(tx));
  assert.deepEqual(named, [ROUTER_X, ROUTER_WTTON, ROUTER_USDT, ROUTER_X]);
});
