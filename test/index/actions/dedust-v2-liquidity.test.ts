/**
 * DeDust v2's liquidity (dedust-v2-liquidity.ts) on traces built by hand, with the details ton-index-go would
 * answer (`dex` `dedust_v2`):
 * - `dex_withdraw_liquidity`: a withdrawal paid in USDT and TON (the liquidity burnt from the pool's log); one the
 *   pool refused (no log, no payouts: failed, the liquidity asked for); one that also claims fees (none).
 * - `dex_deposit_liquidity` of a TON/USDT pool (TON its x, USDT its y): USDT completing a deposit whose TON came in
 *   another trace (the log's amounts and liquidity, TON paid back; its id from toncenter's block type; seen by a v1
 *   client); TON alone (only credited: no pool step, no targets); USDT then TON sent by one request (one action,
 *   the slots filled from both); TON completing a deposit the pool refused (failed, the join's amounts, both assets
 *   paid back); a payback to another account, and a refusal that paid nothing back (no deposit).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { USDT, account, address, buildTrace, op, type Step, againstSpec } from './support.js';

const [USER, POOL, POSITION, USER_USDT, POOL_USDT, DEPOSIT, OTHER] = [0xa11ce, 0x9001, 0x9002, 0xa1, 0xb1, 0x9003, 0xbad].map(account);
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
/** payout#3216ca09 query_id amount:Coins exit_code:int32 payload:(Maybe ^Cell): TON from the pool. */
const tonPayout = (amount: bigint, exitCode = 0): Step => ({
  to: USER,
  value: amount,
  body: op(0x3216ca09).storeCoins(amount).storeInt(exitCode, 32).storeMaybeRef(null).endCell(),
});

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

// --- deposits ----------------------------------------------------------------------------------------------------

const TON_IN = 5_000_000_000n;
const USDT_IN = 15_000_000n;
const TON_TAKEN = 4_900_000_000n;
const USDT_TAKEN = 14_700_000n;
const MINTED = 8_560_000_000n;
const TARGETS = [5_000_000_000n, 15_000_000n] as const;

/** deposit#c9a015da amount_x amount_y minimal_liquidity locked_liquidity_share:uint16: the payment's operation. */
const depositPayload = (): Cell =>
  beginCell().storeUint(0xc9a015da, 32).storeCoins(TARGETS[0]).storeCoins(TARGETS[1]).storeCoins(1n).storeUint(0, 16).endCell();
const payNative = (amount: bigint): Cell => op(0xa5a7cbf8).storeCoins(amount).storeRef(depositPayload()).storeRef(EMPTY).endCell();
const payJetton = (): Cell => beginCell().storeUint(0xcbc33949, 32).storeRef(depositPayload()).storeRef(EMPTY).endCell();
const creditAsset = (isX: boolean, amount: bigint): Cell => op(0xdc5ddba1).storeBit(isX).storeCoins(amount).endCell();
const joinLiquidity = (x: bigint, y: bigint): Cell =>
  op(0x25251ee0).storeRef(EMPTY).storeCoins(x).storeCoins(y).storeAddress(address(USER)).endCell();
const depositLog = (x: bigint, y: bigint, liquidity: bigint): Cell =>
  beginCell()
    .storeUint(0x35df2e12, 32)
    .storeCoins(x)
    .storeCoins(y)
    .storeCoins(liquidity)
    .storeAddress(address(USER))
    .storeAddress(address(USER))
    .storeRef(EMPTY)
    .endCell();
const creditLiquidity = (liquidity: bigint): Cell =>
  op(0x855afcbd)
    .storeCoins(liquidity)
    .storeUint(0, 16)
    .storeCoins(0n)
    .storeMaybeRef(null)
    .storeAddress(address(USER))
    .storeVarUint(11n, 5)
    .storeVarUint(12n, 5)
    .storeMaybeRef(null)
    .endCell();

/** The pool's answer to join_liquidity: its log, the position credited (which returns the gas), `paybacks`. */
const joined = (logged: boolean, paybacks: Step[]): Step => ({
  to: POOL,
  body: joinLiquidity(TON_IN, USDT_IN),
  logBodies: logged ? [depositLog(TON_TAKEN, USDT_TAKEN, MINTED)] : [],
  then: logged ? [{ to: POSITION, body: creditLiquidity(MINTED), then: [excess()] }, ...paybacks] : [...paybacks, excess()],
});
/** The pool credits the deposit contract; the side completing it makes the contract join, else it returns the gas. */
const credited = (isX: boolean, amount: bigint, completing: Step | null): Step => ({
  to: DEPOSIT,
  body: creditAsset(isX, amount),
  deploys: !completing,
  then: completing ? [completing] : [excess()],
});
/** TON brought with pay_native (the pool's x). */
const tonSide = (completing: Step | null): Step => ({
  to: POOL,
  value: TON_IN + 300_000_000n,
  body: payNative(TON_IN),
  then: [credited(true, TON_IN, completing)],
});
/** USDT brought by a transfer whose forward payload is pay_jetton (the pool's y). */
const usdtSide = (completing: Step | null): Step =>
  jettons(USDT_IN, USER, USER_USDT, POOL, POOL_USDT, payJetton(), { to: POOL, then: [credited(false, USDT_IN, completing)] });
const usdtPayback = (amount: bigint, to = USER): Step =>
  jettons(amount, POOL, POOL_USDT, to, to === USER ? USER_USDT : OTHER, null, { to });

const DEPOSIT_BASE = {
  dex: 'dedust_v2',
  source: USER,
  pool: POOL,
  destination_liquidity: DEPOSIT,
  tick_lower: null,
  tick_upper: null,
  nft_index: null,
  nft_address: null,
};

test('DeDust v2 dex_deposit_liquidity: USDT completing a deposit: the log`s amounts and liquidity, TON paid back', () => {
  const { trace, messages } = buildTrace(USER, [usdtSide(joined(true, [tonPayout(TON_IN - TON_TAKEN)]))]);
  const actions = classifyTrace(trace, contracts).actions;
  const deposit = only(actions, 'dex_deposit_liquidity');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    ...DEPOSIT_BASE,
    amount_1: TON_TAKEN.toString(),
    amount_2: USDT_TAKEN.toString(),
    // The TON side came in another trace: its slot stays empty (null, as TON would be).
    asset_1: null,
    asset_2: USDT,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: USER_USDT,
    lp_tokens_minted: MINTED.toString(),
    target_asset_1: null,
    target_asset_2: USDT,
    target_amount_1: TARGETS[0].toString(),
    target_amount_2: TARGETS[1].toString(),
    vault_excesses: [{ asset: null, amount: (TON_IN - TON_TAKEN).toString() }],
  });
  for (const who of [USER, POOL, DEPOSIT, POSITION, USER_USDT, POOL_USDT]) assert.ok(deposit.accounts.includes(who), who);
  assert.equal(deposit.transactions.length, trace.transactions.length, 'every step, the position`s excess too');
  const id = createHash('sha256').update(`${messages[0].hash}dedust_v2_deposit_liquidity`).digest('base64');
  assert.equal(deposit.actionId, id, "toncenter's block type in the id");
  assert.ok(shownTo(expandActionTypes(['v1']), deposit.type, deposit.ancestors));
  assert.equal(actions.length, 1, 'whole: no part of it is an action');
  againstSpec(deposit);
});

test('DeDust v2 dex_deposit_liquidity: TON alone is only credited: the pool and its amount, no targets nor LP', () => {
  const { trace, messages } = buildTrace(USER, [tonSide(null)]);
  const actions = classifyTrace(trace, contracts).actions;
  const side = only(actions, 'dex_deposit_liquidity');
  assert.equal(side.success, true);
  assert.deepEqual(side.details, {
    ...DEPOSIT_BASE,
    amount_1: TON_IN.toString(),
    amount_2: null,
    asset_1: null,
    asset_2: null,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: null,
    lp_tokens_minted: null,
    target_asset_1: null,
    target_asset_2: null,
    target_amount_1: null,
    target_amount_2: null,
    vault_excesses: [],
  });
  assert.equal(side.transactions.length, trace.transactions.length, 'the contract`s excess too');
  const id = createHash('sha256').update(`${messages[0].hash}dedust_v2_deposit_liquidity_partial`).digest('base64');
  assert.equal(side.actionId, id);
  // The deposit contract's deployment is an action too, as toncenter unwinds deployments out of every action.
  assert.equal(types(actions), 'dex_deposit_liquidity,contract_deploy');
  againstSpec(side);
});

test('DeDust v2 dex_deposit_liquidity: USDT then TON sent by one request are one action, each in its slot', () => {
  const { trace } = buildTrace(USER, [usdtSide(null), tonSide(joined(true, [usdtPayback(USDT_IN - USDT_TAKEN)]))]);
  const actions = classifyTrace(trace, contracts).actions;
  const deposit = only(actions, 'dex_deposit_liquidity');
  assert.equal(types(actions), 'dex_deposit_liquidity,contract_deploy', 'the USDT side is no action of its own');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    ...DEPOSIT_BASE,
    amount_1: TON_TAKEN.toString(),
    amount_2: USDT_TAKEN.toString(),
    asset_1: null,
    asset_2: USDT,
    // Filled from the USDT side, which the TON side's join found in its empty slot.
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: USER_USDT,
    lp_tokens_minted: MINTED.toString(),
    target_asset_1: null,
    target_asset_2: USDT,
    target_amount_1: TARGETS[0].toString(),
    target_amount_2: TARGETS[1].toString(),
    vault_excesses: [{ asset: USDT, amount: (USDT_IN - USDT_TAKEN).toString() }],
  });
  assert.equal(deposit.transactions.length, trace.transactions.length, 'both sides');
  againstSpec(deposit);
});

test('DeDust v2 dex_deposit_liquidity: a deposit the pool refused is failed, the join`s amounts, both assets paid back', () => {
  const refused = (paybacks: Step[]) => buildTrace(USER, [tonSide(joined(false, paybacks))]).trace;
  const actions = classifyTrace(refused([usdtPayback(USDT_IN), tonPayout(TON_IN, 0x2a)]), contracts).actions;
  const deposit = only(actions, 'dex_deposit_liquidity');
  assert.equal(types(actions), 'dex_deposit_liquidity', 'whole, the paybacks and the pool`s excess its parts');
  assert.equal(deposit.success, false);
  assert.deepEqual(deposit.details, {
    ...DEPOSIT_BASE,
    amount_1: TON_IN.toString(),
    amount_2: USDT_IN.toString(),
    asset_1: null,
    asset_2: null,
    user_jetton_wallet_1: null,
    user_jetton_wallet_2: null,
    lp_tokens_minted: null,
    target_asset_1: null,
    target_asset_2: null,
    target_amount_1: TARGETS[0].toString(),
    target_amount_2: TARGETS[1].toString(),
    vault_excesses: [
      { asset: USDT, amount: USDT_IN.toString() },
      { asset: null, amount: TON_IN.toString() },
    ],
  });
  againstSpec(deposit);
  // A payback to another account, or none at all: toncenter builds no deposit from the join (only the credit is).
  for (const paybacks of [[usdtPayback(USDT_IN, OTHER)], []]) {
    const other = classifyTrace(refused(paybacks), contracts).actions;
    const partial = only(other, 'dex_deposit_liquidity');
    assert.equal((partial.details as { lp_tokens_minted: unknown; amount_2: unknown }).amount_2, null, types(other));
    assert.equal(partial.success, true);
    assert.ok(
      other.some((a) => a.type === 'call_contract' && a.details.opcode === '0x25251ee0'),
      types(other),
    );
  }
});
