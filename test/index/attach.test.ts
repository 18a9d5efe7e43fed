import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toNano } from '@ton/core';
import { WHOLE_SHARD } from '../../src/ton/workchain.js';
import { attachIndexToChain } from '../../src/index/attach.js';
import { openIndex, type Index } from '../../src/index/open-index.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { openChain, tempDir, testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import pg from 'pg';
import { openStore } from './support/stores.js';
import { POSTGRES_URL } from '../support/services.js';
import type { LocalChain } from '../../src/chain/local/index.js';

const ALL = { limit: 1000, offset: 0 };

/** Everything the index answers about a chain, as plain JSON (comparable across indexes). */
async function snapshot(index: Index) {
  const r = index.reader;
  return {
    blocks: await r.blocks({}, 'asc', ALL),
    transactions: (await r.transactions({}, 'asc', ALL)).map((t) => t.doc),
    messages: (await r.messages({}, 'asc', ALL)).map((m) => [m.doc, m.inTxHash?.toString('hex'), m.outTxHash?.toString('hex')]),
    top: await r.topAccountsByBalance({ limit: 100, offset: 0 }),
  };
}

/** A chain with history: the faucet funds A; A deploys itself and pays B; B is funded again. */
async function busyChain(
  t: Parameters<typeof openChain>[0],
): Promise<{ chain: LocalChain; a: ReturnType<typeof testWallet>; b: ReturnType<typeof testWallet> }> {
  const { chain } = await openChain(t);
  const a = testWallet(41);
  const b = testWallet(42);
  await Promise.all([chain.fund(a.wallet.address, toNano('5')), chain.produceBlock()]);
  await chain.produceBlock();
  return { chain, a, b };
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`attach: catches up from the chain's store, then follows live blocks; both paths write the same rows [${store}]`, async (t) => {
    const { chain, a, b } = await busyChain(t);
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    const attachment = await attachIndexToChain(index, chain);
    t.after(() => attachment.detach());
    await attachment.synced();
    const caughtUp = chain.masterchainInfo().last.id.seqno;
    assert.equal(attachment.lastIndexed(), caughtUp);
    assert.equal(await index.reader.lastMasterchainSeqno(), caughtUp);
    assert.equal((await index.reader.masterchainRange())!.first.id.seqno, 0, 'from the zero state');

    // Live: A deploys itself and pays B, in blocks produced after the attachment.
    await chain.sendExternal(v4Transfer(a, 0, b.wallet.address, toNano('1'), { deploy: true }));
    await chain.produceBlock();
    await chain.produceBlock();
    await attachment.synced();
    const last = chain.masterchainInfo().last.id.seqno;
    assert.equal(attachment.lastIndexed(), last);

    // The index holds exactly the chain's transactions, block by block.
    for (let seqno = 0; seqno <= last; seqno++) {
      for (const id of chain.shardsAt(seqno)) {
        const chainTxs = chain
          .blockTransactions(id, { count: 1000 })
          .transactions.map((tx) => tx.hash.toString('base64'))
          .sort();
        const indexed = (await index.reader.transactions({ workchain: id.workchain, shard: WHOLE_SHARD, seqno: id.seqno }, 'asc', ALL))
          .map((r) => r.hash.toString('base64'))
          .sort();
        assert.deepEqual(indexed, chainTxs, `block ${seqno}`);
      }
    }
    const account = chain.getAccount(a.wallet.address);
    const [latest] = await index.reader.latestStates([formatRawUpper(a.wallet.address)], true);
    assert.equal(latest.status, 'active');
    assert.equal(latest.balance, account.balance.toString());
    assert.deepEqual(latest.lastTransHash, account.lastTxHash);
    assert.equal(latest.wallet?.walletType, 'wallet v4 r2');
    const [faucet] = chain.faucets();
    assert.ok((await index.reader.latestStates([formatRawUpper(faucet.address)], false)).length === 1, 'zero-state accounts are indexed');

    // A second index fed only by catch-up (reading every block back from the store), written in this
    // thread rather than by a writer thread, says the same.
    const second = await openStore(t, store);
    const replay = await attachIndexToChain(second!.index, chain, { thread: 'main' });
    t.after(() => replay.detach());
    await replay.synced();
    assert.deepEqual(await snapshot(second!.index), await snapshot(index));
  });
}

test('attach: a write that fails is retried until the store takes it again [postgres]', async (t) => {
  const opened = await openStore(t, 'postgres');
  if (!opened) return;
  const { chain } = await busyChain(t);
  const errors: string[] = [];
  const attachment = await attachIndexToChain(opened.index, chain, {
    retryMs: 20,
    logger: { error: (_o, message) => errors.push(message) },
  });
  t.after(() => attachment.detach());
  await attachment.synced();
  const schema = opened.index.location.kind === 'postgres' ? opened.index.location.schema : '';
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  t.after(() => admin.end());
  await admin.query(`ALTER TABLE ${schema}.transactions RENAME TO transactions_away`);
  const a = testWallet(43);
  await Promise.all([chain.fund(a.wallet.address, toNano('1')), chain.produceBlock()]);
  const target = chain.masterchainInfo().last.id.seqno;
  while (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(attachment.lastIndexed() < target, 'the block is not in the index while the table is away');
  await admin.query(`ALTER TABLE ${schema}.transactions_away RENAME TO transactions`);
  await attachment.synced(target);
  assert.equal(attachment.lastIndexed(), target);
  assert.match(errors[0], /indexing a block failed; retrying/);
  assert.equal((await opened.index.reader.latestStates([formatRawUpper(a.wallet.address)], false)).length, 1);
});

test('attach: an index written from another chain is refused, with what to do', async (t) => {
  const dir = tempDir(t);
  const first = await busyChain(t);
  const index = await openIndex({ network: 'testnet', dataDir: dir });
  const attachment = await attachIndexToChain(index, first.chain);
  await attachment.synced();
  await attachment.detach();
  const { chain: other } = await openChain(t);
  await assert.rejects(attachIndexToChain(index, other), (err: Error) => {
    // Names the chain the index holds and what to do, and never advises deleting it (it may be another's).
    assert.match(
      err.message,
      /holds masterchain blocks 0\.\.\d+ of another chain \(global_id -3; its block \d+ is [0-9A-F]{16}…, sealed \d{4}-/,
    );
    assert.match(err.message, /Give this chain an index of its own \(another --data-dir or --database-url\)/);
    assert.doesNotMatch(err.message, /delete|drop|remove/i);
    return true;
  });
  await index.close();
});

test("attach: synced() asked in a seal's turn does not take the block in that turn; it resolves once it is written", async (t) => {
  const { chain } = await busyChain(t);
  const index = await openIndex({ network: 'testnet' });
  t.after(() => index.close());
  const attachment = await attachIndexToChain(index, chain, { thread: 'main' });
  t.after(() => attachment.detach());
  await attachment.synced();
  const written: number[] = [];
  const write = index.writer.write.bind(index.writer);
  index.writer.write = (block) => {
    written.push(block.masterchain.id.seqno);
    return write(block);
  };
  // A listener after the index's, as the stream hub is: it asks for the block in the seal's own turn.
  let inSealTurn: number[] | undefined;
  let asked: Promise<void> | undefined;
  const stop = chain.onBlock((block) => {
    asked = attachment.synced(block.masterchain.id.seqno);
    inSealTurn = [...written];
  });
  t.after(stop);
  const seqno = (await chain.produceBlock()).id.seqno;
  assert.deepEqual(inSealTurn, [], "nothing packed for the writer in the seal's turn");
  await asked;
  assert.deepEqual(written, [seqno]);
  assert.equal(await index.reader.lastMasterchainSeqno(), seqno);
});

test('attach: synced() waits for a block that is not sealed yet; detach stops following', async (t) => {
  const { chain } = await busyChain(t);
  const index = await openIndex({ network: 'testnet' });
  t.after(() => index.close());
  const attachment = await attachIndexToChain(index, chain);
  const target = chain.masterchainInfo().last.id.seqno + 1;
  let done = false;
  const waiting = attachment.synced(target).then(() => (done = true));
  await attachment.synced();
  assert.equal(done, false);
  await chain.produceBlock();
  await waiting;
  assert.equal(await index.reader.lastMasterchainSeqno(), target);
  await attachment.detach();
  await chain.produceBlock();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await index.reader.lastMasterchainSeqno(), target, 'no writes after detach');
});
