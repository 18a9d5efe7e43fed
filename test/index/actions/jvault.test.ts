/**
 * JVault's types (`jvault_stake`, `jvault_unstake`, `jvault_claim`, `jvault_unstake_request`) on traces built by hand
 * (support.ts) shaped as toncenter's test traces of mainnet (ton-indexer's `tests/test_cases/jvault.yaml`); every
 * address made up. Each action field by field, its id from the block type, its parts as actions under it, against
 * toncenter's spec:
 * - stake: jettons to the pool, the stake wallet's reward update answered, a referrer's update taken along; one the
 *   pool cancelled (failed, the jettons sent back);
 * - unstake: the pool's jetton transfer out (the stake wallet looked up); one the stake wallet refused (its exit code,
 *   still a success as toncenter writes it); a stake wallet whose data is not known (no unstake);
 * - claim: the pool's payout of the one jetton claimed; a pool that refused (no claim);
 * - unstake request: answered by the pool; refused by the stake wallet (failed, its exit code);
 * - the stake wallets read from the latest states (their pool's lock wallet a detected jetton wallet), SQLite and
 *   PostgreSQL, the group's rows first; the same through the reader's lookup (what pending and emulated traces ask).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { beginCell, Dictionary, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import type { JvaultStakeWalletInfo } from '../../../src/index/actions/jvault.js';
import { ActionReader } from '../../../src/index/actions/reader.js';
import { groupRowsOf, jvaultStakeWallets } from '../../../src/index/actions/trace-source.js';
import { NO_CONTRACTS, transactionWith, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { migrate } from '../../../src/index/schema.js';
import type { SqlDriver } from '../../../src/index/sql/driver.js';
import { PostgresDriver } from '../../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../../src/index/sql/sqlite-driver.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';
import { account, address, buildTrace, op, type Built, type Step, againstSpec, actionId } from './support.js';

const [USER, USER_JETTON, POOL, POOL_JETTON, STAKE_WALLET, JETTON, STAKE_MINTER, REFERRER_WALLET, REWARD_JETTON_WALLET] = [
  0xa11ce, 0xa1, 0x9001, 0x9002, 0x5e, 0x7e7, 0x5e5, 0x4ef, 0x4e1,
].map(account);
const wallets: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_JETTON, { owner: USER, jetton: JETTON }],
    [POOL_JETTON, { owner: POOL, jetton: JETTON }],
  ]),
};
const stakeWallet: JvaultStakeWalletInfo = { pool: POOL, asset: JETTON, stakingAsset: STAKE_MINTER };
const withStakeWallet: KnownContracts = { ...wallets, jvaultStakeWallets: new Map([[STAKE_WALLET, stakeWallet]]) };

const v2 = expandActionTypes(['v2']);

/** The one action of `type`; every other is a part of it. */
function only(actions: ActionRecord[], type: string): ActionRecord {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, actions.map((a) => a.type).join());
  const [action] = found;
  assert.ok(shownTo(v2, action.type, action.ancestors), 'a v2 client sees it');
  for (const part of actions.filter((a) => a !== action)) assert.deepEqual(part.ancestors, [type], `${part.type} is a part of it`);
  return action;
}

const typesOf = (actions: ActionRecord[]): string[] => actions.map((a) => a.type);
const excess = (): Cell => op(0xd53276db).endCell();
const transfer = (amount: bigint, to: string, from: string, payload: Cell | null): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(from))
    .storeBit(0)
    .storeCoins(100_000_000n)
    .storeMaybeRef(payload)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(1n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
/** `amount` of JETTON from `fromWallet` (owned by `from`) to `to` through `toWallet`, notified. */
const jettonLeg = (
  amount: bigint,
  from: string,
  fromWallet: string,
  to: string,
  toWallet: string,
  payload: Cell | null,
  then: Step[],
): Step => ({
  to: fromWallet,
  body: transfer(amount, to, from, payload),
  then: [{ to: toWallet, body: internalTransfer(amount, from), then: [{ to, body: notify(amount, from), then }] }],
});
/** The pool's update_rewards back to the stake wallet, whose excess goes to the user. */
const updateRewards = (): Step => ({ to: STAKE_WALLET, body: op(0xae9307ce).endCell(), then: [{ to: USER, body: excess() }] });
const requestUpdate = (then: Step[], aborted = false): Step => ({
  to: POOL,
  body: op(0xf5c5baa3).endCell(),
  aborted,
  then,
});

// Stake.

const STAKED = 3_000_000_000_000n;
const PERIOD = 86_400;

const stake = (cancelled: boolean): Built => {
  const payload = beginCell().storeUint(0x6ec9dc65, 32).storeUint(PERIOD, 32).endCell();
  const onStakeWallet: Step[] = cancelled
    ? [
        {
          to: POOL,
          body: op(0x9eada1d9).endCell(),
          then: [jettonLeg(STAKED, POOL, POOL_JETTON, USER, USER_JETTON, null, [])],
        },
      ]
    : [
        requestUpdate([
          // A referrer's wallet updated on the way, then the stake wallet's rewards.
          { to: REFERRER_WALLET, body: op(0x55c35b40).endCell(), then: [{ to: POOL, body: op(0x076ee4e0).endCell() }] },
          updateRewards(),
        ]),
      ];
  return buildTrace(USER, [
    jettonLeg(STAKED, USER, USER_JETTON, POOL, POOL_JETTON, payload, [
      {
        to: STAKE_WALLET,
        body: op(0xd68a4ac1).storeCoins(1n).storeCoins(0n).storeUint(0, 16).storeCoins(0n).storeBit(0).storeCoins(STAKED).endCell(),
        then: onStakeWallet,
      },
    ]),
  ]);
};

test('jvault_stake: jettons to the pool, the stake wallet updated (a referrer too); cancelled by the pool: failed', () => {
  const { trace, messages } = stake(false);
  const actions = classifyTrace(trace, wallets).actions;
  const staked = only(actions, 'jvault_stake');
  assert.equal(staked.success, true);
  assert.deepEqual(staked.details, {
    period: PERIOD,
    minted_stake_jettons: null,
    stake_wallet: STAKE_WALLET,
    source: USER,
    source_jetton_wallet: USER_JETTON,
    asset: JETTON,
    pool: POOL,
    amount: STAKED.toString(),
  });
  assert.equal(staked.actionId, actionId(messages[0].hash, 'jvault_stake'));
  assert.deepEqual([...staked.accounts].sort(), [USER, USER_JETTON, POOL_JETTON, POOL, STAKE_WALLET, REFERRER_WALLET].sort());
  assert.equal(staked.transactions.length, 10, 'every step, the referrer and the excess included');
  assert.deepEqual(
    typesOf(actions).sort(),
    [
      'call_contract',
      'call_contract',
      'call_contract',
      'call_contract',
      'call_contract',
      'call_contract',
      'jetton_transfer',
      'jvault_stake',
    ].sort(),
  );
  againstSpec(staked);

  const cancelled = classifyTrace(stake(true).trace, wallets).actions;
  const failed = only(cancelled, 'jvault_stake');
  assert.equal(failed.success, false);
  assert.equal(typesOf(cancelled).filter((t) => t === 'jetton_transfer').length, 2, 'the jettons in and back are its parts');
  againstSpec(failed);

  // Without a known wallet of the pool, the transfer is no jetton_transfer and so no stake.
  const unknown = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.ok(!unknown.some((a) => a.type.startsWith('jvault_')), typesOf(unknown).join());
});

// Unstake.

const UNSTAKED = 1_500_000_000_000n;
const unstakeBody = (code: number): Cell => op(code).storeCoins(UNSTAKED).storeBit(0).endCell();

const unstake = (refused: boolean): Built =>
  buildTrace(USER, [
    {
      to: STAKE_WALLET,
      body: unstakeBody(0x499a9262),
      aborted: refused,
      then: refused
        ? [{ to: USER, body: beginCell().storeUint(0xffffffff, 32).storeUint(0x499a9262, 32).endCell(), bounce: false, bounced: true }]
        : [
            requestUpdate([
              { to: USER, value: 10_000_000n, bounce: false },
              jettonLeg(UNSTAKED, POOL, POOL_JETTON, USER, USER_JETTON, null, []),
              updateRewards(),
            ]),
          ],
    },
  ]);

test("a stored transaction's compute exit code is what the classifier reads (null when the compute phase was skipped)", () => {
  const doc = (compute: { skipped?: boolean; reason?: string; exit_code?: number }) => ({
    account: STAKE_WALLET,
    hash: 'x',
    lt: '1',
    now: 1,
    mc_block_seqno: 1,
    orig_status: 'active',
    end_status: 'active',
    total_fees: '0',
    description: { type: 'ord', aborted: true, compute_ph: compute },
  });
  assert.equal(transactionWith(doc({ skipped: false, exit_code: 709 }), null, []).exitCode, 709);
  assert.equal(transactionWith(doc({ skipped: true, reason: 'no_state' }), null, []).exitCode, null);
});

/** The stake wallet's transaction of `built`, given an exit code (the hand-built traces carry none). */
function withExitCode(built: Built, exitCode: number): Built {
  const tx = built.txs.find((t) => t.account === STAKE_WALLET)!;
  tx.exitCode = exitCode;
  return built;
}

test('jvault_unstake: paid out by the pool; refused by the stake wallet: its exit code (a success, as toncenter); unknown stake wallet: none', () => {
  const { trace, messages } = unstake(false);
  const actions = classifyTrace(trace, withStakeWallet).actions;
  const unstaked = only(actions, 'jvault_unstake');
  assert.equal(unstaked.success, true);
  assert.deepEqual(unstaked.details, {
    source: USER,
    stake_wallet: STAKE_WALLET,
    pool: POOL,
    amount: UNSTAKED.toString(),
    exit_code: null,
    asset: JETTON,
    staking_asset: STAKE_MINTER,
  });
  assert.equal(unstaked.actionId, actionId(messages[0].hash, 'jvault_unstake'));
  assert.deepEqual([...unstaked.accounts].sort(), [USER, STAKE_WALLET, POOL, POOL_JETTON, USER_JETTON].sort());
  assert.ok(typesOf(actions).includes('jetton_transfer') && typesOf(actions).includes('ton_transfer'), 'the payout and the fee are parts');
  againstSpec(unstaked);

  const refused = classifyTrace(withExitCode(unstake(true), 709).trace, withStakeWallet).actions;
  // The bounce stays an action of its own (toncenter merges a matcher's bounces only into an enclosing match).
  assert.deepEqual(
    refused.map((a) => [a.type, a.ancestors]),
    [
      ['jvault_unstake', []],
      ['call_contract', ['jvault_unstake']],
      ['call_contract', []],
    ],
  );
  const [failed] = refused;
  assert.equal(failed.success, true, 'toncenter marks no failure there');
  assert.deepEqual(failed.details, {
    source: USER,
    stake_wallet: STAKE_WALLET,
    pool: POOL,
    amount: UNSTAKED.toString(),
    exit_code: 709,
    asset: JETTON,
    staking_asset: STAKE_MINTER,
  });
  againstSpec(failed);

  const unknown = classifyTrace(trace, wallets).actions;
  assert.ok(!unknown.some((a) => a.type.startsWith('jvault_')), typesOf(unknown).join());
});

// Claim.

const CLAIMED = 12_345_678n;
const claim = (poolAborted: boolean): Built => {
  const jettons = Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Bool());
  jettons.set(address(REWARD_JETTON_WALLET), true);
  return buildTrace(USER, [
    {
      to: STAKE_WALLET,
      body: op(0x78d9f109).storeDict(jettons).endCell(),
      then: [
        {
          to: POOL,
          body: op(0x44bc1fe3).endCell(),
          aborted: poolAborted,
          then: poolAborted ? [] : [jettonLeg(CLAIMED, POOL, POOL_JETTON, USER, USER_JETTON, null, []), updateRewards()],
        },
      ],
    },
  ]);
};

test('jvault_claim: the pool pays the jetton claimed; a pool that refused makes no claim', () => {
  const { trace, messages } = claim(false);
  const actions = classifyTrace(trace, wallets).actions;
  const claimed = only(actions, 'jvault_claim');
  assert.equal(claimed.success, true);
  assert.deepEqual(claimed.details, {
    claimed_rewards: [{ jetton: REWARD_JETTON_WALLET, amount: CLAIMED.toString() }],
    source: USER,
    stake_wallet: STAKE_WALLET,
    pool: POOL,
  });
  assert.equal(claimed.actionId, actionId(messages[0].hash, 'jvault_claim'));
  assert.deepEqual([...claimed.accounts].sort(), [USER, STAKE_WALLET, POOL, POOL_JETTON, USER_JETTON].sort());
  againstSpec(claimed);

  const refused = classifyTrace(claim(true).trace, wallets).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('jvault_')), typesOf(refused).join());
  assert.ok(
    refused.some((a) => a.type === 'call_contract' && !a.success),
    'the refused call is a failed contract call',
  );
});

// Unstake request.

const unstakeRequest = (refused: boolean): Built =>
  buildTrace(USER, [
    {
      to: STAKE_WALLET,
      body: unstakeBody(0x0168d4b7),
      aborted: refused,
      then: refused ? [] : [requestUpdate([updateRewards()])],
    },
  ]);

test('jvault_unstake_request: answered by the pool; refused by the stake wallet: failed, its exit code', () => {
  const { trace, messages } = unstakeRequest(false);
  const actions = classifyTrace(trace, withStakeWallet).actions;
  const request = only(actions, 'jvault_unstake_request');
  assert.equal(request.success, true);
  assert.deepEqual(request.details, {
    source: USER,
    stake_wallet: STAKE_WALLET,
    pool: POOL,
    amount: UNSTAKED.toString(),
    exit_code: null,
    asset: JETTON,
    staking_asset: STAKE_MINTER,
  });
  assert.equal(request.actionId, actionId(messages[0].hash, 'jvault_unstake_request'));
  againstSpec(request);
  // Answered, it needs no lookup: the stake wallet's assets are then unknown (null), as toncenter writes them.
  const unlooked = only(classifyTrace(trace, wallets).actions, 'jvault_unstake_request');
  assert.deepEqual([(unlooked.details as { asset: null }).asset, (unlooked.details as { pool: string }).pool], [null, POOL]);

  const refused = only(classifyTrace(withExitCode(unstakeRequest(true), 708).trace, withStakeWallet).actions, 'jvault_unstake_request');
  assert.equal(refused.success, false);
  assert.deepEqual(refused.details, {
    source: USER,
    stake_wallet: STAKE_WALLET,
    pool: POOL,
    amount: UNSTAKED.toString(),
    exit_code: 708,
    asset: JETTON,
    staking_asset: STAKE_MINTER,
  });
  againstSpec(refused);
  const unknown = classifyTrace(unstakeRequest(true).trace, wallets).actions;
  assert.ok(!unknown.some((a) => a.type.startsWith('jvault_')), typesOf(unknown).join());
});

// The stake wallets looked up.

async function openDriver(t: TestContext, store: 'sqlite' | 'postgres'): Promise<SqlDriver | null> {
  if (store === 'sqlite') {
    const driver = SqliteDriver.open();
    t.after(() => driver.close());
    return driver;
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_jvault');
  const driver = await PostgresDriver.open(POSTGRES_URL, schema);
  t.after(async () => {
    await driver.close();
    await dropSchema(schema);
  });
  return driver;
}

test('jvault stake wallets: read from the latest states (the pool, its lock wallet a detected jetton wallet), the group first', async (t) => {
  for (const store of ['sqlite', 'postgres'] as const) {
    const driver = await openDriver(t, store);
    if (driver) await stakeWalletsLookedUp(driver, store);
  }
});

async function stakeWalletsLookedUp(driver: SqlDriver, store: string): Promise<void> {
  await migrate(driver);
  const [LOCK, NO_POOL_WALLET, GROUP_WALLET, GROUP_POOL, GROUP_LOCK, UNKNOWN_LOCK_WALLET, UNKNOWN_LOCK_POOL] = [
    0x10c, 0x5f, 0x5d, 0x9003, 0x10d, 0x5c, 0x9004,
  ].map(account);
  const boc = (cell: Cell): Buffer => cell.toBoc();
  const walletData = (pool: string): Buffer => boc(beginCell().storeAddress(address(pool)).storeAddress(address(STAKE_MINTER)).endCell());
  const poolData = (lock: string): Buffer =>
    boc(beginCell().storeUint(1, 33).storeAddress(address(USER)).storeAddress(address(USER)).storeAddress(address(lock)).endCell());
  const state = (who: string, data: Buffer | null) => [
    who,
    Buffer.alloc(32, 1),
    'active',
    '1',
    '1',
    null,
    null,
    Buffer.alloc(32, 3),
    null,
    null,
    data,
    Buffer.alloc(32, 2),
    1n,
    null,
  ];
  const latest = (rows: unknown[][]) => ({
    table: 'latest_account_states',
    columns: [
      'account',
      'state_hash',
      'status',
      'balance',
      'balance_order',
      'extra_currencies',
      'frozen_hash',
      'code_hash',
      'data_hash',
      'code_boc',
      'data_boc',
      'last_trans_hash',
      'last_trans_lt',
      'wallet',
    ],
    rows: rows as (string | Buffer | bigint | null)[][],
  });
  const jettonWallet = (address: string, owner: string) => ({
    table: 'jetton_wallets',
    columns: ['address', 'balance', 'balance_order', 'owner', 'jetton', 'last_transaction_lt', 'code_hash', 'data_hash', 'first_lt'],
    rows: [[address, '0', '0', owner, JETTON, 1n, Buffer.alloc(32, 4), Buffer.alloc(32, 5), 1n]] as (string | Buffer | bigint | null)[][],
  });
  await driver.write([
    latest([
      state(STAKE_WALLET, walletData(POOL)),
      state(POOL, poolData(LOCK)),
      state(NO_POOL_WALLET, walletData(account(0x9999))),
      state(UNKNOWN_LOCK_WALLET, walletData(UNKNOWN_LOCK_POOL)),
      state(UNKNOWN_LOCK_POOL, poolData(account(0x10e))),
    ]),
    jettonWallet(LOCK, POOL),
  ]);
  const asked = [STAKE_WALLET, NO_POOL_WALLET, GROUP_WALLET, UNKNOWN_LOCK_WALLET, USER];
  const stored = await jvaultStakeWallets(driver, asked);
  assert.deepEqual(
    Object.fromEntries(stored),
    {
      [STAKE_WALLET]: { pool: POOL, asset: JETTON, stakingAsset: STAKE_MINTER },
      // Its pool has no state: toncenter still names the pool and the stake jetton.
      [NO_POOL_WALLET]: { pool: account(0x9999), asset: null, stakingAsset: STAKE_MINTER },
    },
    store,
  );
  // What a pending or emulated trace asks the index (the reader's knownContracts): the same stake wallets.
  const known = await new ActionReader(driver).knownContracts([USER], asked);
  assert.deepEqual(known.jvaultStakeWallets, stored, `the reader's lookup [${store}]`);
  // A wallet, its pool and the pool's lock wallet first seen in the group being committed.
  const group = groupRowsOf(
    [latest([state(GROUP_WALLET, walletData(GROUP_POOL)), state(GROUP_POOL, poolData(GROUP_LOCK))]), jettonWallet(GROUP_LOCK, GROUP_POOL)],
    new Set(),
  );
  const withGroup = await jvaultStakeWallets(driver, asked, group);
  assert.deepEqual(withGroup.get(GROUP_WALLET), { pool: GROUP_POOL, asset: JETTON, stakingAsset: STAKE_MINTER }, store);
  assert.equal(withGroup.has(UNKNOWN_LOCK_WALLET), false, 'a lock wallet the index does not know: no stake wallet');
}
