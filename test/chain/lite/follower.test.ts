/**
 * The index's follower (src/chain/lite/follower.ts) over blocks of its own making, without a TON network: which
 * blocks it fetches for masterchain block N, and when. The shard walk itself (splits, merges, several blocks of a
 * shard) is tested on a real network in shards.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Cell } from '@ton/core';
import { LiteFollower, type FollowerDeps } from '../../../src/chain/lite/follower.js';
import type { LoadedBlock } from '../../../src/chain/lite/blocks.js';
import type { BlockId } from '../../../src/chain/types.js';

const WHOLE = 0x8000000000000000n;

function id(workchain: number, seqno: number): BlockId {
  return { workchain, shard: WHOLE, seqno, rootHash: randomBytes(32), fileHash: randomBytes(32) };
}

function loaded(blockId: BlockId, prev: BlockId[], shardBlocks?: BlockId[]): LoadedBlock {
  const block = { id: blockId, prevBlocks: prev, ...(shardBlocks ? { shardBlocks } : {}) } as unknown as LoadedBlock['block'];
  return { block, parsed: { transactions: [] } as unknown as LoadedBlock['parsed'], root: Cell.EMPTY, bytes: 0 };
}

/**
 * Masterchain blocks 1..count, each committing one basechain block (its shard's next), and deps that fetch a
 * block by id through a cache as LiteBlocks does: `fetched` lists what a liteserver was asked, `bySeqno` the
 * masterchain blocks asked for by seqno (a lookupBlock when not the head).
 */
function chain(count: number) {
  const mc: LoadedBlock[] = [];
  const shard: LoadedBlock[] = [];
  for (let n = 1; n <= count; n++) {
    const s = loaded(id(0, n), [n === 1 ? id(0, 0) : shard[n - 2].block.id]);
    shard.push(s);
    mc.push(loaded(id(-1, n), [n === 1 ? id(-1, 0) : mc[n - 2].block.id], [s.block.id]));
  }
  const all = new Map([...mc, ...shard].map((b) => [b.block.id.rootHash.toString('hex'), b]));
  const cache = new Map<string, LoadedBlock>();
  const fetched: string[] = [];
  const bySeqno: number[] = [];
  const name = (b: BlockId) => `${b.workchain}:${b.seqno}`;
  const byId = async (blockId: BlockId) => {
    const key = blockId.rootHash.toString('hex');
    let block = cache.get(key);
    if (!block) {
      await new Promise((resolve) => setImmediate(resolve));
      block = all.get(key)!;
      fetched.push(name(blockId));
      cache.set(key, block);
    }
    return block;
  };
  let head = count;
  const deps: FollowerDeps = {
    masterchainBlock: async (n) => {
      if (n !== head) bySeqno.push(n);
      return byId(mc[n - 1].block.id);
    },
    block: byId,
    account: () => Promise.reject(new Error('no account is read here')),
    asFollower: (fn) => fn(),
    head: () => head,
  };
  return { mc, shard, deps, fetched, bySeqno, setHead: (n: number) => (head = n) };
}

test('block N is read with N-1 by the id N names (no lookup by seqno), and the shard blocks N commits', async () => {
  const c = chain(3);
  const follower = new LiteFollower(c.deps, { readAhead: 0 });
  const fed = await follower.feedBlock(3);
  assert.deepEqual(c.bySeqno, [], 'no masterchain block asked for by seqno but the head itself');
  assert.deepEqual(c.fetched.sort(), ['-1:2', '-1:3', '0:3']);
  assert.deepEqual(
    fed.shards.map((b) => b.id.seqno),
    [3],
  );
  assert.equal(fed.masterchain.id.seqno, 3);
});

test('a reported head is downloaded before its proof (warm): its read after the proof asks a liteserver nothing more', async () => {
  const c = chain(4);
  c.setHead(3); // 4 is reported, not proven: not the head yet
  const follower = new LiteFollower(c.deps, { readAhead: 0 });
  await follower.warm(c.mc[3].block.id);
  assert.deepEqual(c.fetched.sort(), ['-1:3', '-1:4', '0:4'], 'the head, the block before it and the shard block it commits');
  // Nothing was fed: the index reads only from a proven head.
  c.setHead(4);
  const before = c.fetched.length;
  const fed = await follower.feedBlock(4);
  assert.equal(c.fetched.length, before, `fetched again: ${c.fetched.slice(before).join(', ')}`);
  assert.deepEqual(
    fed.shards.map((b) => b.id.seqno),
    [4],
  );
});

test('a warm that fails is forgotten: the read after the proof fetches what it needs itself', async () => {
  const c = chain(2);
  let down = true;
  const deps: FollowerDeps = { ...c.deps, block: (b) => (down ? Promise.reject(new Error('liteserver gone')) : c.deps.block(b)) };
  const follower = new LiteFollower(deps, { readAhead: 0 });
  await follower.warm(c.mc[1].block.id); // resolves: the failure is the read's to see
  assert.deepEqual(c.fetched, []);
  down = false;
  const fed = await follower.feedBlock(2);
  assert.deepEqual(
    fed.shards.map((b) => b.id.seqno),
    [2],
  );
  assert.deepEqual(c.fetched.sort(), ['-1:1', '-1:2', '0:2']);
});
