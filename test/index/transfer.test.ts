import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, Cell } from '@ton/core';
import { blockRows, CodeBocCache } from '../../src/index/block-rows.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FeedBlock } from '../../src/chain/feed-block.js';
import { feedFromIndexed } from '../../src/index/feed.js';
import { openIndex } from '../../src/index/open-index.js';
import { WorkerWriter } from '../../src/index/worker/worker-writer.js';
import { INDEX_NICE } from '../../src/util/thread-priority.js';
import { niceOfThreads, noIdlePolicyReason, SCHED_IDLE, threadsAtNice } from '../support/threads.js';
import { CellPacker, unpackCells } from '../../src/index/worker/cell-transfer.js';
import { packBlock, unpackBlock } from '../../src/index/worker/transfer.js';
import { story } from './support/sandbox-blocks.js';
import { v3Transaction } from '../../src/ton/transaction-v3-json.js';

test('a block crosses to the render thread intact: the rows written there are the rows written here', async () => {
  const s = await story();
  for (const [i, block] of s.blocks.entries()) {
    // Some entries as cells, some as BoC bytes (what a producer that keeps the emulator's BoCs hands over).
    const feed: FeedBlock = {
      masterchain: block.masterchain,
      shards: block.shards,
      transactions: block.transactions.map((t, j) =>
        (i + j) % 2 === 0 ? { cell: t.transaction.raw, block: t.block } : { boc: t.transaction.raw.toBoc(), block: t.block },
      ),
      accounts: block.accounts.map((a, j) =>
        j % 2 === 0 ? { address: a.address, cell: a.shardAccount } : { address: a.address, boc: a.shardAccount.toBoc() },
      ),
    };
    const crossed = unpackBlock(structuredClone(packBlock(feed)));
    assert.deepEqual(blockRows(crossed, new CodeBocCache()), blockRows(block, new CodeBocCache()), `block ${i}`);
    assert.ok(Buffer.isBuffer(crossed.masterchain.id.rootHash), 'bytes are Buffers again on the other side');
  }
});

test('cell pools: shared subcells once, exotic and unaligned cells, every hash preserved', () => {
  const leaf = beginCell().storeUint(5, 3).endCell();
  const shared = beginCell().storeRef(leaf).storeBit(true).endCell();
  const root = beginCell().storeRef(shared).storeRef(shared).storeBuffer(Buffer.from('hello')).storeUint(1, 1).endCell();
  const pruned = new Cell({
    exotic: true,
    bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(leaf.hash()).storeUint(leaf.depth(), 16).endCell().bits,
    refs: [],
  });
  const packer = new CellPacker();
  const a = packer.add(root);
  const b = packer.add(pruned);
  const c = packer.add(shared);
  const pool = packer.finish();
  assert.equal(pool.bitLengths.length, 4, 'leaf, shared, root, pruned: each once');
  const cells = unpackCells(structuredClone(pool));
  assert.deepEqual(cells[a].hash(), root.hash());
  assert.deepEqual(cells[b].hash(), pruned.hash());
  assert.equal(cells[b].isExotic, true);
  assert.equal(c, cells.indexOf(cells[c]));
  assert.deepEqual(cells[c].hash(), shared.hash());
});

test("a transaction's stored document is the shared v3 codec's JSON, its messages by hash", async () => {
  const s = await story();
  for (const block of s.blocks) {
    const [, , transactions, messages] = blockRows(block, new CodeBocCache()).rows;
    const doc = (batch: typeof messages, row: unknown[]) => JSON.parse(row[batch.columns.indexOf('doc')] as string);
    const docs = new Map(messages.rows.map((row) => [(row[0] as Buffer).toString('base64'), doc(messages, row)]));
    for (const [i, { transaction, block: ref }] of block.transactions.entries()) {
      const {
        account_state_before: _b,
        account_state_after: _a,
        ...expected
      } = v3Transaction(transaction, { block: ref, mcBlockSeqno: block.masterchain.id.seqno });
      const stored = doc(transactions, transactions.rows[i]);
      assert.deepEqual(
        { ...stored, in_msg: stored.in_msg && docs.get(stored.in_msg), out_msgs: stored.out_msgs.map((h: string) => docs.get(h)) },
        JSON.parse(JSON.stringify(expected)),
      );
    }
  }
});

test("the index's render and store threads run below production's priority, in SCHED_IDLE (Linux)", async (t) => {
  if (process.platform !== 'linux') return t.skip('per-thread priorities are read from /proc');
  const dir = mkdtempSync(join(tmpdir(), 'tongate-index-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const index = await openIndex({ network: 'testnet', dataDir: dir });
  t.after(() => index.close());
  const before = niceOfThreads().filter((nice) => nice === INDEX_NICE).length;
  const writer = new WorkerWriter(index.location);
  let closed = false;
  t.after(() => (closed ? undefined : writer.close())); // a failed assertion below leaves no thread running
  await writer.write(feedFromIndexed((await story()).blocks[0]));
  assert.equal(niceOfThreads().filter((nice) => nice === INDEX_NICE).length - before, 2, 'the render thread and the store thread');
  assert.equal(niceOfThreads()[0], 0, 'the main thread keeps its priority');
  const noIdle = noIdlePolicyReason();
  if (noIdle) t.diagnostic(`SCHED_IDLE not checked: ${noIdle}`);
  else
    assert.ok(
      threadsAtNice(INDEX_NICE).every((thread) => thread.policy === SCHED_IDLE),
      'every index thread in SCHED_IDLE',
    );
  closed = true;
  await writer.close();
  assert.equal(await index.reader.lastMasterchainSeqno(), (await story()).blocks[0].masterchain.id.seqno);
});

test('a store thread that cannot connect fails the write with the reason and leaves the writer broken; a new writer connects again', async (t) => {
  const { freePort } = await import('../support/ports.js');
  const unreachable = new WorkerWriter({
    kind: 'postgres',
    databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/test`,
    schema: 'tongate_nowhere',
  });
  const block = feedFromIndexed((await story()).blocks[0]);
  await assert.rejects(unreachable.write(block), /index store thread: .*ECONNREFUSED/s);
  assert.equal(unreachable.broken, true);
  await assert.rejects(unreachable.write(block), /ECONNREFUSED/, 'a broken writer refuses at once');
  await unreachable.close();

  const dir = mkdtempSync(join(tmpdir(), 'tongate-index-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const index = await openIndex({ network: 'testnet', dataDir: dir });
  t.after(() => index.close());
  const writer = new WorkerWriter(index.location);
  await writer.write(block);
  await writer.close();
  assert.equal(await index.reader.lastMasterchainSeqno(), block.masterchain.id.seqno);
});
