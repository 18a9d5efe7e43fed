/**
 * STON.fi v2 liquidity with a TON side on traces built by hand (support.ts): TON reaches the router through its pTON
 * wallet (ton_transfer#01f3835d, the wallet's notification), and a withdrawal pays TON the same way. pTON is
 * mainnet's pTON v2 master and USDT Tether's, as toncenter knows them; the router, pool (the LP master), LP account
 * and wallets are made up. Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { op, USDT, account, address, buildTrace, type Step, againstSpec, actionId } from './support.js';

const PTON_V2 = '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3';
const [USER, ROUTER, POOL, LP_ACCOUNT] = [0xa11ce, 0x5701, 0x9001, 0x1ac].map(account);
const [USER_USDT, USER_LP, ROUTER_USDT, ROUTER_PTON] = [0xa1, 0xa3, 0xb1, 0xb3].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [USER_LP, { owner: USER, jetton: POOL }],
    [ROUTER_USDT, { owner: ROUTER, jetton: USDT }],
    [ROUTER_PTON, { owner: ROUTER, jetton: PTON_V2 }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};

/** provide_lp#37c096df as the user asks the router for it (the router's wallet of the other token first). */
const providePayload = (otherRouterWallet: string): Cell =>
  beginCell()
    .storeUint(0x37c096df, 32)
    .storeAddress(address(otherRouterWallet))
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeUint(9_999_999_999n, 64)
    .storeRef(beginCell().storeCoins(1n).storeAddress(address(USER)).storeBit(1).storeCoins(0n).storeMaybeRef(null))
    .endCell();
/** provide_lp#37c096df as the router sends it to the pool: the user, then the amounts in the pool's order. */
const poolProvide = (amount1: bigint, amount2: bigint): Cell =>
  op(0x37c096df)
    .storeAddress(address(USER))
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeRef(beginCell().storeCoins(1n).storeAddress(address(USER)).storeBit(1).storeCoins(0n).storeMaybeRef(null))
    .endCell();
/** add_liquidity#50c6a654 from the pool to the LP account (and back again as a refund). */
const addLiquidity = (amount1: bigint, amount2: bigint): Cell =>
  op(0x50c6a654).storeCoins(amount1).storeCoins(amount2).storeCoins(1n).storeCoins(0n).storeAddress(address(USER)).endCell();
/** cb_add_liquidity#06ecd527 from the LP account once both sides are in. */
const cbAddLiquidity = (amount1: bigint, amount2: bigint): Cell =>
  op(0x06ecd527).storeCoins(amount1).storeCoins(amount2).storeAddress(address(USER)).storeCoins(1n).endCell();
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
const burn = (amount: bigint): Cell => op(0x595f07bc).storeCoins(amount).storeAddress(address(USER)).storeBit(0).endCell();
/** burn_notification_ext#297437cf: the LP wallet's burn reported to the pool. */
const burnNotification = (amount: bigint): Cell =>
  op(0x297437cf).storeCoins(amount).storeAddress(address(USER)).storeAddress(address(USER)).storeBit(0).endCell();
/** pay_to#657b54f5 of a withdrawal (exit code 0), what it pays out of which router wallet. */
const payTo = (amount: bigint, wallet: string): Cell =>
  op(0x657b54f5)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeUint(0, 32)
    .storeMaybeRef(null)
    .storeRef(beginCell().storeCoins(0n).storeCoins(amount).storeAddress(address(wallet)).storeCoins(0n).storeAddress(null))
    .endCell();

const TON_IN = 2_000_000_000n;
const USDT_IN = 7_000_000n;

/** What the LP account does with a side: nothing yet (the first side), the pool's LP mint, or a refund. */
type Outcome = 'first' | 'minted' | 'refunded';
function lpAccount(amount1: bigint, amount2: bigint, outcome: Outcome): Step {
  const callback: Step[] =
    outcome === 'first'
      ? []
      : [
          {
            to: POOL,
            body: cbAddLiquidity(amount1, amount2),
            then:
              outcome === 'minted'
                ? [{ to: USER_LP, body: internalTransfer(4_242n, POOL), then: [{ to: USER, body: excess() }] }]
                : [{ to: LP_ACCOUNT, body: addLiquidity(amount1, amount2) }],
          },
        ];
  return { to: LP_ACCOUNT, body: addLiquidity(amount1, amount2), then: callback };
}

/** TON to the router's pTON wallet, its notification to the router, provide_lp to the pool. */
const tonSide = (outcome: Outcome): Step => ({
  to: ROUTER_PTON,
  value: TON_IN + 300_000_000n,
  body: tonTransfer(TON_IN, providePayload(ROUTER_USDT)),
  then: [
    {
      to: ROUTER,
      body: notify(TON_IN, USER, providePayload(ROUTER_USDT)),
      then: [{ to: POOL, body: poolProvide(0n, TON_IN), then: [lpAccount(0n, TON_IN, outcome)] }],
    },
  ],
});

/** USDT from the user's wallet to the router's, its notification, provide_lp to the pool. */
const usdtSide = (outcome: Outcome): Step => ({
  to: USER_USDT,
  body: transfer(USDT_IN, ROUTER, providePayload(ROUTER_PTON)),
  then: [
    {
      to: ROUTER_USDT,
      body: internalTransfer(USDT_IN, USER),
      then: [
        {
          to: ROUTER,
          body: notify(USDT_IN, USER, providePayload(ROUTER_PTON)),
          then: [{ to: POOL, body: poolProvide(USDT_IN, 0n), then: [lpAccount(USDT_IN, 0n, outcome)] }],
        },
        { to: USER, body: excess() },
      ],
    },
  ],
});

const deposit = (over: Record<string, unknown>): Record<string, unknown> => ({
  dex: 'stonfi_v2',
  amount_1: TON_IN.toString(),
  amount_2: null,
  asset_1: null,
  asset_2: null,
  user_jetton_wallet_1: null,
  user_jetton_wallet_2: null,
  source: USER,
  pool: POOL,
  destination_liquidity: POOL,
  lp_tokens_minted: null,
  target_asset_1: null,
  target_asset_2: null,
  target_amount_1: null,
  target_amount_2: null,
  vault_excesses: [],
  tick_lower: null,
  tick_upper: null,
  nft_index: null,
  nft_address: null,
  ...over,
});

test('STON.fi v2 dex_deposit_liquidity: TON through the router pTON wallet, the first side (no LP yet)', () => {
  const { trace, messages } = buildTrace(USER, [tonSide('first')]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_deposit_liquidity', true]],
  );
  const [action] = actions;
  assert.deepEqual(action.details, deposit({}), 'TON: asset null, no user wallet');
  assert.equal(action.actionId, actionId(messages[0].hash, 'dex_deposit_liquidity'));
  assert.equal(action.transactions.length, trace.transactions.length, 'the request, pTON, router, pool, LP account');
  for (const who of [USER, ROUTER_PTON, ROUTER, POOL, LP_ACCOUNT]) assert.ok(action.accounts.includes(who), who);
  againstSpec(action);
});

test('STON.fi v2 dex_deposit_liquidity: TON through pTON completing the position, the LP minted', () => {
  const { trace } = buildTrace(USER, [tonSide('minted')]);
  const [action, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([action.type, action.success], ['dex_deposit_liquidity', true]);
  assert.deepEqual(action.details, deposit({ lp_tokens_minted: '4242' }));
  assert.equal(action.transactions.length, trace.transactions.length, 'the mint and its excess too');
  againstSpec(action);
});

test('STON.fi v2 dex_deposit_liquidity: TON through pTON refunded by the LP account: failed', () => {
  const { trace } = buildTrace(USER, [tonSide('refunded')]);
  const [action, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([action.type, action.success], ['dex_deposit_liquidity', false]);
  assert.deepEqual(action.details, deposit({}));
  againstSpec(action);
});

test('STON.fi v2 dex_deposit_liquidity: USDT and TON sent by one request are one action (toncenter joins them)', () => {
  const { trace, txs } = buildTrace(USER, [usdtSide('minted'), tonSide('first')]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_deposit_liquidity', true]],
  );
  const [action] = actions;
  // The USDT side is nearer the root once its jetton transfer is folded (the request, the transfer, provide_lp),
  // so it is built first; the TON side, built second, joins it and comes first.
  assert.deepEqual(
    action.details,
    deposit({
      amount_2: USDT_IN.toString(),
      asset_2: USDT,
      user_jetton_wallet_2: USER_USDT,
      lp_tokens_minted: '4242',
    }),
  );
  // Joined under an empty block standing for the request: the wallet's own transaction is not part of it.
  assert.deepEqual(new Set(action.transactions), new Set(txs.slice(1).map((tx) => tx.hash)));
  againstSpec(action);
});

test('STON.fi v2 dex_deposit_liquidity: sides sent by two requests stay two actions', () => {
  const first = classifyTrace(buildTrace(USER, [usdtSide('first')]).trace, contracts).actions;
  const second = classifyTrace(buildTrace(USER, [tonSide('minted')]).trace, contracts).actions;
  assert.deepEqual(
    [...first, ...second].map((a) => [
      a.type,
      (a.details as Record<string, unknown>).asset_1,
      (a.details as Record<string, unknown>).amount_2,
    ]),
    [
      ['dex_deposit_liquidity', USDT, null],
      ['dex_deposit_liquidity', null, null],
    ],
  );
});

/** An LP burn whose pool pays USDT and TON (through the router's pTON wallet); `tonPassedOn`: the pTON wallet did. */
function withdrawal(tonPassedOn: boolean) {
  const tonOut: Step[] = tonPassedOn ? [{ to: USER, value: 3_000_000_000n, body: tonTransfer(3_000_000_000n, null) }] : [];
  return buildTrace(USER, [
    {
      to: USER_LP,
      body: burn(4_242n),
      then: [
        {
          to: POOL,
          body: burnNotification(4_242n),
          then: [
            {
              to: ROUTER,
              body: payTo(5_000_000n, ROUTER_USDT),
              then: [
                {
                  to: ROUTER_USDT,
                  body: transfer(5_000_000n, USER),
                  then: [{ to: USER_USDT, body: internalTransfer(5_000_000n, ROUTER), then: [{ to: USER, body: excess() }] }],
                },
              ],
            },
            {
              to: ROUTER,
              body: payTo(3_000_000_000n, ROUTER_PTON),
              then: [{ to: ROUTER_PTON, body: transfer(3_000_000_000n, USER), aborted: !tonPassedOn, then: tonOut }],
            },
          ],
        },
      ],
    },
  ]);
}

const withdrawn = (over: Record<string, unknown>): Record<string, unknown> => ({
  dex: 'stonfi_v2',
  amount_1: '5000000',
  amount_2: '3000000000',
  asset_1: USDT,
  asset_2: null,
  user_jetton_wallet_1: USER_USDT,
  user_jetton_wallet_2: null,
  lp_tokens_burnt: '4242',
  is_refund: null,
  source: USER,
  pool: POOL,
  destination_liquidity: POOL,
  burnt_nft_index: null,
  burnt_nft_address: null,
  tick_lower: null,
  tick_upper: null,
  ...over,
});

test('STON.fi v2 dex_withdraw_liquidity: USDT and TON paid through the router pTON wallet (TON: asset null)', () => {
  const { trace } = withdrawal(true);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', true]],
  );
  const [action] = actions;
  assert.deepEqual(action.details, withdrawn({}));
  assert.equal(action.transactions.length, trace.transactions.length, 'the TON passed on is part of it');
  againstSpec(action);
});

test('STON.fi v2 dex_withdraw_liquidity: the pTON wallet failed to pass TON on: the payout stays pTON, not failed (toncenter)', () => {
  const { trace } = withdrawal(false);
  const [action, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([action.type, action.success], ['dex_withdraw_liquidity', true]);
  assert.deepEqual(action.details, withdrawn({ asset_2: PTON_V2 }));
  againstSpec(action);
});

/** refund_me#132b9a2c: the user asks its LP account for the sides it holds back. */
const refundMe = (): Cell => op(0x132b9a2c).storeMaybeRef(null).endCell();
/** cb_refund_me#0f98e2b8: the LP account hands both amounts to the pool, which pays them out through the router. */
const cbRefundMe = (amount1: bigint, amount2: bigint): Cell =>
  op(0x0f98e2b8).storeCoins(amount1).storeCoins(amount2).storeAddress(address(USER)).storeMaybeRef(null).endCell();

/**
 * An LP account refunded: the pool pays USDT and TON (through the router's pTON wallet, which passes it on).
 * `asked`: the LP account got refund_me (else the pool's cb_refund_me comes from nothing toncenter knows).
 */
function lpRefund(asked: boolean) {
  const pool: Step = {
    to: POOL,
    body: cbRefundMe(5_000_000n, 3_000_000_000n),
    then: [
      {
        to: ROUTER,
        body: payTo(5_000_000n, ROUTER_USDT),
        then: [
          {
            to: ROUTER_USDT,
            body: transfer(5_000_000n, USER),
            then: [{ to: USER_USDT, body: internalTransfer(5_000_000n, ROUTER), then: [{ to: USER, body: excess() }] }],
          },
        ],
      },
      {
        to: ROUTER,
        body: payTo(3_000_000_000n, ROUTER_PTON),
        then: [
          {
            to: ROUTER_PTON,
            body: transfer(3_000_000_000n, USER),
            then: [{ to: USER, value: 3_000_000_000n, body: tonTransfer(3_000_000_000n, null) }],
          },
        ],
      },
    ],
  };
  // Not asked: the LP account's message to the pool follows a comment, not refund_me.
  return buildTrace(USER, [{ to: LP_ACCOUNT, body: asked ? refundMe() : op(0).endCell(), then: [pool] }]);
}

test('STON.fi v2 dex_withdraw_liquidity: an LP account refunded by cb_refund_me, TON paid through pTON (asset null)', () => {
  const { trace } = lpRefund(true);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', true]],
  );
  const [action] = actions;
  // The refund's sender is refund_me's source; no LP burnt, no LP wallet; `is_refund` null as ton-index-go writes it.
  assert.deepEqual(action.details, withdrawn({ lp_tokens_burnt: null }));
  assert.equal(action.transactions.length, trace.transactions.length, 'refund_me, cb_refund_me and the TON passed on too');
  for (const who of [USER, LP_ACCOUNT, POOL, ROUTER, ROUTER_PTON]) assert.ok(action.accounts.includes(who), who);
  againstSpec(action);
});

test('STON.fi v2 dex_withdraw_liquidity: cb_refund_me not asked by refund_me is no withdrawal', () => {
  const { trace } = lpRefund(false);
  const types = classifyTrace(trace, contracts).actions.map((a) => a.type);
  assert.ok(!types.includes('dex_withdraw_liquidity'), types.join());
});
