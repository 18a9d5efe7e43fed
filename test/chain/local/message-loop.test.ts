import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toNano } from '@ton/core';
import { WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { LOOPER_CODE, deployMessage, openChain, testFaucet, v4Send } from './support/local-chain.js';

test('a message loop cannot stall the chain: the per-block cap defers the rest, in lt order', async (t) => {
  const cap = 25;
  // a long interval: the drain before sealing is then bounded by the cap alone, not by time
  const { chain } = await openChain(t, { maxBlockTransactions: cap, blockIntervalMs: 60_000 });
  const from = await testFaucet();
  const looper = deployMessage(LOOPER_CODE, toNano('100'));
  await chain.sendExternal(v4Send(from, 0, [looper.message]));

  const seqnos: number[] = [];
  for (let i = 0; i < 4; i++) {
    const mc = await chain.produceBlock();
    seqnos.push(mc.id.seqno);
    const shard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: mc.id.seqno })!;
    assert.ok(shard.txCount <= cap + 1, `block ${mc.id.seqno}: ${shard.txCount} transactions, cap ${cap} (+1 external)`);
    assert.ok(shard.txCount >= cap, 'the loop fills every block up to the cap');
    assert.ok(chain.stats().pendingMessages > 0, 'the loop is still going');
  }
  assert.deepEqual(seqnos, [1, 2, 3, 4], 'blocks kept coming');

  // an external sent meanwhile is not held up by the loop
  const sent = await chain.sendExternal(v4Send(from, 1, []));
  const mc = await chain.produceBlock();
  assert.equal(chain.getTransactionsByMessage(sent.hash)[0].mcSeqno, mc.id.seqno);

  // the loop's transactions: one per message, each after the message that caused it was created
  const txs = chain.getTransactions(looper.address, { limit: 1000 }).reverse();
  assert.ok(txs.length >= 4 * cap);
  for (let i = 1; i < txs.length; i++) {
    assert.ok(txs[i].lt > txs[i - 1].lt);
    const inMsg = txs[i].tx.inMessage!;
    // each message was sent by the loop's previous transaction (as its only out message: lt + 1)
    assert.ok(inMsg.info.type === 'internal' && inMsg.info.createdLt === txs[i - 1].lt + 1n);
  }
});

test('a message flood does not stretch the block interval: delivery before sealing has a time budget', async (t) => {
  // default cap (10,000 transactions, ~15 s of execution); budget = half of a 100 ms interval
  const { chain } = await openChain(t, { blockIntervalMs: 100 });
  const from = await testFaucet();
  await chain.sendExternal(v4Send(from, 0, [deployMessage(LOOPER_CODE, toNano('100')).message]));
  for (let i = 0; i < 3; i++) {
    const mc = await chain.produceBlock();
    const shard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: mc.id.seqno })!;
    assert.ok(
      shard.txCount > 0 && shard.txCount < 10_000,
      `block ${mc.id.seqno}: ${shard.txCount} transactions, sealed well before the cap`,
    );
    assert.ok(chain.stats().pendingMessages > 0);
  }
});
