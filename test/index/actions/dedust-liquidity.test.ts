/**
 * DeDust's `dex_deposit_liquidity` and `dex_withdraw_liquidity` on traces built by hand (support.ts) whose factory,
 * native vault, TON/USDT pool and jetton master are DeDust's and Tether's mainnet addresses (the USDT vault, the
 * deposit contract and the wallets are made-up accounts): the side that completes a deposit (TON, LP minted), a
 * jetton side the pool rejected (failed, what the vaults gave back), a first side alone, both sides in one trace
 * (one action), an LP burn paid out by both vaults, and an LP wallet the index does not know. Each action against
 * toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { Address, beginCell, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, address, buildTrace, type Step, againstSpec } from './support.js';
import {
  asset,
  internalTransfer,
  NATIVE_VAULT,
  notify,
  op,
  payout,
  payoutFromPool,
  TON_USDT_POOL,
  transfer,
  USDT,
  USDT_VAULT,
  USER,
  USER_USDT,
  VAULT_USDT,
} from './dedust-traces.js';

/** DeDust's factory on mainnet. */
const FACTORY = Address.parse('EQBfBWT7X2BHg9tXAxzhz2aKiNTU1tpt5NsiK0uSDW_YAJ67').toRawString().toUpperCase();
/** The liquidity deposit contract the factory deploys, and the user's wallet of the pool's LP jetton. */
const [DEPOSIT, USER_LP] = [0xde9051, 0x1b].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [VAULT_USDT, { owner: USDT_VAULT, jetton: USDT }],
    [USER_LP, { owner: USER, jetton: TON_USDT_POOL }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};

const TON_IN = 1_000_000_000n;
const USDT_IN = 3_000_000n;
const LP = 54_772n;

/** PoolParams of the TON/USDT pool: volatile, TON, USDT. */
const poolParams = () => asset(asset(beginCell().storeBit(0), null), USDT);
const targets = () => beginCell().storeCoins(0n).storeCoins(TON_IN).storeCoins(USDT_IN);
/** deposit_liquidity#d55e4686 of TON into the native vault. */
const tonDeposit = (): Cell =>
  op(0xd55e4686)
    .storeCoins(TON_IN)
    .storeBuilder(poolParams())
    .storeRef(targets().endCell())
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();
/** deposit_liquidity#40e108d6: the USDT transfer's forward payload. */
const jettonPayload = (): Cell =>
  beginCell()
    .storeUint(0x40e108d6, 32)
    .storeBuilder(poolParams())
    .storeBuilder(targets())
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();
/** The deposit contract's deposit_liquidity#b56b9598 to the pool: the owner and both amounts. */
const toPool = (): Cell =>
  op(0xb56b9598)
    .storeRef(beginCell().endCell())
    .storeAddress(address(USER))
    .storeCoins(0n)
    .storeRef(asset(asset(beginCell(), null).storeCoins(TON_IN), USDT).storeCoins(USDT_IN).endCell())
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();

/** A side into its vault, the factory's deploy (a first side) and top-up, then what the contract does next. */
function side(kind: 'ton' | 'usdt', first: boolean, afterTopUp: Step[]): Step {
  const factory: Step = {
    to: FACTORY,
    body: op(0xf04ec526).endCell(),
    then: [
      ...(first ? [{ to: DEPOSIT, body: op(0x9b3aa3fa).endCell(), deploys: true }] : []),
      { to: DEPOSIT, body: op(0x54240fe5).endCell(), then: afterTopUp },
    ],
  };
  if (kind === 'ton') return { to: NATIVE_VAULT, value: TON_IN + 200_000_000n, body: tonDeposit(), then: [factory] };
  return {
    to: USER_USDT,
    body: transfer(USDT_IN, USDT_VAULT, jettonPayload()),
    then: [
      {
        to: VAULT_USDT,
        body: internalTransfer(USDT_IN, USER),
        then: [{ to: USDT_VAULT, body: notify(USDT_IN, USER, jettonPayload()), then: [factory] }],
      },
    ],
  };
}

/** The pool minting LP jettons to the owner, and destroying the deposit contract (its TON back to the owner). */
const minted = (): Step[] => [
  {
    to: TON_USDT_POOL,
    body: toPool(),
    then: [
      {
        to: USER_LP,
        body: internalTransfer(LP, TON_USDT_POOL),
        then: [{ to: USER, body: notify(LP, TON_USDT_POOL, beginCell().endCell()) }],
      },
      { to: DEPOSIT, body: op(0xaae79256).endCell(), then: [{ to: USER, value: 50_000_000n }] },
    ],
  },
];

const vaultJettonTransfer = (amount: bigint): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(0n)
    .storeBit(0)
    .endCell();

const depositDetails = (overrides: Record<string, unknown>) => ({
  dex: 'dedust',
  amount_1: TON_IN.toString(),
  amount_2: null,
  asset_1: null,
  asset_2: null,
  user_jetton_wallet_1: null,
  user_jetton_wallet_2: null,
  source: USER,
  pool: TON_USDT_POOL,
  destination_liquidity: DEPOSIT,
  lp_tokens_minted: LP.toString(),
  target_asset_1: null,
  target_asset_2: USDT,
  target_amount_1: TON_IN.toString(),
  target_amount_2: USDT_IN.toString(),
  vault_excesses: [],
  tick_lower: null,
  tick_upper: null,
  nft_index: null,
  nft_address: null,
  ...overrides,
});

test('DeDust dex_deposit_liquidity: the side that completes it (TON through the native vault), LP minted', () => {
  const { trace, messages } = buildTrace(USER, [side('ton', false, minted())]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_deposit_liquidity', true]],
  );
  const [deposit] = actions;
  assert.deepEqual(deposit.details, depositDetails({}));
  assert.equal(deposit.transactions.length, trace.transactions.length, 'every step');
  for (const who of [USER, NATIVE_VAULT, FACTORY, DEPOSIT, TON_USDT_POOL, USER_LP]) assert.ok(deposit.accounts.includes(who), who);
  // toncenter hashes its block type into the id: DeDust's own name, not the answered type.
  const id = createHash('sha256').update(`${messages[0].hash}dedust_deposit_liquidity`).digest('base64');
  assert.equal(deposit.actionId, id);
  // A v1 type, whole: a v1 client sees the deposit, and no part of it is an action.
  assert.ok(shownTo(expandActionTypes(['v1']), deposit.type, deposit.ancestors));
  againstSpec(deposit);
});

test('DeDust dex_deposit_liquidity: a USDT side the pool rejected is failed; the vaults give both assets back', () => {
  const rejected: Step[] = [
    {
      to: TON_USDT_POOL,
      body: toPool(),
      then: [
        {
          to: DEPOSIT,
          body: op(0xe1a36cd4).endCell(),
          then: [
            { to: USER, value: 40_000_000n },
            { to: NATIVE_VAULT, body: op(0x6b0b787f).endCell(), then: [{ to: USER, value: TON_IN, body: payout() }] },
            {
              to: USDT_VAULT,
              body: op(0x6b0b787f).endCell(),
              then: [
                {
                  to: VAULT_USDT,
                  body: vaultJettonTransfer(USDT_IN),
                  then: [{ to: USER_USDT, body: internalTransfer(USDT_IN, USDT_VAULT) }],
                },
              ],
            },
          ],
        },
      ],
    },
  ];
  const { trace } = buildTrace(USER, [side('usdt', false, rejected)]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_deposit_liquidity', false]],
  );
  const [deposit] = actions;
  assert.deepEqual(
    deposit.details,
    depositDetails({
      amount_1: USDT_IN.toString(),
      asset_1: USDT,
      user_jetton_wallet_1: USER_USDT,
      lp_tokens_minted: null,
      vault_excesses: [
        { asset: null, amount: TON_IN.toString() },
        { asset: USDT, amount: USDT_IN.toString() },
      ],
    }),
  );
  assert.equal(deposit.transactions.length, trace.transactions.length, 'the refunds are part of it');
  againstSpec(deposit);
});

test('DeDust dex_deposit_liquidity: a first side alone (the contract deployed and topped up): no pool yet', () => {
  const { trace, messages } = buildTrace(USER, [side('ton', true, [])]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['dex_deposit_liquidity', true],
      ['contract_deploy', true],
    ],
  );
  const [deposit] = actions;
  assert.deepEqual(deposit.details, depositDetails({ pool: null, lp_tokens_minted: null }));
  const id = createHash('sha256').update(`${messages[0].hash}dedust_deposit_liquidity_partial`).digest('base64');
  assert.equal(deposit.actionId, id);
  assert.ok(!deposit.accounts.includes(TON_USDT_POOL));
  againstSpec(deposit);
});

test('DeDust dex_deposit_liquidity: both sides in one trace are one action (USDT first, then TON)', () => {
  const { trace } = buildTrace(USER, [side('usdt', true, []), side('ton', false, minted())]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['dex_deposit_liquidity', true],
      ['contract_deploy', true],
    ],
  );
  const [deposit] = actions;
  assert.deepEqual(
    deposit.details,
    depositDetails({
      amount_1: USDT_IN.toString(),
      asset_1: USDT,
      user_jetton_wallet_1: USER_USDT,
      amount_2: TON_IN.toString(),
      asset_2: null,
      // toncenter orders the targets as the sides and keeps the completing side's amounts: kept.
      target_asset_1: USDT,
      target_asset_2: null,
    }),
  );
  assert.equal(deposit.transactions.length, trace.transactions.length, 'both sides');
  againstSpec(deposit);
});

/** An LP burn of the user's wallet, its notification to the pool, and the pool's two payouts. */
function withdrawal() {
  return buildTrace(USER, [
    {
      to: USER_LP,
      body: op(0x595f07bc).storeCoins(LP).storeAddress(address(USER)).storeBit(0).endCell(),
      then: [
        {
          to: TON_USDT_POOL,
          body: op(0x7bdd97de).storeCoins(LP).storeAddress(address(USER)).storeAddress(address(USER)).endCell(),
          then: [
            { to: NATIVE_VAULT, body: payoutFromPool(TON_IN), then: [{ to: USER, value: TON_IN, body: payout() }] },
            {
              to: USDT_VAULT,
              body: payoutFromPool(USDT_IN),
              then: [
                {
                  to: VAULT_USDT,
                  body: vaultJettonTransfer(USDT_IN),
                  then: [{ to: USER_USDT, body: internalTransfer(USDT_IN, USDT_VAULT) }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
}

test('DeDust dex_withdraw_liquidity: an LP burn, its notification, TON paid by the native vault and USDT by the jetton vault', () => {
  const { trace } = withdrawal();
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', true]],
  );
  const [withdraw] = actions;
  assert.deepEqual(withdraw.details, {
    dex: 'dedust',
    amount_1: TON_IN.toString(),
    amount_2: USDT_IN.toString(),
    asset_1: null,
    asset_2: USDT,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: USER_USDT,
    lp_tokens_burnt: LP.toString(),
    is_refund: null,
    source: USER,
    pool: TON_USDT_POOL,
    destination_liquidity: TON_USDT_POOL,
    burnt_nft_index: null,
    burnt_nft_address: null,
    tick_lower: null,
    tick_upper: null,
  });
  assert.equal(withdraw.transactions.length, trace.transactions.length, 'every step');
  for (const who of [USER, USER_LP, TON_USDT_POOL, NATIVE_VAULT, USDT_VAULT, VAULT_USDT, USER_USDT])
    assert.ok(withdraw.accounts.includes(who), who);
  againstSpec(withdraw);
});

test('DeDust: an LP burn on a wallet the index does not know makes no withdrawal (as toncenter)', () => {
  const { trace } = withdrawal();
  const unknownLp: KnownContracts = { ...contracts, jettonWallets: new Map([...contracts.jettonWallets].filter(([a]) => a !== USER_LP)) };
  const types = classifyTrace(trace, unknownLp).actions.map((a) => a.type);
  assert.ok(!types.includes('dex_withdraw_liquidity'));
  assert.ok(types.includes('jetton_transfer'), 'the USDT payout stays a transfer');
});
