/**
 * Detections the chain did not answer are asked again at later blocks (src/index/tokens/detection-retry.ts): the
 * back-off and its bound on their own, then a real multisig (tongate's own contract) on a local chain whose first
 * get_multisig_data times out, detected by the retry at a later group's block (a late find: the traces classified
 * without it are classified again); a "not this kind" answer is not retried, and a retry that finds nothing is no late
 * find; a newer state met while a retry waits is detected instead, a late find from the failed block.
 * A domain item (tongate's own DNS contracts) whose first get_domain times out keeps its NFT row and gets its DNS
 * entry from the retry. The retries and the accounts given up are kept in the store (token_detection_failures) and read
 * back as they were; a group whose write failed has them read back as the store holds them, and so does a snapshot
 * restore (the writer forgets the failures of the blocks after it; a restore to before the first block, all).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, beginCell, contractAddress, Dictionary, toNano } from '@ton/core';
import { offchainContent } from '../../src/contracts/content.js';
import { dnsItemAddress, dnsRootInit, DNS_CATEGORY, domainIndex, walletRecord } from '../../src/contracts/dns/dns.js';
import { multisigData } from '../../src/contracts/multisig/multisig.js';
import type { InsertBatch, SqlDriver, SqlReads } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import type { Index } from '../../src/index/open-index.js';
import type { BlockCommitter } from '../../src/index/block-committer.js';
import type { TokenAccountCandidate } from '../../src/index/tokens/block-tokens.js';
import { DetectionRetries, RETRY_DELAYS } from '../../src/index/tokens/detection-retry.js';
import { TokenDetector } from '../../src/index/tokens/detector.js';
import { directGetMethods, type GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import { tokenMethods } from '../../src/index/tokens/method-ids.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, testWallet } from '../chain/local/support/local-chain.js';
import { dnsCode, multisigCode } from '../contracts/support/code.js';
import { eachStore, openStore } from './support/stores.js';
import { attachIndexToChain } from '../../src/index/attach.js';
import { FIRST_SEQNO, story } from './support/sandbox-blocks.js';

const candidate = (account: string): TokenAccountCandidate => ({
  account,
  codeHash: Buffer.alloc(32, 1),
  dataHash: Buffer.alloc(32, 2),
  lastTxLt: 5n,
  methods: ['get_multisig_data'],
});

test('retries: due after 1, 2, 4 blocks; given up after three; replaced by a newer state; each account once', () => {
  const retries = new DetectionRetries();
  assert.deepEqual(RETRY_DELAYS, [1, 2, 4]);
  const first = { candidate: candidate('0:A'), seqno: 10, failures: 0, since: 10 };
  retries.failed(first, 10);
  assert.deepEqual(retries.due(10, new Set()), [], 'not at the block it failed in');
  let due = retries.due(11, new Set());
  assert.deepEqual(due, [{ ...first, failures: 1 }], 'one block later, at its own seqno');
  retries.failed(due[0], 11);
  assert.deepEqual(retries.due(12, new Set()), [], 'back-off: two blocks now');
  due = retries.due(13, new Set());
  assert.equal(due[0].failures, 2);
  retries.failed(due[0], 13);
  assert.deepEqual(retries.due(16, new Set()), []);
  due = retries.due(17, new Set());
  assert.equal(due[0].failures, 3);
  retries.failed(due[0], 17);
  assert.equal(retries.size, 0, 'given up after the third retry');
  assert.deepEqual(retries.due(100, new Set()), [], 'never due again');
  assert.deepEqual([...retries.failedAt(new Set(['0:A', '0:Z']))], [['0:A', 10]], 'remembered by its failed block');
  assert.deepEqual(retries.due(101, new Set(['0:A'])), []);
  assert.deepEqual([...retries.failedAt(new Set(['0:A']))], [], 'forgotten once met again (its newer state is detected)');

  retries.failed({ candidate: candidate('0:B'), seqno: 20, failures: 0, since: 20 }, 20);
  retries.failed({ candidate: candidate('0:B'), seqno: 21, failures: 0, since: 20 }, 21);
  assert.equal(retries.size, 1, 'an account waits once, at its newest state');
  assert.deepEqual(
    retries.due(30, new Set()).map((r) => [r.seqno, r.since]),
    [[21, 20]],
    'asked at its newest state, found late from its first failed one',
  );
  retries.failed({ candidate: candidate('0:C'), seqno: 20, failures: 0, since: 20 }, 20);
  assert.deepEqual(retries.due(30, new Set(['0:C'])), [], 'a newer state met in the group replaces the retry');
  assert.equal(retries.size, 0);
});

test('a multisig whose first detection timed out is detected at a later block; a "not this kind" answer is not retried', async (t) => {
  const { chain } = await openChain(t);
  const code = (await multisigCode()).wallet;
  const signers = [testWallet(1), testWallet(2)].map((w) => w.wallet.address);
  const data = multisigData({ threshold: 2, signers, proposers: [] });
  const address = contractAddress(0, { code, data });
  const { seqno } = await chain.setAccount(address, { balance: toNano(1), code, data });
  const raw = formatRawUpper(address);
  const direct = directGetMethods((a: Address, method, stack, mcSeqno) => chain.runGetMethod(a, method, stack, mcSeqno));
  let timeouts = 1;
  const asked: string[] = [];
  const runner: GetMethodRunner = {
    async run(account, method, stack, mcSeqno) {
      asked.push(`${method}@${mcSeqno}`);
      if (method === 'get_multisig_data' && timeouts-- > 0)
        throw new Error(`${method} on ${account}: no answer from the chain within 10000 ms`);
      return direct.run(account, method, stack, mcSeqno);
    },
  };
  const reads = { all: async () => [] } as unknown as SqlReads;
  const detector = new TokenDetector(reads, runner);
  const methods = tokenMethods(code);
  assert.ok(methods.includes('get_multisig_data'));
  const found: TokenAccountCandidate = { account: raw, codeHash: code.hash(), dataHash: data.hash(), lastTxLt: 1n, methods };

  const firstGroup = await detector.rows([{ seqno, accounts: [found], events: [] }], () => null);
  assert.equal(
    firstGroup.find((b) => b.table === 'multisig_wallets'),
    undefined,
    'timed out: not detected in its block',
  );
  assert.equal(detector.retries.size, 1);

  const later = await detector.detectGroup([{ seqno: seqno + 1, accounts: [], events: [] }], () => null);
  const laterGroup = later.batches;
  assert.deepEqual(
    later.lateFinds,
    [{ account: raw, since: seqno }],
    'a late find, from the failed block (the actions are classified again)',
  );
  const wallets = laterGroup.find((b) => b.table === 'multisig_wallets');
  assert.ok(wallets, 'detected by the retry');
  assert.deepEqual(
    wallets.rows.map((r) => [r[wallets.columns.indexOf('address')], r[wallets.columns.indexOf('threshold')]]),
    [[raw, 2]],
  );
  assert.deepEqual(
    asked.filter((a) => a.startsWith('get_multisig_data')),
    [`get_multisig_data@${seqno}`, `get_multisig_data@${seqno}`],
    'asked again at its own block',
  );
  assert.equal(detector.retries.size, 0);

  // The same contract asked as a vesting wallet answers "not this" (no such get-method): remembered, not retried.
  const notVesting = { ...found, methods: ['get_vesting_data' as const] };
  const group = await detector.rows([{ seqno, accounts: [notVesting], events: [] }], () => null);
  assert.equal(
    group.find((b) => b.table === 'vesting_contracts'),
    undefined,
  );
  assert.equal(detector.retries.size, 0, 'a wrong answer is not a failure');

  // A retry whose answer is "not this kind" finds nothing: no late find.
  let vestingDown = true;
  const flaky: GetMethodRunner = {
    async run(account, method, stack, mcSeqno) {
      if (method === 'get_vesting_data' && vestingDown) {
        vestingDown = false;
        throw new Error(`${method} on ${account}: no answer from the chain within 10000 ms`);
      }
      return direct.run(account, method, stack, mcSeqno);
    },
  };
  const nothing = new TokenDetector(reads, flaky);
  assert.deepEqual((await nothing.detectGroup([{ seqno, accounts: [notVesting], events: [] }], () => null)).lateFinds, []);
  assert.equal(nothing.retries.size, 1);
  const retriedNothing = await nothing.detectGroup([{ seqno: seqno + 1, accounts: [], events: [] }], () => null);
  assert.deepEqual(retriedNothing.lateFinds, [], 'a retry that finds no contract is no late find');
  assert.equal(nothing.retries.size, 0);

  // A newer state met while the retry waits is detected instead, and is the late find (from the failed block).
  timeouts = 1;
  const replaced = new TokenDetector(reads, runner);
  await replaced.detectGroup([{ seqno, accounts: [found], events: [] }], () => null);
  assert.equal(replaced.retries.size, 1);
  // (Asked at the same seqno: the chain has no later block, and the rule goes by account, not by block.)
  const newer = await replaced.detectGroup([{ seqno, accounts: [{ ...found, lastTxLt: 2n }], events: [] }], () => null);
  assert.ok(
    newer.batches.find((b) => b.table === 'multisig_wallets'),
    'detected at the newer state',
  );
  assert.deepEqual(newer.lateFinds, [{ account: raw, since: seqno }]);
  assert.equal(replaced.retries.size, 0);
});

test('a domain item whose first get_domain timed out keeps its NFT row and gets its DNS entry from the retry', async (t) => {
  const { chain } = await openChain(t);
  const code = await dnsCode();
  const owner = testWallet(3).wallet.address;
  const rootInit = dnsRootInit(code.root, { owner, content: offchainContent('https://dns.example/root.json'), itemCode: code.item });
  const root = contractAddress(0, rootInit);
  await chain.setAccount(root, { balance: toNano(1), code: code.root, data: rootInit.data! });
  // The item as deploy_domain leaves it (item.fc.ts: index, collection, owner, ^domain, records), with a wallet record.
  const records = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  records.set(DNS_CATEGORY.wallet, walletRecord(owner));
  const data = beginCell()
    .storeUint(domainIndex('alice'), 256)
    .storeAddress(root)
    .storeAddress(owner)
    .storeRef(beginCell().storeBuffer(Buffer.from('alice')).endCell())
    .storeDict(records)
    .endCell();
  const address = dnsItemAddress(root, code.item, 'alice');
  const { seqno } = await chain.setAccount(address, { balance: toNano(1), code: code.item, data });
  const raw = formatRawUpper(address);
  const direct = directGetMethods((a: Address, method, stack, mcSeqno) => chain.runGetMethod(a, method, stack, mcSeqno));
  let timeouts = 1;
  const asked: string[] = [];
  const runner: GetMethodRunner = {
    async run(account, method, stack, mcSeqno) {
      asked.push(`${method}@${mcSeqno}`);
      if (method === 'get_domain' && timeouts-- > 0) throw new Error(`${method} on ${account}: no answer from the chain within 10000 ms`);
      return direct.run(account, method, stack, mcSeqno);
    },
  };
  const detector = new TokenDetector({ all: async () => [] } as unknown as SqlReads, runner, [formatRawUpper(root)]);
  const methods = tokenMethods(code.item);
  assert.ok(methods.includes('get_nft_data'));
  const found: TokenAccountCandidate = { account: raw, codeHash: code.item.hash(), dataHash: data.hash(), lastTxLt: 1n, methods };
  const column = (batch: InsertBatch, name: string) => batch.rows.map((r) => r[batch.columns.indexOf(name)]);

  const firstGroup = await detector.rows([{ seqno, accounts: [found], events: [] }], () => null);
  const items = firstGroup.find((b) => b.table === 'nft_items');
  assert.ok(items, 'the NFT row is kept');
  assert.deepEqual(column(items, 'address'), [raw]);
  assert.equal(
    firstGroup.find((b) => b.table === 'dns_entries'),
    undefined,
    'timed out: no DNS entry in its block',
  );
  assert.equal(detector.retries.size, 1, 'the item waits for a retry');

  const laterGroup = await detector.rows([{ seqno: seqno + 1, accounts: [], events: [] }], () => null);
  const entries = laterGroup.find((b) => b.table === 'dns_entries');
  assert.ok(entries, 'the DNS entry comes with the retry');
  assert.deepEqual(column(entries, 'nft_item_address'), [raw]);
  assert.deepEqual(column(entries, 'domain'), ['alice.ton']);
  assert.deepEqual(column(entries, 'dns_wallet'), [formatRawUpper(owner)]);
  const again = laterGroup.find((b) => b.table === 'nft_items');
  assert.ok(again, 'the item is written again, now with its domain');
  assert.equal(JSON.parse(column(again, 'content')[0] as string).domain, 'alice.ton');
  assert.deepEqual(
    asked.filter((a) => a.startsWith('get_domain')),
    [`get_domain@${seqno}`, `get_domain@${seqno}`],
    'asked again at its own block',
  );
  assert.equal(detector.retries.size, 0);
});

/** A second connection to the index's store, to write what a group writes, as the block committer does. */
async function driverOf(t: TestContext, index: Index): Promise<SqlDriver> {
  const location = index.location;
  const driver =
    location.kind === 'sqlite' ? SqliteDriver.open(location.file) : await PostgresDriver.open(location.databaseUrl, location.schema);
  t.after(() => driver.close());
  return driver;
}

eachStore('retries and accounts given up are kept in the store and read back as they were', async (t, { index }) => {
  const driver = await driverOf(t, index);
  const write = async (retries: DetectionRetries) => {
    const changes = retries.changes();
    await driver.write(changes.batches, changes.before);
  };
  const loaded = async () => {
    const retries = new DetectionRetries();
    await retries.load(driver);
    return retries;
  };
  const library = { ...candidate('0:L'), lastTxLt: 2n ** 63n - 1n, libraryHash: 'AB'.repeat(32), methods: ['get_vesting_data' as const] };

  const first = await loaded();
  first.failed({ candidate: candidate('0:A'), seqno: 10, failures: 0, since: 10 }, 10);
  first.failed({ candidate: library, seqno: 12, failures: 1, since: 11 }, 12);
  first.failed({ candidate: candidate('0:G'), seqno: 13, failures: RETRY_DELAYS.length, since: 9 }, 13);
  await write(first);
  assert.deepEqual(first.changes(), { batches: [], before: [] }, 'nothing changed since');

  const second = await loaded();
  assert.equal(second.size, 2);
  assert.deepEqual(
    [...second.failedAt(new Set(['0:A', '0:L', '0:G', '0:Z']))],
    [
      ['0:A', 10],
      ['0:L', 11],
      ['0:G', 9],
    ],
  );
  assert.deepEqual(second.due(10, new Set()), [], 'not due before its block');
  assert.deepEqual(second.due(11, new Set()), [{ candidate: candidate('0:A'), seqno: 10, failures: 1, since: 10 }], 'due as it was');
  assert.deepEqual(second.due(14, new Set()), [{ candidate: library, seqno: 12, failures: 2, since: 11 }], 'the whole candidate back');
  // A's retry succeeded (it stays out); L failed again; G met again (its newer state detected).
  second.failed({ candidate: library, seqno: 12, failures: 2, since: 11 }, 14);
  second.due(14, new Set(['0:G']));
  await write(second);

  const third = await loaded();
  assert.deepEqual([...third.failedAt(new Set(['0:A', '0:L', '0:G']))], [['0:L', 11]], 'what is left: L, after its second failure');
  assert.deepEqual(third.due(17, new Set()), [], 'back-off kept: due four blocks after');
  // A group whose write failed: forgotten, read back as the store has it.
  const taken = third.due(18, new Set());
  assert.equal(taken[0].failures, 3);
  third.failed({ candidate: candidate('0:B'), seqno: 18, failures: 0, since: 18 }, 18);
  third.changes();
  third.forget();
  await third.load(driver);
  assert.deepEqual([...third.failedAt(new Set(['0:L', '0:B']))], [['0:L', 11]], 'as the store has it');
  assert.equal(third.due(18, new Set()).length, 1, 'the retry the failed group took is due again');
});

eachStore('a snapshot restore has the writer read its failed detections back: those of later blocks are gone', async (t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  assert.ok(s.blocks.length > 2, 'blocks after the restored one');
  const driver = await driverOf(t, index);
  // The failed detections the writer's committer holds (its detector's), as a group leaves them: memory and store alike.
  const retries = (index.writer as unknown as { committer: BlockCommitter }).committer.tokenDetector.retries;
  await retries.load(driver);
  const [restored, later] = [FIRST_SEQNO + 1, FIRST_SEQNO + 2];
  retries.failed({ candidate: candidate('0:A'), seqno: FIRST_SEQNO, failures: 0, since: FIRST_SEQNO }, FIRST_SEQNO);
  retries.failed({ candidate: candidate('0:B'), seqno: later, failures: 0, since: later }, later);
  retries.failed({ candidate: candidate('0:G'), seqno: later, failures: RETRY_DELAYS.length, since: FIRST_SEQNO }, later);
  const changes = retries.changes();
  await driver.write(changes.batches, changes.before);
  const accounts = new Set(['0:A', '0:B', '0:G']);

  await index.rewind({ seqno: restored, accounts: [] });
  // What the committer does before its next group.
  await retries.load(driver);
  assert.deepEqual([...retries.failedAt(accounts)], [['0:A', FIRST_SEQNO]], 'the failures of blocks after the restore are forgotten');
  assert.equal(retries.size, 1, 'only the retry of a block that still exists waits');

  await index.rewind({ seqno: -1, accounts: [] });
  await retries.load(driver);
  assert.deepEqual([...retries.failedAt(accounts)], [], 'a restore to before the first block: nothing held');
  assert.equal(retries.size, 0);
});

for (const store of ['sqlite', 'postgres'] as const)
  test(`a snapshot restore has the store thread drop the retries of blocks after it; one of a block before still runs [${store}]`, async (t) => {
    const { chain } = await openChain(t, { blockIntervalMs: 0 });
    await chain.produceBlock();
    const saved = await chain.saveSnapshot('s');
    await chain.produceBlock();
    await chain.produceBlock();
    const last = chain.masterchainInfo().last.id.seqno;
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    // Two detections that failed before this start, kept in the store and due three blocks past the chain's head:
    // KEPT's of the snapshot's block, DROPPED's of a block the restore takes away.
    const [KEPT, DROPPED] = [`0:${'1A'.repeat(32)}`, `0:${'1B'.repeat(32)}`];
    const failure = (account: string, seqno: number, noted: number) =>
      `INSERT INTO token_detection_failures (account, since, seqno, failures, due_at, candidate, noted) VALUES ('${account}', ` +
      `${seqno}, ${seqno}, 1, ${last + 3}, '${JSON.stringify({ codeHash: '01'.repeat(32), dataHash: '02'.repeat(32), lastTxLt: '5', methods: ['get_multisig_data'] })}', ${noted})`;
    const driver = await driverOf(t, index);
    await driver.write([], [failure(KEPT, saved.seqno, 1), failure(DROPPED, last, 2)], []);
    // The accounts the store thread asks the chain about (its get-methods are relayed through this thread).
    const asked: string[] = [];
    const run = chain.runGetMethod.bind(chain);
    chain.runGetMethod = (address, ...rest) => {
      asked.push(formatRawUpper(address));
      return run(address, ...rest);
    };
    const attachment = await attachIndexToChain(index, chain);
    t.after(() => attachment.detach());
    await attachment.synced();
    assert.equal(asked.length, 0, 'read back by the store thread, not due yet');

    await chain.restoreSnapshot('s');
    while (chain.masterchainInfo().last.id.seqno < last + 3) await chain.produceBlock();
    await attachment.synced();
    assert.ok(asked.includes(KEPT), 'the retry of a block the restore kept runs when due');
    assert.ok(!asked.includes(DROPPED), 'the retry of a dropped block does not');
  });
