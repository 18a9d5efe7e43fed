/**
 * The read time budget on PostgreSQL, end to end: a v3 read that the server cannot finish within
 * --query-timeout is cancelled by the server (statement_timeout) and answered 504 in v3's shape, the
 * gateway serving everything else meanwhile; writes (blocks, migrations) are not requests and are not
 * cut; PostgreSQL down or hung answers 503/504, never a hang. A read is made to wait on purpose by a
 * lock the test holds on the table (or a proxy that swallows traffic, or pg_sleep past the budget), not by slowness.
 *
 * The budget also bounds getting a connection, and every read that must pass (and the index's own open) needs one:
 * on a loaded machine a new PostgreSQL connection can take longer than a budget of a few hundred milliseconds. So
 * the tests run with the budget tongate runs with by default, a liveness bound for those reads; what is late is late
 * because it is held, whatever the budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { openIndex } from '../../src/index/open-index.js';
import { DEFAULT_QUERY_TIMEOUT_MS, QueryTimeoutError } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../support/services.js';
import { serveIndex } from '../api/v3/support/server.js';
import { TcpProxy } from '../access/support/outage-proxy.js';
import { syntheticBlocks } from '../../scripts/seed-index.js';

const BUDGET_MS = DEFAULT_QUERY_TIMEOUT_MS;
/** A statement that runs past the budget by itself. */
const PAST_THE_BUDGET = `SELECT pg_sleep(${(BUDGET_MS * 1.5) / 1000})`;

/** Holds an ACCESS EXCLUSIVE lock on `table` until released: every read of it waits. */
async function lockTable(schema: string, table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${schema}.${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

test('PostgreSQL: a v3 read past --query-timeout is cancelled by the server and answered 504; the gateway keeps serving', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const index = await openIndex({ network: 'testnet', databaseUrl: POSTGRES_URL, schema, queryTimeoutMs: BUDGET_MS });
  t.after(() => index.close());
  const [block] = [...syntheticBlocks(1, { accounts: 4, transactionsPerBlock: 4 })];
  await index.writer.write(block);
  const server = await serveIndex(t, index, 'testnet');
  assert.equal((await server.get('/api/v3/blocks?limit=1')).status, 200);

  const lock = await lockTable(schema, 'blocks');
  try {
    await assert.rejects(index.reader.lastMasterchainSeqno(), QueryTimeoutError);
    const stuck = await server.get('/api/v3/blocks?limit=1');
    assert.equal(stuck.status, 504);
    assert.deepEqual(Object.keys(stuck.body), ['error'], 'v3 shape');
    assert.match(stuck.body.error, new RegExp(`than ${BUDGET_MS} ms \\(--query-timeout\\)`));
    // Meanwhile what does not read the locked table answers (the health check: the test chain's clock stands still, so "stale").
    const health = await server.get('/healthcheck');
    assert.equal(health.body.network, 'testnet');
    const transactions = await server.get(`/api/v3/transactions?limit=1`);
    assert.equal(transactions.status, 200, JSON.stringify(transactions.body));
  } finally {
    await lock.release();
  }
  const after = await server.get('/api/v3/blocks?limit=1');
  assert.equal(after.status, 200, JSON.stringify(after.body));
  assert.equal(after.body.blocks.length, 1);
});

test('PostgreSQL: the read budget does not cut writes (a block group, a migration)', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const driver = await PostgresDriver.open(POSTGRES_URL, schema, { queryTimeoutMs: BUDGET_MS });
  t.after(() => driver.close());
  // The same statement as a read is stopped, inside a write it runs to the end.
  await assert.rejects(driver.all(PAST_THE_BUDGET), QueryTimeoutError);
  await driver.write([], [PAST_THE_BUDGET, 'CREATE TABLE t (x INTEGER)']);
  assert.deepEqual(await driver.all('SELECT count(*)::int AS n FROM t'), [{ n: 0 }]);
  // The session's budget is back for reads after the write.
  await assert.rejects(driver.all(PAST_THE_BUDGET), QueryTimeoutError);
});

test("PostgreSQL: a write does not wait behind reads for a connection (the read budget bounds a read's wait, not a write's)", async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const driver = await PostgresDriver.open(POSTGRES_URL, schema, { queryTimeoutMs: BUDGET_MS });
  t.after(() => driver.close());
  await driver.write([], ['CREATE TABLE t (x INTEGER)']);
  // Two rounds of reads for the read connections (8), each holding one for 0.6 of the budget: a connection asked for
  // after all of them is free only past 1.2 budgets, which a write made to queue with them would not outlive.
  const holding = `SELECT pg_sleep(${(BUDGET_MS * 0.6) / 1000})`;
  const reads = Array.from({ length: 16 }, () => driver.all(holding));
  await driver.write([{ table: 't', columns: ['x'], rows: [[1n]] }]);
  await Promise.allSettled(reads); // some of them past their own wait for a connection: that is the read budget
  assert.deepEqual(await driver.all('SELECT count(*)::int AS n FROM t'), [{ n: 1 }]);
});

test('PostgreSQL down or hung: v3 reads answer 503/504 in v3 shape within the budget, never hang; then recover', async (t) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tongate_test');
  t.after(() => dropSchema(schema));
  const target = new URL(POSTGRES_URL);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  t.after(() => proxy.close());
  const index = await openIndex({ network: 'testnet', databaseUrl: proxy.rewrite(POSTGRES_URL), schema, queryTimeoutMs: BUDGET_MS });
  t.after(() => index.close());
  const server = await serveIndex(t, index, 'testnet');
  assert.equal((await server.get('/api/v3/blocks?limit=1')).status, 200);
  for (const mode of ['down', 'hang'] as const) {
    await proxy.setMode(mode);
    for (let i = 0; i < 3; i++) {
      const answer = await server.get('/api/v3/blocks?limit=1');
      assert.ok(
        mode === 'down' ? answer.status === 503 : [503, 504].includes(answer.status),
        `${mode} #${i}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      assert.deepEqual(Object.keys(answer.body), ['error'], 'v3 shape');
      assert.doesNotMatch(answer.body.error, /127\.0\.0\.1|postgres:\/\//, 'no address or URL in the message');
    }
    await proxy.setMode('up');
    assert.equal((await server.get('/api/v3/blocks?limit=1')).status, 200, `${mode}: recovered`);
  }
});
