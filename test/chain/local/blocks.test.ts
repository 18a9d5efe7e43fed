import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cell, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { Block, BlockId } from '../../../src/chain/types.js';
import { WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { hashTreeRoot } from '../../../src/chain/local/block-cell.js';
import { openChain, tempDir, testFaucetKeys, testWallet, v4Transfer } from './support/local-chain.js';

const sameId = (a: BlockId, b: BlockId) =>
  a.workchain === b.workchain &&
  a.shard === b.shard &&
  a.seqno === b.seqno &&
  a.rootHash.equals(b.rootHash) &&
  a.fileHash.equals(b.fileHash);

async function faucet() {
  const keys = await testFaucetKeys();
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys };
}

test('blocks advance: seqnos, prev links, non-overlapping aligned lt ranges, utime from the clock', async (t) => {
  const { chain, clock } = await openChain(t);
  const from = await faucet();
  const genesis = chain.masterchainInfo();
  assert.equal(genesis.last.id.seqno, 0);
  assert.equal(genesis.first.id.seqno, 0);
  assert.equal(genesis.first.isKeyBlock, true);
  assert.deepEqual(genesis.first.prevBlocks, []);

  for (let i = 0; i < 5; i++) {
    clock.advance(1500);
    if (i % 2 === 0) await chain.sendExternal(v4Transfer(from, i / 2, testWallet(50 + i).wallet.address, toNano('1')));
    const mc = await chain.produceBlock();
    assert.equal(mc.id.seqno, i + 1);
    assert.equal(chain.masterchainInfo().last.id.seqno, i + 1);
    assert.equal(mc.genUtime, Math.floor(clock.now() / 1000));
  }

  const ordered: Block[] = [];
  for (let s = 0; s <= 5; s++) {
    const mc = chain.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: s })!;
    const shard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: s })!;
    assert.ok(mc && shard, `blocks of step ${s} exist`);
    assert.equal(mc.globalId, -3);
    assert.equal(shard.globalId, -3);
    assert.equal(mc.shardBlocks!.length, 1);
    assert.ok(sameId(mc.shardBlocks![0], shard.id), 'the masterchain block commits the shard block');
    assert.deepEqual(shard.masterRef, { workchain: -1, shard: WHOLE_SHARD, seqno: s });
    assert.deepEqual(
      chain.shardsAt(s).map((b) => b.seqno),
      [s],
    );
    if (s > 0) {
      const prevMc = chain.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: s - 1 })!;
      const prevShard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: s - 1 })!;
      assert.equal(mc.prevBlocks.length, 1);
      assert.ok(sameId(mc.prevBlocks[0], prevMc.id), `mc ${s} links to mc ${s - 1}`);
      assert.ok(sameId(shard.prevBlocks[0], prevShard.id), `shard ${s} links to shard ${s - 1}`);
      assert.ok(mc.genUtime >= prevMc.genUtime);
      assert.equal(shard.startLt % 1_000_000n, 0n);
      assert.equal(mc.startLt % 1_000_000n, 0n);
    }
    ordered.push(shard, mc);
    // every transaction of the shard block lies inside its lt range
    const txs = chain.blockTransactions(shard.id, { count: 100 }).transactions;
    assert.equal(txs.length, shard.txCount);
    for (const tx of txs) assert.ok(tx.lt > shard.startLt && tx.lt < shard.endLt, `tx lt ${tx.lt} in [${shard.startLt}, ${shard.endLt})`);
  }
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i].id.seqno === 0) continue;
    assert.ok(ordered[i].startLt > ordered[i - 1].endLt, `block ${i} starts after block ${i - 1} ends`);
    assert.ok(ordered[i].endLt > ordered[i].startLt);
  }
  // a block with transactions has them; an empty one has none
  assert.equal(chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 1 })!.txCount, 2);
  assert.equal(chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 })!.txCount, 0);
  assert.equal(chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 6 }), undefined, 'no block beyond the head');
  assert.equal(chain.getBlock({ workchain: 0, shard: 0x4000000000000000n, seqno: 1 }), undefined, 'no other shard');
});

test('lookupBlock by seqno, lt and utime', async (t) => {
  const { chain, clock } = await openChain(t);
  const blocks: Block[] = [];
  for (let i = 0; i < 3; i++) {
    clock.advance(10_000);
    blocks.push(await chain.produceBlock());
  }
  const shard2 = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 })!;
  assert.equal(chain.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: 2 })!.id.seqno, 2);
  assert.equal(chain.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, lt: shard2.startLt })!.id.seqno, 2);
  assert.equal(chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, lt: blocks[1].endLt })!.id.seqno, 2);
  assert.equal(chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, utime: blocks[1].genUtime + 5 })!.id.seqno, 2);
  assert.equal(chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, utime: blocks[2].genUtime + 1_000 })!.id.seqno, 3);
  assert.equal(chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, lt: blocks[2].endLt + 1n }), undefined);
  assert.equal(chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 4 }), undefined);
  assert.throws(() => chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 1, lt: 5n }), /exactly one/);
  assert.throws(() => chain.shardsAt(99), /not found/);
});

test('block ids are the hashes of the stored block cells (the documented substitute)', async (t) => {
  const dir = tempDir(t);
  const { chain } = await openChain(t, { dataDir: dir });
  const from = await faucet();
  await chain.sendExternal(v4Transfer(from, 0, testWallet(9).wallet.address));
  await chain.produceBlock();
  await chain.produceBlock();
  const info = chain.masterchainInfo();
  await chain.stop();

  const db = new Database(join(dir, 'chain.sqlite'), { readonly: true });
  t.after(() => db.close());
  const rows = db.prepare('SELECT * FROM blocks ORDER BY seqno, workchain').safeIntegers(true).all() as Array<Record<string, any>>;
  assert.equal(rows.length, 6);
  for (const row of rows) {
    const cell = Cell.fromBoc(row.boc)[0];
    assert.ok(cell.hash().equals(row.root_hash), 'root_hash = repr hash of the block cell');
    assert.ok(createHash('sha256').update(row.boc).digest().equals(row.file_hash), 'file_hash = sha256 of its BoC');
    const s = cell.beginParse();
    assert.equal(s.loadUint(32), 0x74676231);
    assert.equal(s.loadInt(32), -3);
    assert.equal(BigInt(s.loadInt(32)), row.workchain);
    assert.equal(s.loadUintBig(64), WHOLE_SHARD);
    assert.equal(BigInt(s.loadUint(32)), row.seqno);
    assert.equal(BigInt(s.loadUint(32)), row.gen_utime);
    assert.equal(s.loadUintBig(64), row.start_lt);
    assert.equal(s.loadUintBig(64), row.end_lt);
    const txCount = s.loadUint(32);
    const hashes = cell.refs[2].beginParse();
    hashes.skip(256);
    const txTreeHash = hashes.loadBuffer(32);
    assert.ok(hashes.loadBuffer(32).equals(row.state_hash));
    const txs = db
      .prepare('SELECT hash FROM transactions WHERE workchain = ? AND block_seqno = ? ORDER BY lt')
      .all(row.workchain, row.seqno) as Array<{ hash: Buffer }>;
    assert.equal(txs.length, txCount);
    assert.ok(
      (
        await hashTreeRoot(
          txs.map((x) => x.hash),
          256,
        )
      ).equals(txTreeHash),
      'the block cell commits to its transactions',
    );
  }
  const last = rows.find((r) => r.workchain === -1n && Number(r.seqno) === info.last.id.seqno)!;
  assert.ok(last.root_hash.equals(info.last.id.rootHash));
});

test('blocks keep coming on the timer while the chain is idle', async (t) => {
  const { chain } = await openChain(t, { blockIntervalMs: 20 });
  const seen: number[] = [];
  const three = new Promise<void>((resolve) =>
    chain.onBlock((b) => {
      seen.push(b.masterchain.id.seqno);
      if (seen.length === 3) resolve();
    }),
  );
  chain.start();
  await three;
  assert.deepEqual(seen, [1, 2, 3]);
  await chain.stop();
  await assert.rejects(chain.produceBlock(), /stopped/);
});
