import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BlockCommitter } from '../../src/index/block-committer.js';
import type { RenderedBlock } from '../../src/index/types.js';
import { CodeBocCache, renderBlock } from '../../src/index/block-rows.js';
import { IndexReader } from '../../src/index/reader.js';
import { migrate } from '../../src/index/schema.js';
import type { InsertBatch, SqlDriver } from '../../src/index/sql/driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';
import { syntheticBlocks } from '../../scripts/seed-index.js';

/** A real in-memory SQLite store; `groups` records the seqnos of each DB transaction, `failNext` makes the next one throw. */
async function store() {
  const sqlite = SqliteDriver.open();
  await migrate(sqlite);
  const groups: number[][] = [];
  let failNext = false;
  const driver: SqlDriver = {
    dialect: sqlite.dialect,
    all: (sql, params) => sqlite.all(sql, params),
    exec: (sql) => sqlite.exec(sql),
    close: () => sqlite.close(),
    async write(batches: readonly InsertBatch[]) {
      groups.push(batches.filter((b) => b.table === 'blocks').map((b) => Number(b.rows[0][2])));
      if (failNext) {
        failNext = false;
        throw new Error('the store is away');
      }
      await sqlite.write(batches);
    },
  };
  return { driver, groups, reader: new IndexReader(sqlite), failNextWrite: () => (failNext = true) };
}

const codeBocs = new CodeBocCache();
const rendered = (count: number): RenderedBlock[] =>
  [...syntheticBlocks(count, { accounts: 20, transactionsPerBlock: 6 })].map((b) => renderBlock(b, codeBocs));

test('committer: blocks that wait while one is written go together in one transaction, in order', async () => {
  const { driver, groups, reader } = await store();
  const committer = new BlockCommitter(driver);
  await Promise.all(rendered(6).map((b) => committer.commit(b)));
  assert.deepEqual(groups, [[1], [2, 3, 4, 5, 6]], 'the first alone, the five that queued behind it in one group');
  assert.equal(await reader.lastMasterchainSeqno(), 6);
  assert.equal((await reader.counts()).transactions, 36);
});

test('committer: a group stops growing at its transaction cap', async () => {
  const { driver, groups } = await store();
  const committer = new BlockCommitter(driver, 12);
  await Promise.all(rendered(6).map((b) => committer.commit(b)));
  assert.deepEqual(groups, [[1], [2, 3], [4, 5], [6]]);
});

test('committer: after a failure nothing past the failed block is written until it is', async () => {
  const { driver, reader, failNextWrite } = await store();
  const committer = new BlockCommitter(driver);
  const blocks = rendered(5);
  await committer.commit(blocks[0]);
  failNextWrite();
  const results = await Promise.allSettled(blocks.slice(1).map((b) => committer.commit(b)));
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected', 'rejected'],
  );
  assert.match((results[0] as PromiseRejectedResult).reason.message, /the store is away/);
  // Block 3 sent before block 2 is written again: refused, naming the block that must come first.
  await assert.rejects(committer.commit(blocks[2]), /block 3 not written: block 2 failed before it/);
  assert.equal(await reader.lastMasterchainSeqno(), 1, 'no gap: blocks 3-5 are not in the index');
  // Written again from the failed block on, everything goes in.
  await Promise.all(blocks.slice(1).map((b) => committer.commit(b)));
  assert.equal(await reader.lastMasterchainSeqno(), 5);
  assert.equal((await reader.counts()).blocks, 10);
});

test('committer: a block that could not be rendered fails alone and holds the line like a failed write', async () => {
  const { driver, reader } = await store();
  const committer = new BlockCommitter(driver);
  const blocks = rendered(3);
  const broken: RenderedBlock = { ...blocks[1], rows: new Error('unparseable transaction') };
  const results = await Promise.allSettled([committer.commit(blocks[0]), committer.commit(broken), committer.commit(blocks[2])]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'rejected'],
  );
  assert.match((results[1] as PromiseRejectedResult).reason.message, /unparseable transaction/);
  assert.equal(await reader.lastMasterchainSeqno(), 1);
  await committer.commit(blocks[1]);
  await committer.commit(blocks[2]);
  assert.equal(await reader.lastMasterchainSeqno(), 3);
});
