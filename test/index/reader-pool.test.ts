/**
 * The SQLite index's reads on reader threads (src/index/worker/reader-pool.ts): the thread that asks
 * runs no SQL, rows come back exactly as the main thread's own connection reads them, a read past its
 * time budget fails with QueryTimeoutError while the pool keeps answering, and a reader that cannot
 * start fails reads instead of leaving them waiting. "Slow on purpose" is a recursive CTE of six
 * million steps (about a second on a 2-core machine, more under load) against a budget of 200 ms, which also leaves
 * a loaded machine room to answer the quick reads asked beside it; nothing here measures time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openIndex } from '../../src/index/open-index.js';
import { QueryTimeoutError, StoreUnavailableError } from '../../src/index/sql/driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { SqliteReaderPool } from '../../src/index/worker/reader-pool.js';
import { syntheticBlocks } from '../../scripts/seed-index.js';

const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 6000000) SELECT count(*) AS n FROM c';

const BUDGET_MS = 200;

function scratch(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-reader-pool-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A WAL file kept open by a writer connection of this thread, as openIndex keeps it. */
function walFile(t: TestContext): { file: string; writer: SqliteDriver } {
  const file = join(scratch(t), 'index.sqlite');
  const writer = SqliteDriver.open(file, 'off');
  t.after(() => writer.close());
  return { file, writer };
}

test('openIndex: a data-dir index and an ephemeral one read through reader threads, and see what was committed', async (t) => {
  const [block] = [...syntheticBlocks(1, { accounts: 4, transactionsPerBlock: 8 })];
  for (const options of [{ network: 'testnet', dataDir: scratch(t) }, { network: 'testnet' }]) {
    const index = await openIndex(options);
    t.after(() => index.close());
    assert.ok(index.reads instanceof SqliteReaderPool, `${JSON.stringify(options)}: the reader's queries go to reader threads`);
    assert.equal(await index.reader.lastMasterchainSeqno(), -1);
    await index.writer.write(block);
    // A reader connection of its own sees the commit at once (WAL, no transaction held open between reads).
    assert.equal(await index.reader.lastMasterchainSeqno(), block.masterchain.id.seqno);
    assert.equal((await index.reader.counts()).transactions, block.transactions.length);
  }
});

test('SqliteReaderPool: rows come back as the main thread reads them (bigints, Buffers, text, null)', async (t) => {
  const { file, writer } = walFile(t);
  await writer.exec('CREATE TABLE r (b BLOB, big INTEGER, small INTEGER, t TEXT, n TEXT)');
  await writer.write([
    { table: 'r', columns: ['b', 'big', 'small', 't', 'n'], rows: [[Buffer.from('00ff10', 'hex'), -(2n ** 63n), 7n, 'héllo', null]] },
  ]);
  const pool = new SqliteReaderPool(file);
  t.after(() => pool.close());
  const sql = 'SELECT * FROM r WHERE b = ? AND big = ?';
  const params = [Buffer.from('00ff10', 'hex'), -(2n ** 63n)];
  const [pooled] = await pool.all(sql, params);
  const [direct] = await writer.all(sql, params);
  assert.deepEqual(pooled, direct);
  assert.ok(Buffer.isBuffer(pooled.b), 'bytes come back as a Buffer');
  assert.equal(typeof pooled.big, 'bigint');
});

test('SqliteReaderPool: the asking thread runs no SQL; its event loop turns while a query runs', async (t) => {
  const { file, writer } = walFile(t);
  const pool = new SqliteReaderPool(file, { timeoutMs: BUDGET_MS });
  t.after(() => pool.close());
  await pool.ready();
  const sql = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) AS n FROM c';
  // On this thread's own connection the query runs inside the call: nothing else runs before it answers.
  let turned = false;
  setImmediate(() => (turned = true));
  await writer.all(sql);
  assert.equal(turned, false, 'control: a query on this thread holds its event loop');
  await new Promise((resolve) => setImmediate(resolve));
  // Through the pool the loop turns (an immediate runs) before the answer comes back.
  turned = false;
  setImmediate(() => (turned = true));
  const answer = await pool.all(sql).catch((error: Error) => error);
  assert.equal(turned, true, 'the event loop ran while the reader thread worked');
  if (!(answer instanceof QueryTimeoutError)) assert.deepEqual(answer, [{ n: 200000n }]);
});

test('SqliteReaderPool: a query past its budget fails with QueryTimeoutError; its thread is given up and replaced; the pool keeps answering', async (t) => {
  const { file } = walFile(t);
  const pool = new SqliteReaderPool(file, { readers: 1, timeoutMs: BUDGET_MS });
  t.after(() => pool.close());
  await pool.ready();
  const error = await pool.all(SLOW).catch((e: Error) => e);
  assert.ok(error instanceof QueryTimeoutError, `expected a QueryTimeoutError, got ${error}`);
  assert.match(error.message, /200 ms \(--query-timeout\)/);
  // Given up: it no longer counts as a reader (it may still be winding down, or gone already).
  assert.ok(pool.threads().live <= 1);
  assert.ok(pool.threads().live + pool.threads().abandoned <= 2, 'given-up threads are capped');
  // Another question, to a fresh thread: answered (the time budget waits for it to start).
  assert.deepEqual(await pool.all('SELECT 1 AS one'), [{ one: 1n }]);
  // A stream of expensive questions: each one fails within its budget, the number of threads stays capped.
  for (let i = 0; i < 2; i++) {
    const again = await pool.all(SLOW).catch((e: Error) => e);
    assert.ok(again instanceof QueryTimeoutError);
    const { live, abandoned } = pool.threads();
    assert.ok(live + abandoned <= 2, `${live} live + ${abandoned} given up`);
  }
});

test('SqliteReaderPool: queries asked together are all answered; one past its budget does not strand the ones sent with it', async (t) => {
  const { file } = walFile(t);
  const pool = new SqliteReaderPool(file, { readers: 1, timeoutMs: BUDGET_MS });
  t.after(() => pool.close());
  await pool.ready();
  // Asked in one tick, to a pool of one thread: sent in one message. Together they answer as each would alone.
  assert.deepEqual(await Promise.all([pool.all('SELECT 1 AS n'), pool.all('SELECT 2 AS n'), pool.all('SELECT ? AS n', [3n])]), [
    [{ n: 1n }],
    [{ n: 2n }],
    [{ n: 3n }],
  ]);
  // The slow one expires; the one sent with it goes to another thread, and settles (answered, or past its own budget).
  const [slow, fast] = await Promise.allSettled([pool.all(SLOW), pool.all('SELECT 4 AS n')]);
  assert.ok(slow.status === 'rejected' && slow.reason instanceof QueryTimeoutError);
  if (fast.status === 'fulfilled') assert.deepEqual(fast.value, [{ n: 4n }]);
  else assert.ok(fast.reason instanceof QueryTimeoutError, String(fast.reason));
});

test('SqliteReaderPool: a lone query starts one thread; warm() starts them all, the first alone; both answer', async (t) => {
  const { file } = walFile(t);
  const lazy = new SqliteReaderPool(file, { readers: 2 });
  t.after(() => lazy.close());
  assert.deepEqual(await lazy.all('SELECT 1 AS n'), [{ n: 1n }]);
  assert.equal(lazy.threads().live, 1);
  const warm = new SqliteReaderPool(file, { readers: 2 });
  t.after(() => warm.close());
  const warming = warm.warm();
  // The first read waits for one thread: it loads without the others beside it.
  assert.equal(warm.threads().live, 1);
  await warming;
  assert.equal(warm.threads().live, 2);
  assert.deepEqual(await warm.all('SELECT 1 AS n'), [{ n: 1n }]);
});

test('SqliteReaderPool: a reader that cannot open the file fails the waiting reads (StoreUnavailableError), no hang', async (t) => {
  const pool = new SqliteReaderPool(join(scratch(t), 'missing.sqlite'), { timeoutMs: 60_000 });
  t.after(() => pool.close());
  const error = await pool.all('SELECT 1').catch((e: Error) => e);
  assert.ok(error instanceof StoreUnavailableError, `expected StoreUnavailableError, got ${error}`);
  await assert.rejects(pool.ready(), StoreUnavailableError);
});

test('SqliteReaderPool: closed, it fails what waits and answers nothing more', async (t) => {
  const { file } = walFile(t);
  const pool = new SqliteReaderPool(file);
  await pool.ready();
  await pool.close();
  await assert.rejects(pool.all('SELECT 1'), StoreUnavailableError);
});
