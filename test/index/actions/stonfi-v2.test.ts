/**
 * STON.fi v2's `jetton_swap` on traces built by hand (support.ts): jetton for jetton, jetton for TON paid through
 * the router's pTON wallet, TON offered through pTON and refunded (a failed action whose asked-for asset is read
 * from the swap's route). pTON is mainnet's pTON v2 master and USDT Tether's, as toncenter knows them; the router,
 * pool and wallets are made up (the classifier names none of them). Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { stonfiV2SwapWallets } from '../../../src/index/actions/stonfi-v2-swaps.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { op, USDT, account, address, buildTrace, type Step, againstSpec } from './support.js';

const PTON_V2 = '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3';
const [USER, ROUTER, POOL, TOKEN] = [0xa11ce, 0x5701, 0x9001, 0x70c].map(account);
const [USER_USDT, USER_TOKEN, ROUTER_USDT, ROUTER_TOKEN, ROUTER_PTON] = [0xa1, 0xa2, 0xb1, 0xb2, 0xb3].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [USER_TOKEN, { owner: USER, jetton: TOKEN }],
    [ROUTER_USDT, { owner: ROUTER, jetton: USDT }],
    [ROUTER_TOKEN, { owner: ROUTER, jetton: TOKEN }],
    [ROUTER_PTON, { owner: ROUTER, jetton: PTON_V2 }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};

/** The swap payload a user sends the router (swap#6664de2a: the router's wallet of the asked token first). */
const swapPayload = (askedWallet: string): Cell =>
  beginCell()
    .storeUint(0x6664de2a, 32)
    .storeAddress(address(askedWallet))
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .endCell();
/** swap#6664de2a as the router sends it to the pool. */
const poolSwap = (amount: bigint, askedWallet: string): Cell =>
  op(0x6664de2a)
    .storeAddress(address(USER))
    .storeCoins(amount)
    .storeCoins(0n)
    .storeRef(
      beginCell()
        .storeUint(0x0f8a7ea5, 32)
        .storeAddress(address(askedWallet))
        .storeAddress(address(USER))
        .storeAddress(address(USER))
        .storeUint(9_999_999_999n, 64)
        .storeRef(
          beginCell()
            .storeCoins(1n)
            .storeAddress(address(USER))
            .storeCoins(0n)
            .storeMaybeRef(null)
            .storeCoins(0n)
            .storeMaybeRef(null)
            .storeUint(10, 16)
            .storeAddress(null),
        ),
    )
    .endCell();
/** pay_to#657b54f5 with its exit code and what it pays out of which router wallet. */
const payTo = (exitCode: number, amount: bigint, wallet: string): Cell =>
  op(0x657b54f5)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeUint(exitCode, 32)
    .storeMaybeRef(null)
    .storeRef(beginCell().storeCoins(0n).storeCoins(amount).storeAddress(address(wallet)).storeCoins(0n).storeAddress(null))
    .endCell();
const transfer = (amount: bigint, to: string, payload: Cell | null = null): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(300_000_000n)
    .storeMaybeRef(payload)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(0).storeBit(0).endCell();
const notify = (amount: bigint, from: string, payload: Cell): Cell =>
  op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(1).storeRef(payload).endCell();
/** ton_transfer#01f3835d: TON through a pTON wallet. */
const tonTransfer = (amount: bigint, payload: Cell | null): Cell =>
  op(0x01f3835d).storeCoins(amount).storeAddress(address(USER)).storeMaybeRef(payload).endCell();
const excess = (): Cell => op(0xd53276db).endCell();
const SWAP_OK = 0xc64370e5;
const REFUND = 0x5ffe1295;

/** USDT from the user into the router, swapped on the pool; `payout` is what the router's pay_to leads to. */
function usdtIn(askedWallet: string, exitCode: number, paidWallet: string, paid: bigint, payout: Step) {
  return buildTrace(USER, [
    {
      to: USER_USDT,
      body: transfer(1_000n, ROUTER, swapPayload(askedWallet)),
      then: [
        {
          to: ROUTER_USDT,
          body: internalTransfer(1_000n, USER),
          then: [
            {
              to: ROUTER,
              body: notify(1_000n, USER, swapPayload(askedWallet)),
              then: [
                {
                  to: POOL,
                  body: poolSwap(1_000n, askedWallet),
                  then: [{ to: ROUTER, body: payTo(exitCode, paid, paidWallet), then: [payout] }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
}

test('STON.fi v2 jetton_swap: USDT for a jetton, the router paying out of its wallet', () => {
  const { trace } = usdtIn(ROUTER_TOKEN, SWAP_OK, ROUTER_TOKEN, 70n, {
    to: ROUTER_TOKEN,
    body: transfer(70n, USER),
    then: [{ to: USER_TOKEN, body: internalTransfer(70n, ROUTER), then: [{ to: USER, body: excess() }] }],
  });
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['jetton_swap', true]],
  );
  const [swap] = actions;
  assert.deepEqual(swap.details, {
    dex: 'stonfi_v2',
    sender: USER,
    asset_in: USDT,
    asset_out: TOKEN,
    dex_incoming_transfer: {
      asset: USDT,
      source: USER,
      destination: ROUTER,
      source_jetton_wallet: USER_USDT,
      destination_jetton_wallet: ROUTER_USDT,
      amount: '1000',
    },
    dex_outgoing_transfer: {
      asset: TOKEN,
      source: ROUTER,
      destination: USER,
      source_jetton_wallet: ROUTER_TOKEN,
      destination_jetton_wallet: USER_TOKEN,
      amount: '70',
    },
    peer_swaps: [],
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'every step is the swap');
  againstSpec(swap);
});

test('STON.fi v2 jetton_swap: USDT for TON, paid through the router pTON wallet (pTON is TON)', () => {
  const { trace } = usdtIn(ROUTER_PTON, SWAP_OK, ROUTER_PTON, 3_000_000_000n, {
    to: ROUTER_PTON,
    body: transfer(3_000_000_000n, USER),
    then: [{ to: USER, value: 3_000_000_000n, body: tonTransfer(3_000_000_000n, null) }],
  });
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  const details = swap.details as Record<string, unknown>;
  assert.equal(details.asset_in, USDT);
  assert.equal(details.asset_out, null, 'TON');
  assert.deepEqual(details.dex_outgoing_transfer, {
    asset: null,
    source: ROUTER,
    destination: USER,
    source_jetton_wallet: null,
    destination_jetton_wallet: null,
    amount: '3000000000',
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'the TON passed on is part of it');
  againstSpec(swap);
});

test('STON.fi v2 jetton_swap: TON through pTON, refunded by the pool: failed, asset_out from the route', () => {
  const offered = 5_000_000_000n;
  const { trace } = buildTrace(USER, [
    {
      to: ROUTER_PTON,
      value: offered + 300_000_000n,
      body: tonTransfer(offered, swapPayload(ROUTER_USDT)),
      then: [
        {
          to: ROUTER,
          body: notify(offered, USER, swapPayload(ROUTER_USDT)),
          then: [
            {
              to: POOL,
              body: poolSwap(offered, ROUTER_USDT),
              then: [
                {
                  to: ROUTER,
                  body: payTo(REFUND, offered, ROUTER_PTON),
                  then: [
                    {
                      to: ROUTER_PTON,
                      body: transfer(offered, USER),
                      then: [{ to: USER, value: offered, body: tonTransfer(offered, null) }],
                    },
                  ],
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
  assert.equal(swap.type, 'jetton_swap');
  assert.equal(swap.success, false, 'a refund is never a success');
  assert.deepEqual(swap.details, {
    dex: 'stonfi_v2',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: {
      asset: null,
      source: USER,
      destination: ROUTER,
      source_jetton_wallet: null,
      destination_jetton_wallet: ROUTER_PTON,
      amount: '5000000000',
    },
    dex_outgoing_transfer: {
      asset: null,
      source: ROUTER,
      destination: USER,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '5000000000',
    },
    peer_swaps: [],
  });
  againstSpec(swap);
  // The route's wallet is one the classifier must be given though the trace never reached it.
  const poolTx = trace.transactions.find((tx) => tx.account === POOL)!;
  assert.deepEqual(stonfiV2SwapWallets(poolTx), [ROUTER_USDT]);
});

test('STON.fi v2: a swap through a router wallet the index does not know is no swap', () => {
  const unknown = account(0xbad);
  const { trace } = usdtIn(unknown, SWAP_OK, unknown, 70n, { to: unknown, body: transfer(70n, USER) });
  const types = classifyTrace(trace, contracts).actions.map((a) => a.type);
  assert.ok(!types.includes('jetton_swap'), types.join(','));
});

test('STON.fi v2 jetton_swap through two pools: the router passes the first pay_to on as the next swap; peer_swaps', () => {
  const [TOKEN2, POOL2, ROUTER_TOKEN2, USER_TOKEN2] = [0x70d, 0x9002, 0xb4, 0xa4].map(account);
  const known: KnownContracts = {
    ...contracts,
    jettonWallets: new Map([
      ...contracts.jettonWallets,
      [ROUTER_TOKEN2, { owner: ROUTER, jetton: TOKEN2 }],
      [USER_TOKEN2, { owner: USER, jetton: TOKEN2 }],
    ]),
  };
  const { trace } = usdtIn(ROUTER_TOKEN, SWAP_OK, ROUTER_TOKEN, 70n, {
    to: POOL2,
    body: poolSwap(70n, ROUTER_TOKEN2),
    then: [
      {
        to: ROUTER,
        body: payTo(SWAP_OK, 30n, ROUTER_TOKEN2),
        then: [{ to: ROUTER_TOKEN2, body: transfer(30n, USER), then: [{ to: USER_TOKEN2, body: internalTransfer(30n, ROUTER) }] }],
      },
    ],
  });
  const [swap, ...rest] = classifyTrace(trace, known).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  const details = swap.details as Record<string, unknown>;
  assert.deepEqual([details.asset_in, details.asset_out], [USDT, TOKEN2]);
  assert.deepEqual(details.peer_swaps, [
    { asset_in: USDT, amount_in: '1000', asset_out: TOKEN, amount_out: '70' },
    { asset_in: TOKEN, amount_in: '70', asset_out: TOKEN2, amount_out: '30' },
  ]);
  assert.equal((details.dex_outgoing_transfer as Record<string, unknown>).destination_jetton_wallet, USER_TOKEN2);
  againstSpec(swap);
});
