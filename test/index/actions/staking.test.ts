/**
 * The staking types (`stake_deposit`, `stake_withdrawal`, `stake_withdrawal_request`) on traces built by hand
 * (support.ts) shaped as toncenter's test traces of mainnet (ton-indexer's `tests/test_cases/tonstakers.yaml`,
 * `ethena.yaml`): Tonstakers' mainnet pool and tsTON master, Ethena's USDe and tsUSDe masters and pool; wallets,
 * payout collections, NFTs and nominator pools made up. Each action field by field, with its id from toncenter's block
 * type, seen by a v1 client, and against toncenter's spec:
 * - Tonstakers: a deposit (and one the pool refused: a failed contract call, no deposit); an immediate withdrawal (and a
 *   request the pool refused: the burn stays a `jetton_burn`); a delayed one's request with its payout NFT (found as an
 *   `nft_mint`, or as the item's init; failed when no NFT was minted); the payouts after the NFTs' burns (the pool from
 *   the start of distribution; an item that refused the burn pays nothing).
 * - Nominator pools: a deposit (and one bounced: failed, the bounce part of it; a pool the index does not know: a TON
 *   transfer); a request registered, one paid at once, one bounced; the owner's process_withdraw_requests paying two
 *   nominators; the pools looked up from the latest account states (group first, then the store).
 * - Ethena: USDe staked for tsUSDe (and USDe sent without a mint: no deposit); an unstake request (and one whose wallet
 *   is not the sender's: none).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { NOMINATOR_POOL_CODE_HASH } from '../../../src/index/actions/nominator-pools.js';
import { groupRowsOf, knownContracts } from '../../../src/index/actions/trace-source.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { expandActionTypes, shownTo } from '../../../src/index/actions/versions.js';
import { migrate } from '../../../src/index/schema.js';
import type { SqlDriver } from '../../../src/index/sql/driver.js';
import { PostgresDriver } from '../../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../../src/index/sql/sqlite-driver.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';
import { account, address, buildTrace, commentBody, op, type Step, againstSpec, actionId } from './support.js';

/** Tonstakers' mainnet pool and tsTON master (tonstakers.yaml). */
const TS_POOL = '0:A45B17F28409229B78360E3290420F13E4FE20F90D7E2BF8C4AC6703259E22FA';
const TSTON = '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000';
/** Ethena's mainnet USDe and tsUSDe masters and its pool (ethena.yaml). */
const USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
const TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';
const ETHENA_POOL = '0:A11AE0F5BB47BB2945871F915A621FF281C2D786C746DA74873D71D6F2AAA7A5';

const [USER, USER_TSTON, COLLECTION, NFT, NFT_2, HOLDER_2, NOMINATOR_POOL, OWNER, NOMINATOR_2] = [
  0xa11ce, 0xa1, 0xc011, 0x4f7, 0x4f8, 0xb0b, 0x9001, 0x0e, 0xb0b2,
].map(account);
const [USER_USDE, POOL_USDE, USER_TSUSDE] = [0xa2, 0xa3, 0xa4].map(account);

const v1 = expandActionTypes(['v1']);

/** The one action of `type`, a v1 one whose parts are no actions (toncenter's whole types). */
function only(actions: ActionRecord[], type: string): ActionRecord {
  const found = actions.filter((a) => a.type === type);
  assert.equal(found.length, 1, actions.map((a) => a.type).join());
  const [action] = found;
  assert.ok(shownTo(v1, action.type, action.ancestors), 'a v1 client sees it');
  assert.ok(!actions.some((a) => a.ancestors.length > 0), 'its parts are no actions');
  return action;
}

const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(0n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
const excess = (): Cell => op(0xd53276db).endCell();
const bounce = (): Cell => beginCell().storeUint(0xffffffff, 32).storeUint(0, 32).endCell();

// Tonstakers.

const STAKED = 10_000_000_000n;
const MINTED = 9_439_323_796n;
const tonstakersDeposit = (refused: boolean) =>
  buildTrace(USER, [
    {
      to: TS_POOL,
      value: STAKED + 1_000_000_000n,
      body: op(0x47d54391).endCell(),
      aborted: refused,
      then: refused
        ? [{ to: USER, body: bounce(), bounce: false, bounced: true }]
        : [
            {
              to: TSTON,
              body: op(0x1674b0a0).storeCoins(MINTED).endCell(),
              then: [
                {
                  to: USER_TSTON,
                  body: internalTransfer(MINTED, TS_POOL),
                  then: [
                    { to: USER, body: notify(MINTED, TS_POOL) },
                    { to: USER, body: excess() },
                  ],
                },
              ],
            },
          ],
    },
  ]);

test('Tonstakers stake_deposit: TON to the pool, tsTON minted to the user; a deposit the pool refused is none', () => {
  const { trace, messages } = tonstakersDeposit(false);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const deposit = only(actions, 'stake_deposit');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    provider: 'liquid_staking',
    stake_holder: USER,
    pool: TS_POOL,
    amount: STAKED.toString(),
    tokens_minted: MINTED.toString(),
    asset: TSTON,
  });
  assert.equal(deposit.actionId, actionId(messages[0].hash, 'tonstakers_deposit'));
  assert.deepEqual([...deposit.accounts].sort(), [USER, TS_POOL, TSTON, USER_TSTON].sort());
  assert.equal(deposit.transactions.length, 6, 'the wallet, the pool, the master, the wallet, the notification, the excess');
  assert.deepEqual(
    actions.map((a) => a.type),
    ['stake_deposit'],
  );
  againstSpec(deposit);

  const refused = classifyTrace(tonstakersDeposit(true).trace, NO_CONTRACTS).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('stake_')), refused.map((a) => a.type).join());
  const call = refused.find((a) => a.type === 'call_contract' && (a.details as { opcode: string }).opcode === '0x47d54391');
  assert.equal(call?.success, false, 'the refused request is a failed contract call');
});

const BURNT = 499_933_340n;
const REQUEST_VALUE = 50_000_000n;
const PAID = 477_298_994n;
const burn = (amount: bigint): Cell => op(0x595f07bc).storeCoins(amount).storeAddress(address(USER)).storeMaybeRef(null).endCell();
const burnNotification = (amount: bigint): Cell =>
  op(0x7bdd97de).storeCoins(amount).storeAddress(address(USER)).storeAddress(address(USER)).endCell();
/** A tsTON burn whose notification makes the master ask the pool; `answer` is what the pool does with the request. */
const tonstakersBurn = (answer: Step[], poolAborted = false) =>
  buildTrace(USER, [
    {
      to: USER_TSTON,
      body: burn(BURNT),
      then: [
        {
          to: TSTON,
          body: burnNotification(BURNT),
          then: [
            { to: TS_POOL, value: REQUEST_VALUE, body: op(0x319b0cdc).storeCoins(BURNT).endCell(), aborted: poolAborted, then: answer },
          ],
        },
      ],
    },
  ]);
const tsTonWallet: KnownContracts = { ...NO_CONTRACTS, jettonWallets: new Map([[USER_TSTON, { owner: USER, jetton: TSTON }]]) };

test('Tonstakers stake_withdrawal: tsTON burnt and paid at once; a request the pool refused leaves a jetton_burn', () => {
  const { trace, messages } = tonstakersBurn([{ to: USER, value: PAID + REQUEST_VALUE, body: op(0x0a77535c).endCell() }]);
  const actions = classifyTrace(trace, tsTonWallet).actions;
  const withdrawal = only(actions, 'stake_withdrawal');
  assert.equal(withdrawal.success, true);
  assert.deepEqual(withdrawal.details, {
    provider: 'liquid_staking',
    stake_holder: USER,
    pool: TS_POOL,
    amount: PAID.toString(),
    payout_nft: null,
    tokens_burnt: BURNT.toString(),
    asset: TSTON,
  });
  assert.equal(withdrawal.actionId, actionId(messages[0].hash, 'tonstakers_withdraw'));
  assert.deepEqual([...withdrawal.accounts].sort(), [USER, USER_TSTON, TSTON, TS_POOL].sort());
  assert.equal(withdrawal.transactions.length, 5);
  againstSpec(withdrawal);

  const refused = classifyTrace(
    tonstakersBurn([{ to: TSTON, body: bounce(), bounce: false, bounced: true }], true).trace,
    tsTonWallet,
  ).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('stake_')), refused.map((a) => a.type).join());
  assert.ok(
    refused.some((a) => a.type === 'jetton_burn'),
    refused.map((a) => a.type).join(),
  );
});

/** The pool's answer to a request it cannot pay now: a payout NFT minted by its payout collection. */
const payoutNft = (collectionAborted = false): Step[] => [
  {
    to: COLLECTION,
    body: op(0x1674b0a0).storeCoins(BURNT).endCell(),
    aborted: collectionAborted,
    then: collectionAborted ? [] : [{ to: NFT, body: op(0x132f9a45).storeAddress(address(USER)).endCell(), deploys: true }],
  },
];

test('Tonstakers stake_withdrawal_request: the payout NFT minted (as an nft_mint or its init); no NFT minted: failed', () => {
  const { trace, messages } = tonstakersBurn(payoutNft());
  const details = {
    provider: 'liquid_staking',
    stake_holder: USER,
    pool: TS_POOL,
    payout_nft: NFT,
    asset: TSTON,
    // ton-index-go renames the provider before it asks for "tonstakers": never filled (kept).
    tokens_burnt: null,
  };
  const known: KnownContracts = { ...tsTonWallet, nftItems: new Map([[NFT, { index: '49', collection: COLLECTION }]]) };
  const actions = classifyTrace(trace, known).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['stake_withdrawal_request', 'nft_mint', 'contract_deploy'],
    'the NFT minted (and deployed) stays an action of its own',
  );
  const [request] = actions;
  assert.equal(request.success, true);
  assert.deepEqual(request.details, details);
  assert.equal(request.actionId, actionId(messages[0].hash, 'tonstakers_withdraw_request'));
  for (const who of [USER, USER_TSTON, TSTON, TS_POOL, COLLECTION]) assert.ok(request.accounts.includes(who), who);
  againstSpec(request);

  // The item the index did not detect: found by its init.
  const byInit = classifyTrace(trace, tsTonWallet).actions.find((a) => a.type === 'stake_withdrawal_request');
  assert.deepEqual([byInit?.success, byInit?.details], [true, details]);

  const failed = classifyTrace(tonstakersBurn(payoutNft(true)).trace, tsTonWallet).actions;
  const none = only(failed, 'stake_withdrawal_request');
  assert.equal(none.success, false, 'no payout NFT minted');
  assert.deepEqual(none.details, { ...details, payout_nft: null });
});

const PAYOUT = 85_961_295n;
const NFT_BURNT = 4_170_935n;
/** The collection burning each NFT and paying its owner, started by the pool; `refusing` items refuse the burn. */
const distribution = (refusing: string[] = []) =>
  buildTrace(TS_POOL, [
    {
      to: COLLECTION,
      body: op(0x1140a64f).endCell(),
      then: [
        [NFT, USER],
        [NFT_2, HOLDER_2],
      ].map(([nft, owner]) => ({
        to: nft,
        body: op(0xf127fe4e).endCell(),
        aborted: refusing.includes(nft),
        then: refusing.includes(nft)
          ? []
          : [
              {
                to: COLLECTION,
                body: op(0xed58b0b2).storeCoins(NFT_BURNT).storeAddress(address(owner)).endCell(),
                then: [{ to: owner, value: PAYOUT, body: op(0xdb3b8abd).endCell() }],
              },
            ],
      })),
    },
  ]);

test('Tonstakers stake_withdrawal: each payout NFT burnt and paid, the pool above; an NFT that refused pays nothing', () => {
  const { trace, messages } = distribution();
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const paid = actions.filter((a) => a.type === 'stake_withdrawal');
  assert.equal(paid.length, 2, actions.map((a) => a.type).join());
  const details = (holder: string, nft: string) => ({
    provider: 'liquid_staking',
    stake_holder: holder,
    pool: TS_POOL,
    amount: PAYOUT.toString(),
    payout_nft: nft,
    tokens_burnt: NFT_BURNT.toString(),
    asset: null,
  });
  assert.deepEqual(
    paid.map((a) => [a.success, a.details]),
    [
      [true, details(USER, NFT)],
      [true, details(HOLDER_2, NFT_2)],
    ],
  );
  const burnOf = messages.find((m) => m.destination === NFT)!;
  assert.equal(paid[0].actionId, actionId(burnOf.hash, 'tonstakers_withdraw'));
  assert.deepEqual([...paid[0].accounts].sort(), [USER, NFT, COLLECTION, TS_POOL].sort());
  assert.equal(paid[0].transactions.length, 4, 'the burn, its notification, the payout and the collection that started it');
  for (const action of paid) againstSpec(action);

  const refused = classifyTrace(distribution([NFT]).trace, NO_CONTRACTS).actions.filter((a) => a.type === 'stake_withdrawal');
  assert.deepEqual(
    refused.map((a) => a.details),
    [details(HOLDER_2, NFT_2)],
  );
});

// Nominator pools.

const pools: KnownContracts = { ...NO_CONTRACTS, nominatorPools: new Set([NOMINATOR_POOL]) };
const toPool = (comment: string, value: bigint, then: Step[] = [], aborted = false) =>
  buildTrace(USER, [{ to: NOMINATOR_POOL, value, body: commentBody(comment), aborted, then }]);
const bouncedBack = (): Step => ({ to: USER, body: bounce(), bounce: false, bounced: true });

test('nominator pool stake_deposit: "d" to a pool; bounced: failed with its bounce; not a known pool: a TON transfer', () => {
  const { trace, messages } = toPool('d', 10_000_000_000_000n);
  const deposit = only(classifyTrace(trace, pools).actions, 'stake_deposit');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    provider: 'nominator',
    stake_holder: USER,
    pool: NOMINATOR_POOL,
    amount: '10000000000000',
    tokens_minted: null,
    asset: null,
  });
  assert.equal(deposit.actionId, actionId(messages[0].hash, 'nominator_pool_deposit'));
  assert.deepEqual(deposit.accounts, [NOMINATOR_POOL, USER]);
  againstSpec(deposit);

  const bounced = classifyTrace(toPool('d', 5n, [bouncedBack()], true).trace, pools).actions;
  const failed = only(bounced, 'stake_deposit');
  assert.equal(failed.success, false);
  assert.equal(failed.transactions.length, 3, 'the request, the pool, the bounce');
  assert.deepEqual(
    bounced.map((a) => a.type),
    ['stake_deposit'],
  );

  assert.deepEqual(
    classifyTrace(trace, NO_CONTRACTS).actions.map((a) => a.type),
    ['ton_transfer'],
  );
});

test('nominator pool "w": a request registered, one paid at once, one bounced (failed)', () => {
  const registered = toPool('w', 1_000_000_000n, [{ to: USER, value: 900_000_000n }]);
  const request = only(classifyTrace(registered.trace, pools).actions, 'stake_withdrawal_request');
  assert.equal(request.success, true);
  const requestDetails = {
    provider: 'nominator',
    stake_holder: USER,
    pool: NOMINATOR_POOL,
    payout_nft: null,
    asset: null,
    tokens_burnt: null,
  };
  assert.deepEqual(request.details, requestDetails);
  assert.equal(request.actionId, actionId(registered.messages[0].hash, 'nominator_pool_withdraw_request'));
  assert.equal(request.transactions.length, 3, 'the change sent back is part of it');
  againstSpec(request);

  const immediate = toPool('w', 1_000_000_000n, [{ to: USER, value: 15_000_000_000n }]);
  const paid = only(classifyTrace(immediate.trace, pools).actions, 'stake_withdrawal');
  assert.equal(paid.success, true);
  assert.deepEqual(paid.details, {
    provider: 'nominator',
    stake_holder: USER,
    pool: NOMINATOR_POOL,
    amount: '15000000000',
    payout_nft: null,
    tokens_burnt: null,
    asset: null,
  });
  assert.equal(paid.actionId, actionId(immediate.messages[0].hash, 'nominator_pool_withdraw_request'));
  againstSpec(paid);

  // Two transfers back: the earlier is the payout.
  const two = toPool('w', 1_000_000_000n, [
    { to: USER, value: 12_000_000_000n },
    { to: USER, value: 700_000_000n },
  ]);
  assert.equal((only(classifyTrace(two.trace, pools).actions, 'stake_withdrawal').details as { amount: string }).amount, '12000000000');

  const bounced = only(classifyTrace(toPool('w', 5n, [bouncedBack()], true).trace, pools).actions, 'stake_withdrawal_request');
  assert.equal(bounced.success, false);
  assert.deepEqual(bounced.details, requestDetails);
});

test("nominator pool stake_withdrawal: the owner's process_withdraw_requests pays two nominators; not a pool: nothing", () => {
  const processed = (pool: string) =>
    buildTrace(OWNER, [
      {
        to: pool,
        body: beginCell().storeUint(2, 32).storeUint(7, 64).endCell(),
        then: [
          { to: USER, value: 20_000_000_000n },
          { to: NOMINATOR_2, value: 30_000_000_000n },
        ],
      },
    ]);
  const { trace, messages } = processed(NOMINATOR_POOL);
  const actions = classifyTrace(trace, pools).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['call_contract', true],
      ['stake_withdrawal', true],
      ['stake_withdrawal', true],
    ],
  );
  const [, first, second] = actions;
  const details = (holder: string, amount: string) => ({
    provider: 'nominator',
    stake_holder: holder,
    pool: NOMINATOR_POOL,
    amount,
    payout_nft: null,
    tokens_burnt: null,
    asset: null,
  });
  assert.deepEqual(first.details, details(USER, '20000000000'));
  assert.deepEqual(second.details, details(NOMINATOR_2, '30000000000'));
  assert.equal(first.actionId, actionId(messages[1].hash, 'nominator_pool_withdraw_request'));
  assert.deepEqual([...first.accounts].sort(), [NOMINATOR_POOL, USER].sort());
  for (const action of [first, second]) againstSpec(action);

  const elsewhere = classifyTrace(processed(account(0x5e)).trace, pools).actions;
  assert.ok(!elsewhere.some((a) => a.type.startsWith('stake_')), elsewhere.map((a) => a.type).join());
});

async function openDriver(t: TestContext, store: 'sqlite' | 'postgres'): Promise<SqlDriver | null> {
  if (store === 'sqlite') {
    const driver = SqliteDriver.open();
    t.after(() => driver.close());
    return driver;
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_staking');
  const driver = await PostgresDriver.open(POSTGRES_URL, schema);
  t.after(async () => {
    await driver.close();
    await dropSchema(schema);
  });
  return driver;
}

test('nominator pools are the accounts whose latest state has the pool code: the group first, then the store', async (t) => {
  for (const store of ['sqlite', 'postgres'] as const) {
    const driver = await openDriver(t, store);
    if (driver) await poolsLookedUp(driver, store);
  }
});

async function poolsLookedUp(driver: SqlDriver, store: string): Promise<void> {
  await migrate(driver);
  const poolCode = Buffer.from(NOMINATOR_POOL_CODE_HASH, 'base64');
  const otherCode = Buffer.alloc(32, 7);
  const state = (who: string, code: Buffer | null) => [
    who,
    Buffer.alloc(32, 1),
    'active',
    '1',
    '1',
    null,
    null,
    code,
    null,
    null,
    null,
    Buffer.alloc(32, 2),
    1n,
    null,
  ];
  const columns = ['account', 'state_hash', 'status', 'balance', 'balance_order', 'extra_currencies', 'frozen_hash', 'code_hash'];
  const latest = (rows: (string | Buffer | bigint | null)[][]) => ({
    table: 'latest_account_states',
    columns: [...columns, 'data_hash', 'code_boc', 'data_boc', 'last_trans_hash', 'last_trans_lt', 'wallet'],
    rows,
  });
  const [STORED_POOL, CHANGED_POOL, GROUP_POOL, OTHER] = [0x9101, 0x9102, 0x9103, 0x9104].map(account);
  await driver.write([latest([state(STORED_POOL, poolCode), state(CHANGED_POOL, poolCode), state(OTHER, otherCode)])]);
  const all = [STORED_POOL, CHANGED_POOL, GROUP_POOL, OTHER, USER];
  const stored = await knownContracts(driver, all);
  assert.deepEqual([...(stored.nominatorPools ?? [])].sort(), [CHANGED_POOL, STORED_POOL].sort(), store);
  // The group's newer states win: one pool's code changed, another account became one.
  const group = groupRowsOf([latest([state(CHANGED_POOL, otherCode), state(GROUP_POOL, poolCode)])], new Set());
  const withGroup = await knownContracts(driver, all, group);
  assert.deepEqual([...(withGroup.nominatorPools ?? [])].sort(), [GROUP_POOL, STORED_POOL].sort(), store);
}

// Ethena.

const USDE_IN = 2_500_300_127n;
const TSUSDE_OUT = 1_994_155_249n;
const ethenaWallets: KnownContracts = {
  ...NO_CONTRACTS,
  jettonWallets: new Map([
    [USER_USDE, { owner: USER, jetton: USDE }],
    [POOL_USDE, { owner: ETHENA_POOL, jetton: USDE }],
    [USER_TSUSDE, { owner: USER, jetton: TSUSDE }],
  ]),
};
const transfer = (amount: bigint, to: string): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(100_000_000n)
    .storeMaybeRef(null)
    .endCell();
/** mint#642b7d07 query_id to ton_amount ^internal_transfer. */
const mint = (to: string, amount: bigint): Cell =>
  op(0x642b7d07).storeAddress(address(to)).storeCoins(50_000_000n).storeRef(internalTransfer(amount, ETHENA_POOL)).endCell();
const ethenaDeposit = (minted: boolean) =>
  buildTrace(USER, [
    {
      to: USER_USDE,
      body: transfer(USDE_IN, ETHENA_POOL),
      then: [
        {
          to: POOL_USDE,
          body: internalTransfer(USDE_IN, USER),
          then: [
            {
              to: ETHENA_POOL,
              body: notify(USDE_IN, USER),
              then: minted
                ? [
                    {
                      to: TSUSDE,
                      body: mint(USER, TSUSDE_OUT),
                      then: [{ to: USER_TSUSDE, body: internalTransfer(TSUSDE_OUT, ETHENA_POOL), then: [{ to: USER, body: excess() }] }],
                    },
                  ]
                : [],
            },
          ],
        },
      ],
    },
  ]);

test('Ethena stake_deposit: USDe to the pool, tsUSDe minted; USDe sent without a mint is a jetton transfer', () => {
  const { trace, messages } = ethenaDeposit(true);
  const actions = classifyTrace(trace, ethenaWallets).actions;
  const deposit = only(actions, 'stake_deposit');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    provider: 'ethena',
    stake_holder: USER,
    pool: ETHENA_POOL,
    amount: USDE_IN.toString(),
    tokens_minted: TSUSDE_OUT.toString(),
    asset: TSUSDE,
    source_asset: USDE,
  });
  assert.equal(deposit.actionId, actionId(messages[0].hash, 'ethena_deposit'));
  for (const who of [USER, USER_USDE, POOL_USDE, ETHENA_POOL, TSUSDE, USER_TSUSDE]) assert.ok(deposit.accounts.includes(who), who);
  againstSpec(deposit);

  const unminted = classifyTrace(ethenaDeposit(false).trace, ethenaWallets).actions;
  assert.deepEqual(
    unminted.map((a) => a.type),
    ['jetton_transfer'],
  );
});

const UNSTAKED = 199_179_780n;
const LOCKED = 250_729_913n;
/** #b2583ed5: the time-locked tsUSDe back to the holder's wallet, an internal transfer's layout. */
const timelocked = (amount: bigint): Cell =>
  beginCell()
    .storeUint(0xb2583ed5, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeAddress(address(ETHENA_POOL))
    .storeAddress(address(USER))
    .storeCoins(0n)
    .storeBit(0)
    .endCell();
const ethenaUnstake = () =>
  buildTrace(USER, [
    {
      to: USER_TSUSDE,
      body: transfer(UNSTAKED, ETHENA_POOL),
      then: [
        {
          to: TSUSDE,
          body: internalTransfer(UNSTAKED, USER),
          then: [
            {
              to: ETHENA_POOL,
              body: notify(UNSTAKED, USER),
              then: [{ to: TSUSDE, body: mint(USER, LOCKED), then: [{ to: USER_TSUSDE, body: timelocked(LOCKED) }] }],
            },
          ],
        },
      ],
    },
  ]);

test("Ethena stake_withdrawal_request: tsUSDe back to its master, time-locked; a wallet not the sender's makes none", () => {
  const { trace, messages } = ethenaUnstake();
  const actions = classifyTrace(trace, ethenaWallets).actions;
  const request = only(actions, 'stake_withdrawal_request');
  assert.equal(request.success, true);
  assert.deepEqual(request.details, {
    provider: 'ethena',
    stake_holder: USER,
    pool: ETHENA_POOL,
    payout_nft: null,
    asset: TSUSDE,
    tokens_burnt: null,
    tokens_minted: LOCKED.toString(),
  });
  assert.equal(request.actionId, actionId(messages[0].hash, 'ethena_withdrawal_request'));
  assert.deepEqual([...request.accounts].sort(), [USER, USER_TSUSDE, TSUSDE, ETHENA_POOL].sort());
  assert.equal(request.transactions.length, 6);
  againstSpec(request);

  const otherOwner: KnownContracts = { ...NO_CONTRACTS, jettonWallets: new Map([[USER_TSUSDE, { owner: HOLDER_2, jetton: TSUSDE }]]) };
  const refused = classifyTrace(trace, otherOwner).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('stake_')), refused.map((a) => a.type).join());
});
