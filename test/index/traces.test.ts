/**
 * Traces in the index, on both stores, from the sandbox story's real transactions: one trace per
 * external message with the right members, counters and state; a trace whose messages land in a later
 * block stays `pending`, keeps its id across the store being closed and opened again, and completes;
 * an index written before traces existed gets the same traces from the back-fill at open.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlockchainTransaction } from '@ton/sandbox';
import { blockRows, CodeBocCache } from '../../src/index/block-rows.js';
import { openIndex, type Index, type IndexOptions } from '../../src/index/open-index.js';
import { MIGRATIONS, migrate } from '../../src/index/schema.js';
import type { SqlDriver } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import type { TraceRow } from '../../src/index/traces/trace-row.js';
import { TRACES_MIGRATION } from '../../src/index/traces/schema.js';
import { ACCOUNT_TRACE_INDEX_MIGRATION } from '../../src/index/traces/account-index-migration.js';
import type { IndexedBlock } from '../../src/index/types.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { FIRST_SEQNO, story, type Story } from './support/sandbox-blocks.js';

const PAGE = { limit: 100, offset: 0 };
const b64 = (tx: { hash(): Buffer }) => tx.hash().toString('base64');

interface Place {
  options: IndexOptions;
  /** A driver on the same store, for writing what an earlier tongate wrote. */
  driver(): Promise<SqlDriver>;
}

/** A store that survives being closed: a SQLite file in a directory of its own, or a PostgreSQL schema. Null: skipped. */
async function place(t: TestContext, store: 'sqlite' | 'postgres'): Promise<Place | null> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tongate-traces-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return { options: { network: 'testnet', dataDir: dir }, driver: async () => SqliteDriver.open(join(dir, 'testnet', 'index.sqlite')) };
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_traces');
  t.after(() => dropSchema(schema));
  return { options: { network: 'testnet', databaseUrl: POSTGRES_URL, schema }, driver: () => PostgresDriver.open(POSTGRES_URL, schema) };
}

async function open(t: TestContext, where: Place): Promise<Index> {
  const index = await openIndex(where.options);
  t.after(() => index.close());
  return index;
}

function only(rows: TraceRow[]): TraceRow {
  assert.equal(rows.length, 1, 'exactly one trace');
  return rows[0];
}

/** The story's block of `step` with only the transactions `keep` selects, as masterchain block `seqno`. */
function cut(s: Story, step: number, seqno: number, keep: (tx: BlockchainTransaction) => boolean, from = step): IndexedBlock {
  const source = s.blocks[from];
  const header = s.blocks[step];
  const renumber = <T extends { id: { seqno: number } }>(b: T): T => ({ ...b, id: { ...b.id, seqno } });
  return {
    masterchain: { ...renumber(header.masterchain), shardBlocks: header.masterchain.shardBlocks?.map((id) => ({ ...id, seqno })) },
    shards: header.shards.map(renumber),
    transactions: source.transactions.filter((item) => keep(item.transaction as BlockchainTransaction)),
    accounts: source.accounts,
  };
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`traces: one per external message, with its members, counters and tree order [${store}]`, async (t) => {
    const where = await place(t, store);
    if (!where) return;
    const index = await open(t, where);
    const s = await story();
    for (const block of s.blocks) await index.writer.write(block);
    const reader = index.reader;

    // A deploys itself (external) and sends "hello" to B and "to treasury": one trace of three.
    const deploy = only(await reader.traces({ txHashes: [s.helloReceived.hash()] }, 'desc', PAGE));
    assert.equal(deploy.traceId, b64(s.deployA), 'the id is the root transaction hash');
    const [root] = await reader.transactions({ hash: s.deployA.hash() }, 'desc', PAGE);
    assert.equal(deploy.externalHash, JSON.parse(root.doc).in_msg, "external_hash: the root's inbound message");
    assert.ok(deploy.externalHashNorm, 'an external root keeps the normalized hash of its message');
    assert.equal(deploy.transactions, 3);
    assert.equal(deploy.messages, 3, 'the external message and the two internal ones');
    assert.equal(deploy.pendingMessages, 0);
    assert.equal(deploy.state, 'complete');
    assert.equal(deploy.mcSeqnoStart, FIRST_SEQNO + 1);
    assert.equal(deploy.mcSeqnoEnd, FIRST_SEQNO + 1);
    assert.equal(deploy.startLt, s.deployA.lt);
    assert.equal(
      deploy.endLt,
      [s.helloReceived.lt, s.treasuryReceived.lt].reduce((a, b) => (a > b ? a : b)),
    );
    const members = await reader.traceTransactions([Buffer.from(deploy.traceId, 'base64')]);
    assert.deepEqual(
      members.map((r) => r.hash.toString('base64')).sort(),
      [s.deployA, s.helloReceived, s.treasuryReceived].map(b64).sort(),
    );
    assert.deepEqual(
      members.map((r) => r.lt),
      [...members.map((r) => r.lt)].sort((a, b) => (a < b ? -1 : 1)),
      'lt order',
    );
    assert.ok(
      members.every((r) => r.traceId?.toString('base64') === deploy.traceId),
      'every member carries the trace id',
    );

    // The bounce: A -> NOWHERE -> back to A, one trace; found by any member, by its external message.
    const bounce = only(await reader.traces({ txHashes: [s.bouncedBack.hash()] }, 'desc', PAGE));
    assert.equal(bounce.traceId, b64(s.bounceSent));
    assert.equal(bounce.transactions, 3);
    assert.equal(bounce.state, 'complete');
    assert.deepEqual(
      (await reader.traces({ msgHashes: [Buffer.from(bounce.externalHash!, 'base64')] }, 'desc', PAGE)).map((r) => r.traceId),
      [bounce.traceId],
    );
    assert.deepEqual(
      (await reader.traces({ msgHashes: [Buffer.from(bounce.externalHashNorm!, 'base64')] }, 'desc', PAGE)).map((r) => r.traceId),
      [bounce.traceId],
      'by normalized hash',
    );
    assert.deepEqual(
      (await reader.traces({ traceIds: [s.bounceSent.hash()] }, 'desc', PAGE)).map((r) => r.traceId),
      [bounce.traceId],
    );

    // Every transaction of the story is in exactly one trace; the traces partition them.
    const all = await reader.traces({}, 'asc', PAGE);
    assert.equal(
      all.reduce((n, r) => n + r.transactions, 0),
      s.transactions.length,
    );
    assert.deepEqual(
      all.map((r) => r.endLt),
      [...all.map((r) => r.endLt)].sort((a, b) => (a < b ? -1 : 1)),
      'asc by end_lt',
    );
    assert.deepEqual(
      (await reader.traces({}, 'desc', PAGE)).map((r) => r.traceId),
      all.map((r) => r.traceId).reverse(),
    );
    // Account: the traces A took part in (funding, deploy, bounce, reply).
    const ofA = await reader.traces({ account: root.account }, 'desc', PAGE);
    assert.deepEqual(new Set(ofA.map((r) => r.traceId)).size, ofA.length);
    assert.ok(ofA.some((r) => r.traceId === deploy.traceId) && ofA.some((r) => r.traceId === bounce.traceId));
    // Bounds on the trace's end; mc_seqno: complete traces that ended in that block.
    assert.deepEqual(
      (await reader.traces({ startLt: deploy.endLt, endLt: deploy.endLt }, 'desc', PAGE)).map((r) => r.traceId),
      [deploy.traceId],
    );
    assert.deepEqual(
      (await reader.traces({ mcSeqno: FIRST_SEQNO + 1 }, 'desc', PAGE)).map((r) => r.traceId),
      [deploy.traceId],
    );
    assert.ok(
      (await reader.traces({ startUtime: deploy.endUtime, endUtime: deploy.endUtime }, 'desc', PAGE)).every(
        (r) => r.endUtime === deploy.endUtime,
      ),
    );
    assert.deepEqual(
      (await reader.transactions({ traceIds: [s.deployA.hash()] }, 'asc', PAGE)).map((r) => r.hash.toString('base64')).sort(),
      members.map((r) => r.hash.toString('base64')).sort(),
    );
  });

  test(`traces: messages received in a later block keep the trace pending, then complete it, across a restart [${store}]`, async (t) => {
    const where = await place(t, store);
    if (!where) return;
    const s = await story();
    const isDeploy = (tx: BlockchainTransaction) => tx === s.deployA;
    const first = await openIndex(where.options);
    await first.writer.write(s.blocks[0]);
    // Block 101 holds only A's deploy; its two messages wait.
    await first.writer.write(cut(s, 1, FIRST_SEQNO + 1, isDeploy));
    const pending = only(await first.reader.traces({ traceIds: [s.deployA.hash()] }, 'desc', PAGE));
    assert.equal(pending.state, 'pending');
    assert.equal(pending.pendingMessages, 2);
    assert.equal(pending.transactions, 1);
    assert.equal(pending.messages, 1);
    await first.close();

    // The index is opened again (the pending messages are known from the store alone) and block 102
    // brings B's and the treasury's receipts.
    const second = await open(t, where);
    await second.writer.write(cut(s, 2, FIRST_SEQNO + 2, (tx) => tx === s.helloReceived || tx === s.treasuryReceived, 1));
    const done = only(await second.reader.traces({ txHashes: [s.treasuryReceived.hash()] }, 'desc', PAGE));
    assert.equal(done.traceId, b64(s.deployA), 'the trace keeps its id');
    assert.equal(done.state, 'complete');
    assert.equal(done.transactions, 3);
    assert.equal(done.messages, 3);
    assert.equal(done.pendingMessages, 0);
    assert.equal(done.mcSeqnoStart, FIRST_SEQNO + 1);
    assert.equal(done.mcSeqnoEnd, FIRST_SEQNO + 2);
    assert.equal((await second.reader.traces({}, 'desc', PAGE)).length, 2, 'the funding trace and this one: no broken stray');
    // Writing a block again (a catch-up overlapping the live feed) counts nothing twice.
    await second.writer.write(cut(s, 2, FIRST_SEQNO + 2, (tx) => tx === s.helloReceived || tx === s.treasuryReceived, 1));
    assert.deepEqual(only(await second.reader.traces({ traceIds: [s.deployA.hash()] }, 'desc', PAGE)), done);
    // A receipt whose sender the index never saw: a broken trace of its own.
    await second.writer.write(cut(s, 3, FIRST_SEQNO + 3, (tx) => tx === s.bounce, 2));
    const broken = only(await second.reader.traces({ txHashes: [s.bounce.hash()] }, 'desc', PAGE));
    assert.equal(broken.traceId, b64(s.bounce));
    assert.equal(broken.state, 'broken');
  });

  test(`traces: an index written before traces is given them at open, the same as written live [${store}]`, async (t) => {
    const live = await place(t, store);
    const old = await place(t, store);
    if (!live || !old) return;
    const s = await story();
    const liveIndex = await open(t, live);
    for (const block of s.blocks) await liveIndex.writer.write(block);

    // What the previous tongate wrote: every migration but the traces one (and the later one that indexes
    // trace_id by account), rows without trace columns.
    const driver = await old.driver();
    await migrate(
      driver,
      MIGRATIONS.filter((m) => m !== TRACES_MIGRATION && m !== ACCOUNT_TRACE_INDEX_MIGRATION),
    );
    const codeBocs = new CodeBocCache();
    for (const block of s.blocks) {
      const batches = blockRows(block, codeBocs).rows.map((batch) => {
        const keep = batch.columns.map((c, i) => (c === 'trace_id' ? -1 : i)).filter((i) => i >= 0);
        return {
          ...batch,
          columns: keep.map((i) => batch.columns[i]),
          rows: batch.rows.map((row) => keep.map((i) => row[i])),
          conflict: batch.conflict?.replace(', trace_id = COALESCE(messages.trace_id, excluded.trace_id)', ''),
        };
      });
      await driver.write(batches);
    }
    await driver.close();

    const lines: string[] = [];
    const upgraded = await openIndex({ ...old.options, logger: { info: (_o, message) => lines.push(message) } });
    t.after(() => upgraded.close());
    assert.ok(
      lines.some((l) => /back-fill done/.test(l)),
      `progress in the log: ${lines.join(' | ')}`,
    );
    assert.deepEqual(await upgraded.reader.traces({}, 'asc', PAGE), await liveIndex.reader.traces({}, 'asc', PAGE));
    const ids = async (index: Index) =>
      (await index.reader.transactions({}, 'asc', PAGE)).map((r) => [r.hash.toString('base64'), r.traceId?.toString('base64')]);
    assert.deepEqual(await ids(upgraded), await ids(liveIndex));
    // The next block continues as if the index had always kept traces; a second open does no more work.
    await upgraded.close();
    const again = await open(t, old);
    assert.deepEqual(await again.reader.traces({}, 'asc', PAGE), await liveIndex.reader.traces({}, 'asc', PAGE));
  });
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`traces: migration 10 gives an existing index's account index trace_id in place, and /traces?account= reads it alone [${store}]`, async (t) => {
    const where = await place(t, store);
    if (!where) return;
    const s = await story();
    const first = await openIndex(where.options);
    for (const block of s.blocks) await first.writer.write(block);
    const [root] = await first.reader.transactions({ hash: s.deployA.hash() }, 'desc', PAGE);
    const expected = await first.reader.traces({ account: root.account }, 'desc', PAGE);
    assert.ok(expected.length >= 2, 'A took part in several traces');
    await first.close();

    // The store as migration 9 left it: the account index without trace_id, no record of version 10.
    const driver = await where.driver();
    const indexes = async () => {
      const sql =
        store === 'sqlite'
          ? `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions' AND name LIKE 'transactions_account%'`
          : `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'transactions' AND indexname LIKE 'transactions_account%'`;
      return (await driver.all(sql)).map((row) => String(row.name)).sort();
    };
    assert.deepEqual(await indexes(), ['transactions_account_lt_trace']);
    await driver.write(
      [],
      [
        'DROP INDEX transactions_account_lt_trace',
        'CREATE INDEX transactions_account_lt ON transactions (account, lt)',
        'DELETE FROM index_migrations WHERE version = 10',
      ],
    );
    assert.deepEqual(await indexes(), ['transactions_account_lt']);

    const upgraded = await open(t, where);
    assert.deepEqual(await indexes(), ['transactions_account_lt_trace'], 'the old index replaced, not kept beside');
    assert.deepEqual(await upgraded.reader.traces({ account: root.account }, 'desc', PAGE), expected);
    if (store === 'sqlite') {
      const plan = (await driver.all(`EXPLAIN QUERY PLAN SELECT trace_id FROM transactions WHERE account = ?`, [root.account])).map((row) =>
        String(row.detail),
      );
      assert.ok(
        plan.some((step) => /COVERING INDEX transactions_account_lt_trace/.test(step)),
        `index only: ${plan.join(' | ')}`,
      );
    }
    await driver.close();
    // Applied once: a second open finds it recorded and changes nothing.
    await upgraded.close();
    const again = await open(t, where);
    assert.deepEqual(await again.reader.traces({ account: root.account }, 'desc', PAGE), expected);
  });
}
