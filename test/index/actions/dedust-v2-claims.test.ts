/**
 * DeDust v2's claims of a liquidity position (dedust-v2-claims.ts), on traces built by hand, with the details
 * ton-index-go would answer:
 * - `dedust_v2_claim_fees`: both sides paid (USDT by a jetton transfer, TON by payout#3216ca09); a side with no fees
 *   (no payout: its asset and wallets null, its amount "0"); the pool's payout refused by the user's wallet (still a
 *   success, as toncenter never fails it);
 * - `dedust_v2_claim_reward`: paid in USDT; a claim with nothing to pay (no payout leg).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { USDT, account, address, buildTrace, op, type Step, againstSpec } from './support.js';

const [USER, POOL, POSITION, USER_USDT, POOL_USDT] = [0xa11ce, 0x9001, 0x9002, 0xa1, 0xb1].map(account);

const contracts: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [POOL_USDT, { owner: POOL, jetton: USDT }],
  ]),
};

const USDT_FEES = 1_234_567n;
const TON_FEES = 89_000_000n;

const claimFees = (): Cell => op(0x5652f1df).storeAddress(address(USER)).endCell();
const claimAvailable = (): Cell => op(0x25f19752).storeAddress(address(USER)).storeVarUint(1n, 5).storeVarUint(2n, 5).endCell();
const payoutFees = (x: bigint, y: bigint): Cell =>
  op(0x29ff1bcf).storeCoins(x).storeCoins(y).storeAddress(address(USER)).storeAddress(address(USER)).endCell();
const claimReward = (): Cell => op(0x909fdb65).storeUint(1, 2).storeAddress(address(USER)).endCell();
const claimPositionReward = (): Cell =>
  op(0x2e0cccba)
    .storeUint(1, 2)
    .storeUint(3600, 40)
    .storeCoins(10n ** 12n)
    .storeVarUint(5n, 5)
    .storeUint(1_700_000_000, 40)
    .storeAddress(address(USER))
    .endCell();
const payoutReward = (amount: bigint): Cell =>
  op(0x9e17fbbe).storeCoins(amount).storeUint(1, 2).storeAddress(address(USER)).storeAddress(address(USER)).endCell();
/** payout#3216ca09 query_id amount:Coins exit_code:int32 payload:(Maybe ^Cell): TON paid by the pool. */
const tonPayout = (amount: bigint): Step => ({
  to: USER,
  value: amount,
  body: op(0x3216ca09).storeCoins(amount).storeInt(0, 32).storeMaybeRef(null).endCell(),
});
const excess = (): Step => ({ to: USER, body: op(0xd53276db).endCell(), value: 10_000_000n });

const transfer = (amount: bigint): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(1n)
    .storeMaybeRef(null)
    .endCell();
const internalTransfer = (amount: bigint): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(POOL)).storeAddress(address(USER)).storeCoins(1n).storeBit(0).endCell();
const notify = (amount: bigint): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(POOL)).storeBit(0).endCell();
/** The pool paying USDT from its wallet to the user's (which may refuse it). */
const usdtPayout = (amount: bigint, refused = false): Step => ({
  to: POOL_USDT,
  body: transfer(amount),
  then: [
    {
      to: USER_USDT,
      body: internalTransfer(amount),
      aborted: refused,
      then: refused ? [] : [excess(), { to: USER, body: notify(amount), value: 1n }],
    },
  ],
});

/** A claim: user -> pool -> position -> pool, whose last step pays `legs`. */
const claimed = (first: Cell, second: Cell, third: Cell, legs: Step[]) =>
  buildTrace(USER, [
    { to: POOL, body: first, then: [{ to: POSITION, body: second, then: [{ to: POOL, body: third, then: [...legs, excess()] }] }] },
  ]);

const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, `${type} among ${actions.map((a) => a.type).join()}`);
  return found[0];
};

const FEES_BASE = { dex: 'dedust_v2', source: USER, pool: POOL, position: POSITION };

test('dedust_v2_claim_fees: USDT and TON fees paid out, each to the side its amount is; the steps are its parts', () => {
  const { trace, txs } = claimed(claimFees(), claimAvailable(), payoutFees(TON_FEES, USDT_FEES), [
    usdtPayout(USDT_FEES),
    tonPayout(TON_FEES),
  ]);
  const actions = classifyTrace(trace, contracts).actions;
  const claim = only(actions, 'dedust_v2_claim_fees');
  assert.equal(claim.success, true);
  assert.deepEqual(claim.details, {
    ...FEES_BASE,
    asset_1: null,
    asset_2: USDT,
    amount_1: TON_FEES.toString(),
    amount_2: USDT_FEES.toString(),
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: USER_USDT,
    dex_jetton_wallet_1: null,
    dex_jetton_wallet_2: POOL_USDT,
  });
  assert.equal(claim.transactions.length, txs.length, 'the wallet`s request started it');
  for (const who of [USER, POOL, POSITION, POOL_USDT, USER_USDT]) assert.ok(claim.accounts.includes(who), who);
  assert.deepEqual(only(actions, 'jetton_transfer').ancestors, ['dedust_v2_claim_fees']);
  againstSpec(claim);
});

test('dedust_v2_claim_fees: a side without fees has no payout; a payout the user`s wallet refused is still a success', () => {
  const oneSide = only(
    classifyTrace(claimed(claimFees(), claimAvailable(), payoutFees(USDT_FEES, 0n), [usdtPayout(USDT_FEES)]).trace, contracts).actions,
    'dedust_v2_claim_fees',
  );
  assert.deepEqual(oneSide.details, {
    ...FEES_BASE,
    asset_1: USDT,
    asset_2: null,
    amount_1: USDT_FEES.toString(),
    amount_2: '0',
    user_jetton_wallet_1: USER_USDT,
    user_jetton_wallet_2: null,
    dex_jetton_wallet_1: POOL_USDT,
    dex_jetton_wallet_2: null,
  });
  const refusedActions = classifyTrace(
    claimed(claimFees(), claimAvailable(), payoutFees(USDT_FEES, 0n), [usdtPayout(USDT_FEES, true)]).trace,
    contracts,
  ).actions;
  const refused = only(refusedActions, 'dedust_v2_claim_fees');
  assert.equal(refused.success, true);
  assert.deepEqual(refused.details, oneSide.details);
  assert.equal(only(refusedActions, 'jetton_transfer').success, false, 'the payout itself failed');
});

test('dedust_v2_claim_reward: a reward paid in USDT; a claim with nothing to pay has no payout', () => {
  const paid = only(
    classifyTrace(claimed(claimReward(), claimPositionReward(), payoutReward(USDT_FEES), [usdtPayout(USDT_FEES)]).trace, contracts).actions,
    'dedust_v2_claim_reward',
  );
  assert.equal(paid.success, true);
  assert.deepEqual(paid.details, {
    ...FEES_BASE,
    asset: USDT,
    amount: USDT_FEES.toString(),
    user_jetton_wallet: USER_USDT,
    dex_jetton_wallet: POOL_USDT,
  });
  againstSpec(paid);
  const nothing = only(
    classifyTrace(claimed(claimReward(), claimPositionReward(), payoutReward(0n), []).trace, contracts).actions,
    'dedust_v2_claim_reward',
  );
  assert.deepEqual(nothing.details, { ...FEES_BASE, asset: null, amount: '0', user_jetton_wallet: null, dex_jetton_wallet: null });
  // A body that is not claim_reward's (cut short) is no claim: toncenter's parse fails and it bails.
  const cut = classifyTrace(
    claimed(op(0x909fdb65).endCell(), claimPositionReward(), payoutReward(USDT_FEES), [usdtPayout(USDT_FEES)]).trace,
    contracts,
  ).actions;
  assert.ok(!cut.some((a) => a.type === 'dedust_v2_claim_reward'), cut.map((a) => a.type).join());
});
