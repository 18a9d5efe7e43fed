import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dictionary } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/index/schema.js';
import { openIndex } from '../../src/index/open-index.js';
import type { TransactionRecord } from '../../src/index/read/records.js';
import { eachStore } from './support/stores.js';
import { FIRST_SEQNO, NOWHERE, story, WHOLE } from './support/sandbox-blocks.js';

const PAGE = { limit: 100, offset: 0 };
const hashes = (records: TransactionRecord[]) => records.map((r) => r.hash.toString('base64'));
const b64 = (tx: { hash(): Buffer }) => tx.hash().toString('base64');

eachStore('a block is written whole and read back: blocks, shard state, masterchain range', async (_t, { index }) => {
  const s = await story();
  assert.equal(await index.reader.lastMasterchainSeqno(), -1);
  assert.equal(await index.reader.masterchainRange(), null);
  for (const block of s.blocks) await index.writer.write(block);

  assert.equal(await index.reader.lastMasterchainSeqno(), FIRST_SEQNO + s.blocks.length - 1);
  const range = await index.reader.masterchainRange();
  assert.equal(range!.first.id.seqno, FIRST_SEQNO);
  assert.equal(range!.last.id.seqno, FIRST_SEQNO + 4);
  const { shardBlocks: _committed, ...header } = s.blocks[4].masterchain;
  assert.deepEqual(range!.last, header, 'every header field survives the round trip (shard blocks are read with shardState)');
  assert.deepEqual(
    (await index.reader.blocks({ workchain: 0, seqno: FIRST_SEQNO + 4 }, 'desc', PAGE))[0],
    s.blocks[4].shards[0],
    'shard blocks keep their master ref',
  );

  const all = await index.reader.blocks({}, 'desc', PAGE);
  assert.equal(all.length, 10, 'five masterchain + five shard blocks');
  assert.deepEqual(
    all.slice(0, 2).map((b) => [b.id.workchain, b.id.seqno]),
    [
      [-1, FIRST_SEQNO + 4],
      [0, FIRST_SEQNO + 4],
    ],
    'newest first, masterchain first',
  );
  const asc = await index.reader.blocks({}, 'asc', PAGE);
  assert.deepEqual(
    asc.slice(0, 2).map((b) => [b.id.workchain, b.id.seqno]),
    [
      [0, FIRST_SEQNO],
      [-1, FIRST_SEQNO],
    ],
    'asc mirrors desc',
  );
  assert.deepEqual(await index.reader.blocks({ workchain: 0, shard: WHOLE, seqno: FIRST_SEQNO + 1 }, 'desc', PAGE), [
    s.blocks[1].shards[0],
  ]);
  assert.equal((await index.reader.blocks({ rootHash: s.blocks[2].masterchain.id.rootHash }, 'desc', PAGE))[0].id.seqno, FIRST_SEQNO + 2);
  assert.equal((await index.reader.blocks({ fileHash: s.blocks[3].shards[0].id.fileHash }, 'desc', PAGE))[0].id.workchain, 0);
  assert.equal((await index.reader.blocks({ mcSeqno: FIRST_SEQNO + 3 }, 'desc', PAGE)).length, 2);
  assert.equal((await index.reader.blocks({}, 'desc', { limit: 3, offset: 8 })).length, 2, 'offset pages');
  const utime = s.blocks[2].masterchain.genUtime;
  assert.ok((await index.reader.blocks({ startUtime: utime, endUtime: utime }, 'desc', PAGE)).every((b) => b.genUtime === utime));
  const lt = s.blocks[3].shards[0].startLt;
  assert.ok((await index.reader.blocks({ startLt: lt }, 'asc', PAGE)).every((b) => b.startLt >= lt));
  assert.ok((await index.reader.blocks({ endLt: lt }, 'asc', PAGE)).every((b) => b.startLt <= lt));

  assert.deepEqual(
    (await index.reader.shardState(FIRST_SEQNO + 2)).map((b) => b.id),
    [s.blocks[2].shards[0].id],
  );
  assert.deepEqual(await index.reader.shardState(7), []);
  assert.equal(await index.reader.masterchainBlockExists(FIRST_SEQNO), true);
  assert.equal(await index.reader.masterchainBlockExists(FIRST_SEQNO - 1), false);
});

eachStore('transactions: every filter and both orders', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const reader = index.reader;
  const everything = await reader.transactions({}, 'desc', PAGE);
  assert.equal(everything.length, s.transactions.length);
  const lts = everything.map((r) => r.lt);
  assert.deepEqual(
    lts,
    [...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)),
    'desc by lt',
  );
  assert.deepEqual(hashes(await reader.transactions({}, 'asc', PAGE)), hashes(everything).reverse());

  const a = formatRawUpper(s.walletA);
  const ofA = await reader.transactions({ accounts: [a] }, 'desc', PAGE);
  assert.deepEqual(
    hashes(ofA),
    [s.replyReceived, s.bouncedBack, s.bounceSent, s.deployA, s.fundA].map(b64),
    'one account: its own lt order',
  );
  const twoAccounts = await reader.transactions({ accounts: [a, formatRawUpper(s.walletB)] }, 'desc', PAGE);
  assert.equal(twoAccounts.length, ofA.length + 2);
  const excluded = await reader.transactions({ excludeAccounts: [a] }, 'desc', PAGE);
  assert.equal(excluded.length, everything.length - ofA.length);
  assert.ok(excluded.every((r) => r.account !== a));

  assert.deepEqual(hashes(await reader.transactions({ hash: s.deployA.hash() }, 'desc', PAGE)), [b64(s.deployA)]);
  assert.deepEqual(hashes(await reader.transactions({ lt: s.bounce.lt }, 'desc', PAGE)), [b64(s.bounce)]);
  const window = await reader.transactions({ startLt: s.deployA.lt, endLt: s.bounce.lt }, 'asc', PAGE);
  assert.equal(window[0].lt, s.deployA.lt);
  assert.equal(window[window.length - 1].lt, s.bounce.lt);
  assert.ok(window.every((r) => r.lt >= s.deployA.lt && r.lt <= s.bounce.lt));

  const byMc = await reader.transactions({ mcSeqno: FIRST_SEQNO + 1 }, 'asc', PAGE);
  assert.deepEqual(new Set(hashes(byMc)), new Set(s.blocks[1].transactions.map((t) => b64(t.transaction))));
  assert.deepEqual(await reader.transactions({ mcSeqno: FIRST_SEQNO + 4 }, 'asc', PAGE), [], 'the empty block');
  const byBlock = await reader.transactions({ workchain: 0, shard: WHOLE, seqno: FIRST_SEQNO + 2 }, 'desc', PAGE);
  assert.deepEqual(new Set(hashes(byBlock)), new Set(s.blocks[2].transactions.map((t) => b64(t.transaction))));
  assert.equal((await reader.transactions({ workchain: -1 }, 'desc', PAGE)).length, 0, 'no masterchain transactions in the story');
  assert.equal((await reader.transactions({ seqno: FIRST_SEQNO + 3 }, 'desc', PAGE)).length, s.blocks[3].transactions.length);

  const now = s.bounce.now;
  const byTime = await reader.transactions({ startUtime: now, endUtime: now }, 'desc', PAGE);
  assert.ok(byTime.length > 0 && byTime.every((r) => JSON.parse(r.doc).now === now));

  const page1 = await reader.transactions({}, 'desc', { limit: 3, offset: 0 });
  const page2 = await reader.transactions({}, 'desc', { limit: 3, offset: 3 });
  assert.deepEqual([...hashes(page1), ...hashes(page2)], hashes(everything).slice(0, 6));
});

eachStore('messages are stored once with both ends, and transactions find each other through them', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const reader = index.reader;

  const hello = s.helloReceived.inMessage!;
  const helloHash = s.helloReceived.raw.refs[0].beginParse().loadMaybeRef()!.hash();
  const [record] = await reader.messagesByHash([helloHash]);
  assert.deepEqual(record.inTxHash, s.helloReceived.hash());
  assert.deepEqual(record.outTxHash, s.deployA.hash());
  const doc = JSON.parse(record.doc);
  assert.equal(doc.source, formatRawUpper(s.walletA));
  assert.equal(doc.destination, formatRawUpper(s.walletB));
  assert.equal(doc.value, (hello.info as { value: { coins: bigint } }).value.coins.toString());
  assert.equal(doc.message_content.decoded.comment, 'hello');
  assert.equal('in_msg_tx_hash' in doc, false, 'ends live in columns, not in the document');

  assert.deepEqual(hashes(await reader.transactionsByMessage({ msgHash: helloHash }, PAGE)), [b64(s.helloReceived), b64(s.deployA)]);
  assert.deepEqual(hashes(await reader.transactionsByMessage({ msgHash: helloHash, direction: 'in' }, PAGE)), [b64(s.helloReceived)]);
  assert.deepEqual(hashes(await reader.transactionsByMessage({ msgHash: helloHash, direction: 'out' }, PAGE)), [b64(s.deployA)]);
  assert.deepEqual(hashes(await reader.transactionsByMessage({ bodyHash: hello.body.hash(), direction: 'in' }, PAGE)), [
    b64(s.helloReceived),
  ]);
  const opcodeZero = await reader.transactionsByMessage({ opcode: 0 }, PAGE);
  assert.ok(opcodeZero.some((r) => r.hash.equals(s.helloReceived.hash())));
  assert.ok(!opcodeZero.some((r) => r.hash.equals(s.deployA.hash()) && !JSON.parse(r.doc).in_msg), 'opcode matches inbound messages');

  // The external that deployed A is found by its normalized hash too.
  const external = s.deployA.raw.refs[0].beginParse().loadMaybeRef()!;
  const [ext] = await reader.messagesByHash([external.hash()]);
  const norm = Buffer.from(JSON.parse(ext.doc).hash_norm, 'base64');
  assert.deepEqual(hashes(await reader.transactionsByMessage({ msgHash: norm }, PAGE)), [b64(s.deployA)]);
  assert.equal(ext.outTxHash, null);

  assert.deepEqual(
    hashes(await reader.adjacentTransactions(s.deployA.hash(), 'out')),
    [b64(s.helloReceived), b64(s.treasuryReceived)],
    'children, oldest first',
  );
  assert.deepEqual(hashes(await reader.adjacentTransactions(s.helloReceived.hash(), 'in')), [b64(s.deployA)], 'the parent');
  assert.deepEqual(hashes(await reader.adjacentTransactions(s.bounce.hash())), [b64(s.bounceSent), b64(s.bouncedBack)], 'both sides');
  assert.deepEqual(await reader.adjacentTransactions(s.deployA.hash(), 'in'), [], 'an external has no parent');
  assert.deepEqual(await reader.adjacentTransactions(Buffer.alloc(32, 1)), [], 'unknown transaction');
});

eachStore('messages: every filter, externals, direction and order', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const reader = index.reader;
  const all = await reader.messages({}, 'desc', PAGE);
  const docs = all.map((m) => JSON.parse(m.doc));
  // Every message of every transaction, each once: 4 externals + 5 internals (A's fund, hello, to
  // treasury, bounce me, bounced, reply).
  const expected = new Set<string>();
  for (const block of s.blocks) {
    for (const { transaction } of block.transactions) {
      const cs = transaction.raw.refs[0].beginParse();
      const inMsg = cs.loadMaybeRef();
      if (inMsg) expected.add(inMsg.hash().toString('base64'));
      for (const out of cs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).values())
        expected.add(out.hash().toString('base64'));
    }
  }
  assert.deepEqual(new Set(docs.map((d) => d.hash)), expected);
  assert.equal(all.length, expected.size, 'no message twice');
  const externals = docs.filter((d) => d.source === null);
  assert.equal(externals.length, 4, 'treasury, deploy, bounce transfer, reply');
  const sortLts = docs.map((d) => BigInt(d.created_lt ?? '0'));
  assert.ok(sortLts.length > 0);
  const ascending = await reader.messages({}, 'asc', PAGE);
  assert.deepEqual(
    ascending.map((m) => m.hash.toString('base64')),
    all.map((m) => m.hash.toString('base64')).reverse(),
  );

  const a = formatRawUpper(s.walletA);
  const fromA = (await reader.messages({ source: a }, 'desc', PAGE)).map((m) => JSON.parse(m.doc));
  assert.deepEqual(
    fromA.map((d) => d.message_content.decoded?.comment),
    ['bounce me', 'to treasury', 'hello'],
    'sent by A, newest first',
  );
  const toA = (await reader.messages({ destination: a }, 'desc', PAGE)).map((m) => JSON.parse(m.doc));
  assert.equal(toA.length, 5, 'fund, deploy external, bounce external, bounced, reply');
  assert.ok(toA.every((d) => d.destination === a));
  const externalIn = (await reader.messages({ source: null }, 'desc', PAGE)).map((m) => JSON.parse(m.doc));
  assert.deepEqual(externalIn.map((d) => d.hash).sort(), externals.map((d) => d.hash).sort());
  assert.deepEqual((await reader.messages({ onlyExternals: true }, 'desc', PAGE)).length, externals.length);
  assert.ok((await reader.messages({ excludeExternals: true }, 'desc', PAGE)).every((m) => JSON.parse(m.doc).source !== null));
  assert.deepEqual((await reader.messages({ destination: null }, 'desc', PAGE)).length, 0, 'no external-out messages in the story');

  const bodyHash = s.helloReceived.inMessage!.body.hash();
  assert.deepEqual(
    (await reader.messages({ bodyHash }, 'desc', PAGE)).map((m) => JSON.parse(m.doc).message_content.decoded.comment),
    ['hello'],
  );
  const comments = (await reader.messages({ opcode: 0 }, 'desc', PAGE)).map((m) => JSON.parse(m.doc));
  assert.deepEqual(
    comments.map((d) => d.message_content.decoded.comment),
    ['reply', 'bounce me', 'to treasury', 'hello'],
  );
  assert.ok(comments.every((d) => d.opcode === '0x00000000'));
  const bounced = (await reader.messages({ opcode: 0xffffffff }, 'desc', PAGE)).map((m) => JSON.parse(m.doc));
  assert.equal(bounced.length, 1);
  assert.equal(bounced[0].bounced, true);
  assert.equal(bounced[0].source, formatRawUpper(NOWHERE));

  const inbound = await reader.messages({ direction: 'in' }, 'desc', PAGE);
  assert.ok(inbound.every((m) => m.inTxHash !== null));
  const outbound = await reader.messages({ direction: 'out' }, 'desc', PAGE);
  assert.ok(outbound.every((m) => m.outTxHash !== null) && outbound.length > 0);

  const created = s.helloReceived.inMessage!.info as { createdLt: bigint; createdAt: number };
  const ltWindow = (await reader.messages({ startLt: created.createdLt, endLt: created.createdLt }, 'desc', PAGE)).map((m) =>
    JSON.parse(m.doc),
  );
  assert.ok(ltWindow.some((d) => d.hash === docs.find((x) => x.message_content.decoded?.comment === 'hello').hash));
  assert.ok(ltWindow.every((d) => d.created_lt === created.createdLt.toString()));
  const timeWindow = (await reader.messages({ startUtime: created.createdAt, endUtime: created.createdAt }, 'desc', PAGE)).map((m) =>
    JSON.parse(m.doc),
  );
  assert.ok(timeWindow.length > 0 && timeWindow.every((d) => d.created_at === String(created.createdAt)));

  const hello = docs.find((d) => d.message_content.decoded?.comment === 'hello');
  assert.deepEqual((await reader.messages({ msgHashes: [Buffer.from(hello.hash, 'base64')] }, 'desc', PAGE)).length, 1);
  const page = await reader.messages({}, 'desc', { limit: 2, offset: 1 });
  assert.deepEqual(
    page.map((m) => m.hash),
    all.slice(1, 3).map((m) => m.hash),
  );
});

eachStore('account states: every state by hash, the latest per account, top balances, wallets', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const reader = index.reader;
  const a = formatRawUpper(s.walletA);

  const [latest] = await reader.latestStates([a], true);
  assert.equal(latest.status, 'active');
  assert.deepEqual(latest.lastTransHash, s.replyReceived.hash());
  assert.equal(latest.lastTransLt, s.replyReceived.lt);
  assert.deepEqual(latest.stateHash, s.replyReceived.stateUpdate.newHash, 'the state a transaction ends in');
  assert.equal(latest.wallet?.walletType, 'wallet v4 r2');
  assert.equal(latest.wallet?.seqno, 2);
  assert.ok(latest.codeBoc && latest.dataBoc);
  const [brief] = await reader.latestStates([a], false);
  assert.equal(brief.codeBoc, null, 'no BoCs when not asked');
  assert.deepEqual(await reader.latestStates(['0:' + '00'.repeat(32)], true), [], 'unknown accounts are left out');
  const [nowhere] = await reader.latestStates([formatRawUpper(NOWHERE)], true);
  assert.equal(nowhere.status, 'nonexist', 'the bounce left no account behind');
  assert.equal(nowhere.balance, '0');

  const docs = await reader.accountStateDocs([s.deployA.stateUpdate.newHash, s.fundA.stateUpdate.oldHash, Buffer.alloc(32)]);
  assert.equal(docs.size, 1, 'only the states that ended a block are kept when the producer gives no per-transaction states');
  const afterDeploy = JSON.parse(docs.get(s.deployA.stateUpdate.newHash.toString('base64'))!);
  assert.equal(afterDeploy.account_status, 'active');
  assert.equal(afterDeploy.hash, s.deployA.stateUpdate.newHash.toString('base64'));

  const top = await reader.topAccountsByBalance({ limit: 10, offset: 0 });
  const balances = top.map((r) => BigInt(r.balance));
  assert.deepEqual(
    balances,
    [...balances].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)),
    'richest first',
  );
  assert.equal(top[0].account, formatRawUpper(s.treasury));
  assert.equal((await reader.topAccountsByBalance({ limit: 1, offset: 1 }))[0].account, top[1].account);
});

eachStore('writing a block twice changes nothing (the catch-up may overlap the live feed)', async (_t, { index }) => {
  const s = await story();
  for (const block of s.blocks) await index.writer.write(block);
  const before = await index.reader.transactions({}, 'desc', PAGE);
  const messagesBefore = await index.reader.messages({}, 'desc', PAGE);
  for (const block of s.blocks.slice(1, 3)) await index.writer.write(block);
  assert.deepEqual(await index.reader.transactions({}, 'desc', PAGE), before);
  assert.deepEqual(await index.reader.messages({}, 'desc', PAGE), messagesBefore);
  assert.equal((await index.reader.blocks({}, 'desc', PAGE)).length, 10);
});

eachStore('a message seen first as sent, then as received in a later block, gets both ends', async (_t, { index }) => {
  const s = await story();
  // Split block 2 (deploy + deliveries) in two: the deploy first, the deliveries later.
  const [fund, deploy] = s.blocks;
  await index.writer.write(fund);
  const sender = deploy.transactions.filter((t) => t.transaction === s.deployA);
  const receivers = deploy.transactions.filter((t) => t.transaction !== s.deployA);
  await index.writer.write({ ...deploy, transactions: sender, accounts: [] });
  const helloHash = s.helloReceived.raw.refs[0].beginParse().loadMaybeRef()!.hash();
  assert.equal((await index.reader.messagesByHash([helloHash]))[0].inTxHash, null);
  const later = {
    ...deploy,
    masterchain: { ...deploy.masterchain, id: { ...deploy.masterchain.id, seqno: deploy.masterchain.id.seqno + 50 } },
    shards: [],
    transactions: receivers,
  };
  await index.writer.write(later);
  const [record] = await index.reader.messagesByHash([helloHash]);
  assert.deepEqual(record.inTxHash, s.helloReceived.hash());
  assert.deepEqual(record.outTxHash, s.deployA.hash());
});

test('migrations: recorded once, reopening is a no-op, a newer schema is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-index-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = await openIndex({ network: 'mainnet', dataDir: dir });
  await first.writer.write((await story()).blocks[0]);
  await first.close();
  const again = await openIndex({ network: 'mainnet', dataDir: dir });
  assert.equal(await again.reader.lastMasterchainSeqno(), FIRST_SEQNO, 'data survives a reopen');
  await again.close();

  const Database = (await import('better-sqlite3')).default;
  const db = new Database(join(dir, 'mainnet', 'index.sqlite'));
  assert.deepEqual(
    db.prepare('SELECT version FROM index_migrations ORDER BY version').all(),
    MIGRATIONS.map((m) => ({ version: m.version })),
  );
  db.prepare('INSERT INTO index_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'from the future', 0);
  db.close();
  await assert.rejects(openIndex({ network: 'mainnet', dataDir: dir }), /newer tongate/);
});

const CONSENSUS = {
  flags: 1,
  afterMerge: false,
  afterSplit: true,
  beforeSplit: false,
  wantMerge: true,
  wantSplit: false,
  validatorListHashShort: 0xdeadbeef,
  catchainSeqno: 7,
  vertSeqno: 1,
  vertSeqnoIncr: false,
  createdBy: Buffer.alloc(32, 9),
};

eachStore(
  "a validator network's header fields (consensus) are kept with the block; a local chain's block has none",
  async (_t, { index }) => {
    const [first] = (await story()).blocks;
    const block = { ...first, masterchain: { ...first.masterchain, consensus: CONSENSUS } };
    await index.writer.write(block);
    const [mc] = await index.reader.blocks({ workchain: -1, seqno: FIRST_SEQNO }, 'desc', PAGE);
    assert.deepEqual(mc.consensus, CONSENSUS);
    const [shard] = await index.reader.blocks({ workchain: 0, seqno: FIRST_SEQNO }, 'desc', PAGE);
    assert.equal(shard.consensus, undefined);
  },
);

test('an index of schema version 1 (before the consensus column) is migrated: its blocks stay, new ones keep their header fields', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-index-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const s = await story();
  // An index as tongate wrote it before migration 2: the schema of version 1 only, with a block in it.
  const Database = (await import('better-sqlite3')).default;
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(dir, 'mainnet'), { recursive: true });
  const db = new Database(join(dir, 'mainnet', 'index.sqlite'));
  db.exec('CREATE TABLE index_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  for (const statement of MIGRATIONS[0].statements('sqlite')) db.exec(statement);
  db.prepare('INSERT INTO index_migrations VALUES (1, ?, 0)').run(MIGRATIONS[0].name);
  const hash = Buffer.alloc(32, 1);
  db.prepare(
    `INSERT INTO blocks (workchain, shard, seqno, root_hash, file_hash, mc_seqno, global_id, version, key_block, gen_utime, start_lt, end_lt,
      min_ref_mc_seqno, prev_key_block_seqno, master_ref_seqno, rand_seed, state_root_hash, tx_count, prev_blocks)
     VALUES (-1, -9223372036854775808, 1, ?, ?, 1, -239, 0, 0, 1000, 1, 2, 0, 0, NULL, ?, ?, 0, '[]')`,
  ).run(hash, hash, hash, hash);
  db.close();
  const old = await openIndex({ network: 'mainnet', dataDir: dir });
  const [kept] = await old.reader.blocks({ workchain: -1, seqno: 1 }, 'desc', PAGE);
  assert.deepEqual(
    [kept.id.seqno, kept.id.rootHash, kept.genUtime, kept.consensus],
    [1, Buffer.alloc(32, 1), 1000, undefined],
    'the block written before stays',
  );
  await old.writer.write(s.blocks[0]);
  await old.writer.write({ ...s.blocks[1], masterchain: { ...s.blocks[1].masterchain, consensus: CONSENSUS } });
  assert.equal(await old.reader.lastMasterchainSeqno(), FIRST_SEQNO + 1);
  const [before] = await old.reader.blocks({ workchain: -1, seqno: FIRST_SEQNO }, 'desc', PAGE);
  assert.equal(before.consensus, undefined);
  const [after] = await old.reader.blocks({ workchain: -1, seqno: FIRST_SEQNO + 1 }, 'desc', PAGE);
  assert.deepEqual(after.consensus, CONSENSUS);
  await old.close();
});
