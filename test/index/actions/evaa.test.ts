/**
 * EVAA's types (`evaa_supply`, `evaa_withdraw`, `evaa_liquidate`) on traces built by hand (support.ts) shaped as
 * toncenter's test traces of mainnet (ton-indexer's `tests/test_cases/evaa.yaml`): EVAA's main master and tsTON's
 * master from there; wallets, user contracts and jetton wallets made up. Each action field by field, its id from the
 * block type, its parts (contract calls, transfers) as actions under it, and against toncenter's spec:
 * - supply: TON (the amount supply_success reports), tsTON through a jetton transfer, one the user contract refused
 *   (supply_fail: failed), one not answered yet (no supply);
 * - withdraw: TON paid with #0000211a, tsTON paid by a jetton transfer, one the user contract refused (excess #21e7:
 *   failed, not collateralized), one the master could not pay (withdraw_fail and #00211fe8: failed, no funds);
 * - liquidate: satisfied (the reward, the collateral named from ton-index-go's table), unsatisfied (failed, its
 *   error), refused by the master at once (a bounce: failed, immediate_rejection).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Builder, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { account, address, buildTrace, commentBody, op, type Step, againstSpec, actionId } from './support.js';

/** EVAA's main master and tsTON's master (evaa.yaml). */
const MASTER = '0:BCAD466A47FA565750729565253CD073CA24D856804499090C2100D95C809F9E';
const TSTON = '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000';
const TON_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;
/** tsTON's asset id in ton-index-go's table. */
const TSTON_ID = 0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7n;

const [USER, USER_CONTRACT, USER_TSTON, MASTER_TSTON, LIQUIDATOR, BORROWER, BORROWER_CONTRACT] = [
  0xa11ce, 0xc0, 0xa1, 0xa2, 0x11a, 0xb0, 0xbc,
].map(account);
const wallets: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_TSTON, { owner: USER, jetton: TSTON }],
    [MASTER_TSTON, { owner: MASTER, jetton: TSTON }],
  ]),
};

const v2 = expandActionTypes(['v2']);

/** The one action of `type`; the others are its parts (their ancestors name it). */
function only(actions: ActionRecord[], type: string): ActionRecord {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, actions.map((a) => a.type).join());
  const [action] = found;
  assert.ok(shownTo(v2, action.type, action.ancestors), 'a v2 client sees it');
  for (const part of actions.filter((a) => a !== action)) assert.deepEqual(part.ancestors, [type], `${part.type} is a part of it`);
  return action;
}

const typesOf = (actions: ActionRecord[]): string[] => actions.map((a) => a.type);

/** The user contract's header before its opcode: user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2. */
const user = (code: number): Builder => beginCell().storeCoins(3n).storeMaybeRef(null).storeUint(0, 2).storeUint(code, 32).storeUint(1, 64);
const excess = (): Cell => op(0xd53276db).endCell();
const bounce = (): Cell => beginCell().storeUint(0xffffffff, 32).storeUint(3, 32).endCell();

// Supply.

const SUPPLIED = 1_000_000_000n;
/** supply_master#00000001 query_id include_user_code:int2 supply_amount:uint64 recipient ... */
const supplyMaster = (amount: bigint): Cell =>
  op(0x1).storeInt(0, 2).storeUint(amount, 64).storeAddress(address(USER)).storeUint(0, 64).storeRef(beginCell().endCell()).endCell();
const supplyUser = (assetId: bigint, amount: bigint): Cell => user(0x11).storeUint(assetId, 256).storeUint(amount, 64).endCell();
const supplySuccess = (assetId: bigint, amount: bigint): Cell =>
  op(0x11a).storeAddress(address(USER)).storeUint(assetId, 256).storeUint(amount, 64).storeInt(0, 64).endCell();
const supplyFail = (assetId: bigint, amount: bigint): Cell =>
  op(0x11f).storeAddress(address(USER)).storeUint(assetId, 256).storeUint(amount, 64).endCell();

/** TON to the master; what the user contract answers (`answer`), nothing when undefined. */
const tonSupply = (answer: 'success' | 'fail' | undefined) =>
  buildTrace(USER, [
    {
      to: MASTER,
      value: SUPPLIED + 300_000_000n,
      body: supplyMaster(SUPPLIED),
      then: [
        {
          to: USER_CONTRACT,
          body: supplyUser(TON_ID, SUPPLIED),
          then:
            answer === 'success'
              ? [
                  {
                    to: MASTER,
                    body: supplySuccess(TON_ID, SUPPLIED - 1n),
                    then: [{ to: USER, body: commentBody('EVAA supply.'), bounce: false }],
                  },
                ]
              : answer === 'fail'
                ? [{ to: MASTER, body: supplyFail(TON_ID, SUPPLIED), then: [{ to: USER, body: commentBody('refund'), bounce: false }] }]
                : [],
        },
      ],
    },
  ]);

test('evaa_supply: TON supplied (the amount the user contract reports); refused by the user contract: failed; unanswered: none', () => {
  const { trace, messages } = tonSupply('success');
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const supply = only(actions, 'evaa_supply');
  assert.equal(supply.success, true);
  assert.deepEqual(supply.details, {
    sender_jetton_wallet: null,
    recipient_jetton_wallet: null,
    master_jetton_wallet: null,
    master: MASTER,
    asset_id: '0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a',
    is_ton: true,
    source: USER,
    source_wallet: null,
    recipient: USER,
    recipient_contract: USER_CONTRACT,
    asset: null,
    amount: (SUPPLIED - 1n).toString(),
  });
  assert.equal(supply.actionId, actionId(messages[0].hash, 'evaa_supply'));
  assert.deepEqual([...supply.accounts].sort(), [USER, MASTER, USER_CONTRACT].sort());
  assert.equal(supply.transactions.length, 5, 'the wallet, the master, the user contract, the master, the comment');
  assert.deepEqual(typesOf(actions), ['evaa_supply', 'call_contract', 'call_contract', 'call_contract', 'ton_transfer']);
  againstSpec(supply);

  const refused = classifyTrace(tonSupply('fail').trace, NO_CONTRACTS).actions;
  // The master's refund after supply_fail is no part of it (toncenter's matcher stops at supply_fail).
  assert.deepEqual(typesOf(refused), ['evaa_supply', 'call_contract', 'call_contract', 'call_contract', 'ton_transfer']);
  const failed = refused[0];
  assert.deepEqual(refused[4].ancestors, [], 'the refund is an action of its own');
  assert.equal(failed.success, false);
  assert.equal((failed.details as { amount: string }).amount, SUPPLIED.toString(), 'the amount asked for');

  const pending = classifyTrace(tonSupply(undefined).trace, NO_CONTRACTS).actions;
  assert.ok(!pending.some((a) => a.type.startsWith('evaa_')), typesOf(pending).join());
});

const TSTON_SUPPLIED = 47_133_134_852n;
const transfer = (amount: bigint, to: string, payload: Cell): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(300_000_000n)
    .storeMaybeRef(payload)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(1n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();

test('evaa_supply: tsTON supplied through a jetton transfer (its wallets, the master wallet, the asset)', () => {
  // A jetton's supply payload: op include_user_code:int2 recipient forward_ton_amount:uint64 ^payload (no query id).
  const payload = beginCell()
    .storeUint(0x1, 32)
    .storeInt(0, 2)
    .storeAddress(address(USER))
    .storeUint(0, 64)
    .storeRef(beginCell().endCell())
    .endCell();
  const { trace, messages } = buildTrace(USER, [
    {
      to: USER_TSTON,
      body: transfer(TSTON_SUPPLIED, MASTER, payload),
      then: [
        {
          to: MASTER_TSTON,
          body: internalTransfer(TSTON_SUPPLIED, USER),
          then: [
            {
              to: MASTER,
              body: notify(TSTON_SUPPLIED, USER),
              then: [
                {
                  to: USER_CONTRACT,
                  body: supplyUser(TSTON_ID, TSTON_SUPPLIED),
                  then: [{ to: MASTER, body: supplySuccess(TSTON_ID, TSTON_SUPPLIED) }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
  const actions = classifyTrace(trace, wallets).actions;
  const supply = only(actions, 'evaa_supply');
  assert.equal(supply.success, true);
  assert.deepEqual(supply.details, {
    sender_jetton_wallet: null,
    recipient_jetton_wallet: USER_TSTON,
    master_jetton_wallet: MASTER_TSTON,
    master: MASTER,
    asset_id: '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    is_ton: false,
    source: USER,
    source_wallet: USER_TSTON,
    recipient: USER,
    recipient_contract: USER_CONTRACT,
    asset: TSTON,
    amount: TSTON_SUPPLIED.toString(),
  });
  assert.equal(supply.actionId, actionId(messages[0].hash, 'evaa_supply'));
  assert.deepEqual(typesOf(actions), ['evaa_supply', 'jetton_transfer', 'call_contract', 'call_contract']);
  againstSpec(supply);
});

// Withdraw.

const WANTED = 417_016_017n;
const PAID_OUT = 417_016_000n;
/** withdraw_master#00000002 query_id asset_id amount:uint64 recipient include_user_code ... */
const withdrawMaster = (assetId: bigint): Cell =>
  op(0x2).storeUint(assetId, 256).storeUint(WANTED, 64).storeAddress(address(USER)).storeInt(0, 2).storeUint(0, 64).endCell();
const withdrawUser = (assetId: bigint): Cell =>
  user(0x21).storeUint(assetId, 256).storeUint(WANTED, 64).storeUint(1, 64).storeUint(1, 64).storeAddress(address(USER)).endCell();
const collateralized = (assetId: bigint): Cell =>
  op(0x211).storeAddress(address(USER)).storeUint(assetId, 256).storeUint(PAID_OUT, 64).storeInt(0, 64).endCell();
const withdrawSuccess = (assetId: bigint): Builder => beginCell().storeUint(assetId, 256).storeInt(5, 64);

const withdrawal = (assetId: bigint, userAnswer: Step[]) =>
  buildTrace(USER, [
    {
      to: MASTER,
      body: withdrawMaster(assetId),
      then: [{ to: USER_CONTRACT, body: withdrawUser(assetId), then: userAnswer }],
    },
  ]);
/** The user contract's withdraw_collateralized, the master's payout `payout` and its update of the user contract. */
const collateralizedAnswer = (assetId: bigint, payout: Step): Step[] => [
  {
    to: MASTER,
    body: collateralized(assetId),
    then: [
      payout,
      {
        to: USER_CONTRACT,
        body: user(0x211a).storeBuilder(withdrawSuccess(assetId)).endCell(),
        then: [{ to: USER, body: beginCell().endCell(), bounce: false }],
      },
    ],
  },
];

test('evaa_withdraw: TON paid with #0000211a; refused by the user contract (#21e7): failed, its reason', () => {
  const tonPayout: Step = {
    to: USER,
    value: PAID_OUT,
    bounce: false,
    body: op(0x211a).storeBuilder(withdrawSuccess(TON_ID)).endCell(),
    then: [],
  };
  const { trace, messages } = withdrawal(TON_ID, collateralizedAnswer(TON_ID, tonPayout));
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const withdraw = only(actions, 'evaa_withdraw');
  assert.equal(withdraw.success, true);
  assert.deepEqual(withdraw.details, {
    recipient_jetton_wallet: null,
    master_jetton_wallet: null,
    master: MASTER,
    fail_reason: null,
    asset_id: '0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a',
    source: USER,
    recipient: USER,
    owner_contract: USER_CONTRACT,
    asset: null,
    amount: PAID_OUT.toString(),
  });
  assert.equal(withdraw.actionId, actionId(messages[0].hash, 'evaa_withdraw'));
  assert.deepEqual([...withdraw.accounts].sort(), [USER, MASTER, USER_CONTRACT].sort());
  assert.equal(withdraw.transactions.length, 7);
  againstSpec(withdraw);

  const refused = classifyTrace(withdrawal(TON_ID, [{ to: USER, body: op(0x21e7).endCell(), bounce: false }]).trace, NO_CONTRACTS).actions;
  const failed = only(refused, 'evaa_withdraw');
  assert.equal(failed.success, false);
  assert.deepEqual(
    [(failed.details as { fail_reason: string }).fail_reason, (failed.details as { amount: string }).amount],
    ['withdraw_not_collateralized_excess', WANTED.toString()],
  );
  againstSpec(failed);
});

test('evaa_withdraw: tsTON paid by the master wallet (its wallets, the asset); no funds on the master: failed', () => {
  const jettonPayout: Step = {
    to: MASTER_TSTON,
    body: transfer(PAID_OUT, USER, beginCell().endCell()),
    then: [{ to: USER_TSTON, body: internalTransfer(PAID_OUT, MASTER), then: [{ to: USER, body: excess() }] }],
  };
  const { trace } = withdrawal(TSTON_ID, collateralizedAnswer(TSTON_ID, jettonPayout));
  const actions = classifyTrace(trace, wallets).actions;
  const withdraw = only(actions, 'evaa_withdraw');
  assert.equal(withdraw.success, true);
  assert.deepEqual(withdraw.details, {
    recipient_jetton_wallet: USER_TSTON,
    master_jetton_wallet: MASTER_TSTON,
    master: MASTER,
    fail_reason: null,
    asset_id: '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    source: USER,
    recipient: USER,
    owner_contract: USER_CONTRACT,
    asset: TSTON,
    amount: PAID_OUT.toString(),
  });
  assert.ok(typesOf(actions).includes('jetton_transfer'), 'the payout is a part of it');
  againstSpec(withdraw);

  const noFunds = withdrawal(TSTON_ID, [
    {
      to: MASTER,
      body: collateralized(TSTON_ID),
      then: [
        {
          to: USER_CONTRACT,
          body: user(0x211f).storeUint(TSTON_ID, 256).storeInt(0, 64).endCell(),
          then: [{ to: USER, body: beginCell().storeUint(0x211fe8, 32).storeUint(1, 64).endCell(), bounce: false }],
        },
      ],
    },
  ]);
  const failed = only(classifyTrace(noFunds.trace, wallets).actions, 'evaa_withdraw');
  assert.equal(failed.success, false);
  assert.deepEqual(failed.details, {
    recipient_jetton_wallet: null,
    master_jetton_wallet: null,
    master: MASTER,
    fail_reason: 'withdraw_no_funds_excess',
    asset_id: '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    source: USER,
    recipient: USER,
    owner_contract: USER_CONTRACT,
    asset: null,
    amount: WANTED.toString(),
  });
});

// Liquidate.

const DEBT = 5_000_000_000n;
const REPAID = 4_900_000_000n;
const REWARD = 5_123_456_789n;
/** liquidate_master#00000003 query_id borrower liquidator collateral_asset_id min_collateral include_user_code amount ^[...] ^prices. */
const liquidateMaster = (): Cell =>
  op(0x3)
    .storeAddress(address(BORROWER))
    .storeAddress(address(LIQUIDATOR))
    .storeUint(TSTON_ID, 256)
    .storeUint(1, 64)
    .storeInt(0, 2)
    .storeUint(DEBT, 64)
    .storeRef(beginCell().storeUint(0, 64).endCell())
    .storeRef(beginCell().endCell())
    .endCell();
const liquidateUser = (): Cell => user(0x31).storeBit(0).storeBit(0).storeRef(beginCell().endCell()).endCell();
const satisfied = (): Cell =>
  op(0x311)
    .storeAddress(address(BORROWER))
    .storeAddress(address(LIQUIDATOR))
    .storeUint(TON_ID, 256)
    .storeRef(
      beginCell()
        .storeInt(-10, 64)
        .storeUint(REPAID, 64)
        .storeUint(0, 64)
        .storeInt(100, 64)
        .storeUint(TSTON_ID, 256)
        .storeInt(-20, 64)
        .storeUint(REWARD, 64)
        .endCell(),
    )
    .endCell();
const unsatisfied = (error: number): Cell =>
  op(0x31f)
    .storeAddress(address(BORROWER))
    .storeAddress(address(LIQUIDATOR))
    .storeUint(TON_ID, 256)
    .storeRef(
      beginCell()
        .storeUint(DEBT, 64)
        .storeUint(TSTON_ID, 256)
        .storeUint(1, 64)
        .storeUint(0, 64)
        .storeRef(beginCell().endCell())
        .storeUint(error, 32)
        .endCell(),
    )
    .endCell();
const liquidation = (userAnswer: Step[], masterAborted = false) =>
  buildTrace(LIQUIDATOR, [
    {
      to: MASTER,
      value: DEBT + 500_000_000n,
      body: liquidateMaster(),
      aborted: masterAborted,
      then: masterAborted
        ? [{ to: LIQUIDATOR, body: bounce(), bounce: false, bounced: true }]
        : [{ to: BORROWER_CONTRACT, body: liquidateUser(), then: userAnswer }],
    },
  ]);

test('evaa_liquidate: satisfied (the reward in tsTON, named from the table); unsatisfied: failed with its error; refused at once: failed', () => {
  const { trace, messages } = liquidation([
    {
      to: MASTER,
      body: satisfied(),
      then: [
        { to: BORROWER_CONTRACT, body: user(0x311a).storeUint(TON_ID, 256).storeInt(-10, 64).endCell() },
        { to: LIQUIDATOR, body: op(0x311d).storeUint(TON_ID, 256).endCell(), bounce: false },
      ],
    },
  ]);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const liquidate = only(actions, 'evaa_liquidate');
  assert.equal(liquidate.success, true);
  // toncenter's filler writes the parties with Python's str() (lowercase) and the collateral's id in decimal.
  assert.deepEqual(liquidate.details, {
    fail_reason: null,
    debt_amount: REPAID.toString(),
    source: LIQUIDATOR.toLowerCase(),
    borrower: BORROWER.toLowerCase(),
    borrower_contract: BORROWER_CONTRACT.toLowerCase(),
    collateral: TSTON_ID.toString(),
    asset_id: '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    asset: TSTON,
    is_known_asset: true,
    amount: REWARD.toString(),
  });
  assert.equal(liquidate.actionId, actionId(messages[0].hash, 'evaa_liquidate'));
  assert.deepEqual([...liquidate.accounts].sort(), [LIQUIDATOR, MASTER, BORROWER, BORROWER_CONTRACT].sort());
  againstSpec(liquidate);

  const notLiquidatable = only(
    classifyTrace(
      liquidation([{ to: MASTER, body: unsatisfied(0xe003), then: [{ to: LIQUIDATOR, body: op(0x311f).endCell() }] }]).trace,
      NO_CONTRACTS,
    ).actions,
    'evaa_liquidate',
  );
  assert.equal(notLiquidatable.success, false);
  assert.deepEqual(notLiquidatable.details, {
    fail_reason: 'not_liquidatable',
    debt_amount: DEBT.toString(),
    source: LIQUIDATOR.toLowerCase(),
    borrower: BORROWER.toLowerCase(),
    borrower_contract: BORROWER_CONTRACT.toLowerCase(),
    collateral: TSTON_ID.toString(),
    asset_id: '0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7',
    asset: TSTON,
    is_known_asset: true,
    amount: '0',
  });
  againstSpec(notLiquidatable);

  const rejected = only(classifyTrace(liquidation([], true).trace, NO_CONTRACTS).actions, 'evaa_liquidate');
  assert.equal(rejected.success, false);
  assert.equal((rejected.details as { fail_reason: string }).fail_reason, 'immediate_rejection');
  assert.equal((rejected.details as { borrower_contract: null }).borrower_contract, null);
});
