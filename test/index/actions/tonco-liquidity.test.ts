/**
 * TONCO's `dex_deposit_liquidity` and `dex_withdraw_liquidity` on traces built by hand (support.ts) with Tether's
 * USDT master, TONCO's wTTON master and the router's wTTON wallet as toncenter names them (mainnet); the router,
 * pool, account contract and position NFT are made-up accounts. A USDT/TON pool (USDT its asset 0): USDT brought
 * first (the position not complete yet), TON brought through wTTON completing it (the position NFT minted, TON
 * not needed paid back), both sides in one trace (two actions, as toncenter joins none), a position burnt and paid
 * out, a burn the pool refused (failed), and the other router wallet a deposit names. Each action against
 * toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { TONCO_ROUTER_WTTON_WALLET, toncoDepositWallets } from '../../../src/index/actions/tonco-liquidity.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { account, address, buildTrace, type Step, againstSpec, actionId } from './support.js';
import { internalTransfer, notify, op, transfer, USDT, USER, USER_USDT } from './dedust-traces.js';
import { payTo, routerTransfer, tonTransfer, WTTON } from './tonco-traces.js';

const ROUTER_WTTON = TONCO_ROUTER_WTTON_WALLET;
const [ROUTER, POOL, ROUTER_USDT, ACCOUNT, NFT] = [0x70c0, 0x9001, 0x7a1, 0xacc, 0x4f7].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [ROUTER_USDT, { owner: ROUTER, jetton: USDT }],
    [ROUTER_WTTON, { owner: ROUTER, jetton: WTTON }],
  ]),
  nftItems: new Map([[NFT, { index: '7', collection: POOL }]]),
  multisigOrders: new Map(),
};

/** The deposit's forward payload POOLV3_FUND_ACCOUNT: the router's wallet of the other asset, the amounts, the range. */
const fundPayload = (otherWallet: string, amount0: bigint, amount1: bigint): Cell =>
  beginCell()
    .storeUint(0x4468de77, 32)
    .storeAddress(address(otherWallet))
    .storeCoins(amount0)
    .storeCoins(amount1)
    .storeUint(0, 128)
    .storeInt(-120, 24)
    .storeInt(120, 24)
    .endCell();
const fundAccount = (amount0: bigint, amount1: bigint): Cell =>
  op(0x4468de77)
    .storeAddress(address(USER))
    .storeCoins(amount0)
    .storeCoins(amount1)
    .storeCoins(0n)
    .storeCoins(0n)
    .storeUint(0, 128)
    .storeInt(-120, 24)
    .storeInt(120, 24)
    .endCell();
/** ACCOUNTV3_ADD_LIQUIDITY: this side's amounts, what the position holds now, the range. */
const addLiquidity = (amount0: bigint, amount1: bigint, enough0: bigint, enough1: bigint): Cell =>
  op(0x3ebe5431)
    .storeCoins(amount0)
    .storeCoins(amount1)
    .storeCoins(enough0)
    .storeCoins(enough1)
    .storeUint(0, 128)
    .storeInt(-120, 24)
    .storeInt(120, 24)
    .endCell();
const positionInit = (liquidity: bigint, index: bigint): Cell =>
  op(0xd5ecca2a)
    .storeAddress(address(USER))
    .storeUint(liquidity, 128)
    .storeInt(-120, 24)
    .storeInt(120, 24)
    .storeRef(beginCell().storeUint(0, 256).storeUint(0, 256).storeUint(index, 64).storeCoins(0n).storeCoins(0n).storeInt(0, 24).endCell())
    .endCell();
const tonOut = (amount: bigint): Step => ({
  to: ROUTER_WTTON,
  body: routerTransfer(amount, USER),
  then: [{ to: USER, value: amount, body: tonTransfer(amount) }],
});
const usdtOut = (amount: bigint): Step => ({
  to: ROUTER_USDT,
  body: routerTransfer(amount, USER),
  then: [{ to: USER_USDT, body: internalTransfer(amount, ROUTER) }],
});

/** USDT (the pool's asset 0) brought: the router funds the account, which waits for TON. */
const usdtSide = (): Step => {
  const payload = fundPayload(ROUTER_WTTON, 1_000n, 0n);
  return {
    to: USER_USDT,
    body: transfer(1_000n, ROUTER, payload),
    then: [
      {
        to: ROUTER_USDT,
        body: internalTransfer(1_000n, USER),
        then: [
          {
            to: ROUTER,
            body: notify(1_000n, USER, payload),
            then: [{ to: POOL, body: fundAccount(1_000n, 0n), then: [{ to: ACCOUNT, body: addLiquidity(1_000n, 0n, 1_000n, 0n) }] }],
          },
        ],
      },
    ],
  };
};

/** TON (asset 1) brought through wTTON: the account has both, the pool mints the position and pays back 0.1 TON. */
const tonSide = (): Step => {
  const payload = fundPayload(ROUTER_USDT, 0n, 5_000_000_000n);
  const mint: Step = {
    to: POOL,
    body: op(0x81702ef8).storeCoins(1_000n).storeCoins(4_900_000_000n).storeAddress(address(USER)).storeUint(777, 128).endCell(),
    then: [
      { to: ROUTER, body: payTo(0, 0n, ROUTER_USDT, 100_000_000n, ROUTER_WTTON), then: [tonOut(100_000_000n)] },
      { to: NFT, deploys: true, body: positionInit(777n, 7n) },
      { to: USER, body: op(0xd53276db).endCell() },
    ],
  };
  return {
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
            body: fundAccount(0n, 5_000_000_000n),
            then: [{ to: ACCOUNT, body: addLiquidity(0n, 5_000_000_000n, 1_000n, 5_000_000_000n), then: [mint] }],
          },
        ],
      },
    ],
  };
};

test('TONCO dex_deposit_liquidity: USDT brought first, the position not complete yet', () => {
  const { trace, messages } = buildTrace(USER, [usdtSide()]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_deposit_liquidity', true]],
  );
  const [deposit] = actions;
  // toncenter hashes its block type into the id.
  assert.equal(deposit.actionId, actionId(messages[0].hash, 'tonco_deposit_liquidity'));
  assert.deepEqual(deposit.details, {
    dex: 'tonco',
    amount_1: '1000',
    amount_2: null,
    asset_1: USDT,
    asset_2: null,
    user_jetton_wallet_1: USER_USDT,
    user_jetton_wallet_2: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    lp_tokens_minted: null,
    target_asset_1: USDT,
    target_asset_2: null,
    target_amount_1: '1000',
    target_amount_2: '0',
    vault_excesses: [],
    tick_lower: '-120',
    tick_upper: '120',
    nft_index: null,
    nft_address: null,
  });
  assert.equal(deposit.transactions.length, trace.transactions.length, 'every step');
  assert.ok(deposit.accounts.includes(ACCOUNT), "the account contract is the action's secondary destination");
  againstSpec(deposit);
});

test('TONCO dex_deposit_liquidity: TON through wTTON completes the position: the NFT minted, the TON not needed paid back', () => {
  const { trace } = buildTrace(USER, [tonSide()]);
  const actions = classifyTrace(trace, contracts).actions;
  // The NFT's deployment is an action of its own too, as toncenter unwinds deployments.
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['dex_deposit_liquidity', true],
      ['contract_deploy', true],
    ],
  );
  const [deposit] = actions;
  assert.deepEqual(deposit.details, {
    dex: 'tonco',
    // The side brought comes first whichever of the pool's assets it is; its wallet keeps the pool's slot.
    amount_1: '5000000000',
    amount_2: null,
    asset_1: null,
    asset_2: null,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    lp_tokens_minted: '777',
    target_asset_1: USDT,
    target_asset_2: null,
    target_amount_1: '1000',
    target_amount_2: '5000000000',
    vault_excesses: [{ asset: null, amount: '100000000' }],
    tick_lower: '-120',
    tick_upper: '120',
    nft_index: '7',
    nft_address: NFT,
  });
  assert.equal(deposit.transactions.length, trace.transactions.length, 'the mint, the refund and its TON too');
  againstSpec(deposit);
});

test('TONCO dex_deposit_liquidity: both sides sent in one trace are two actions (toncenter joins none)', () => {
  const { trace } = buildTrace(USER, [usdtSide(), tonSide()]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, (a.details as Record<string, unknown>).amount_1, (a.details as Record<string, unknown>).nft_index]),
    [
      ['dex_deposit_liquidity', '1000', null],
      ['dex_deposit_liquidity', '5000000000', '7'],
      ['contract_deploy', undefined, undefined],
    ],
  );
});

/** A position burnt: start_burn to the pool, the NFT's burn, the pool's burn, its pay_to and what follows it. */
const burn = (exitCode: number, amount0: bigint, amount1: bigint, payouts: Step[]): Step => ({
  to: POOL,
  body: op(0x530b5f2c).storeUint(7, 64).storeUint(5_000, 128).storeInt(-120, 24).storeInt(120, 24).endCell(),
  then: [
    {
      to: NFT,
      body: op(0x46ca335a)
        .storeAddress(address(USER))
        .storeUint(5_000, 128)
        .storeInt(-120, 24)
        .storeInt(120, 24)
        .storeRef(beginCell().storeUint(0, 256).storeUint(0, 256).endCell())
        .endCell(),
      then: [
        {
          to: POOL,
          body: op(0xd73ac09d)
            .storeAddress(address(USER))
            .storeUint(7, 64)
            .storeUint(5_000, 128)
            .storeInt(-120, 24)
            .storeInt(120, 24)
            .endCell(),
          then: [{ to: ROUTER, body: payTo(exitCode, amount0, ROUTER_USDT, amount1, ROUTER_WTTON), then: payouts }],
        },
      ],
    },
  ],
});

test('TONCO dex_withdraw_liquidity: a position burnt, paid in USDT and TON (in the pool order whatever the payouts order)', () => {
  const { trace, messages } = buildTrace(USER, [burn(201, 900n, 4_900_000_000n, [tonOut(4_900_000_000n), usdtOut(900n)])]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', true]],
  );
  const [withdrawal] = actions;
  assert.equal(withdrawal.actionId, actionId(messages[0].hash, 'tonco_withdraw_liquidity'));
  assert.deepEqual(withdrawal.details, {
    dex: 'tonco',
    amount_1: '900',
    amount_2: '4900000000',
    asset_1: USDT,
    asset_2: null,
    user_jetton_wallet_1: USER_USDT,
    user_jetton_wallet_2: null,
    lp_tokens_burnt: '5000',
    is_refund: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    burnt_nft_index: '7',
    burnt_nft_address: NFT,
    tick_lower: '-120',
    tick_upper: '120',
  });
  assert.equal(withdrawal.transactions.length, trace.transactions.length, 'both payouts, the TON passed on too');
  againstSpec(withdrawal);
});

test("TONCO dex_withdraw_liquidity: a burn the pool answers with an error code failed; amounts from the router's message", () => {
  const { trace } = buildTrace(USER, [burn(0x101, 0n, 0n, [])]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', false]],
  );
  const details = actions[0].details as Record<string, unknown>;
  assert.deepEqual(
    [details.amount_1, details.asset_1, details.user_jetton_wallet_1, details.amount_2, details.asset_2, details.user_jetton_wallet_2],
    // The router's wTTON wallet is TON; toncenter takes each receiver for the user's wallet.
    ['0', USDT, USER, '0', null, USER],
  );
  againstSpec(actions[0]);
});

test("TONCO: the other asset's router wallet a deposit names is looked up with the trace's accounts", () => {
  const { txs } = buildTrace(USER, [usdtSide()]);
  assert.deepEqual(
    txs.flatMap((tx) => toncoDepositWallets(tx)),
    [ROUTER_WTTON],
  );
});
