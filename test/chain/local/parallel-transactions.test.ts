import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internal, parseTuple, toNano } from '@ton/core';
import { EmulatorPool } from '../../../src/chain/emulator/index.js';
import { WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { openChain, testFaucet, testWallet, v4Send, v4Transfer } from './support/local-chain.js';

const WALLETS = 8;
const TRANSFERS = 6;

test('transactions of independent accounts run on two emulator workers; every history stays exact and in lt order', async (t) => {
  const pool = new EmulatorPool({ txWorkers: 2 });
  t.after(() => pool.close());
  const { chain } = await openChain(t, { emulators: pool });
  const faucet = await testFaucet();
  const wallets = Array.from({ length: WALLETS }, (_, i) => testWallet(100 + i));
  const dests = Array.from({ length: WALLETS }, (_, i) => testWallet(150 + i).wallet.address);
  // fund the wallets (4 messages per faucet transfer): the first worker gets busy, so the second starts
  for (let i = 0; i < WALLETS; i += 4) {
    const batch = wallets.slice(i, i + 4).map((w) => internal({ to: w.wallet.address, value: toNano('100'), bounce: false }));
    await chain.sendExternal(v4Send(faucet, i / 4, batch));
  }
  await chain.produceBlock();
  for (let i = 0; i < 500 && !(pool.stats().tx.length === 2 && pool.stats().tx.every((w) => w.ready)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20)); // waiting for a thread to load, not checking a time rule
  }
  assert.equal(pool.stats().tx.length, 2, 'a second transaction worker was started while the first was busy');
  const servedBefore = pool.stats().tx.map((w) => w.served);

  // every wallet sends all its transfers at once: seqno order within a wallet, interleaved across wallets
  const sends: Promise<unknown>[] = [];
  for (let seqno = 0; seqno < TRANSFERS; seqno++) {
    for (let w = 0; w < WALLETS; w++)
      sends.push(chain.sendExternal(v4Transfer(wallets[w], seqno, dests[w], toNano('1'), { deploy: seqno === 0 })));
  }
  await Promise.all(sends);
  const mc = await chain.produceBlock();
  const served = pool.stats().tx.map((w, i) => w.served - servedBefore[i]);
  assert.ok(
    served.every((n) => n > 0),
    `both transaction workers ran some (${served.join(', ')})`,
  );

  const shard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: mc.id.seqno })!;
  assert.equal(shard.txCount, 2 * WALLETS * TRANSFERS, 'each transfer and its delivery, all in one block');
  const page = chain.blockTransactions({ workchain: 0, shard: WHOLE_SHARD, seqno: mc.id.seqno }, { count: 1000 });
  const lts = page.transactions.map((x) => x.lt).sort((a, b) => (a < b ? -1 : 1));
  assert.equal(new Set(lts.map(String)).size, lts.length, 'no two transactions share an lt');
  assert.ok(lts[0] > shard.startLt && lts[lts.length - 1] < shard.endLt, 'every lt inside the block range');

  for (let w = 0; w < WALLETS; w++) {
    const seqno = await chain.runGetMethod(wallets[w].wallet.address, 'seqno', []);
    assert.deepEqual(parseTuple(seqno.stackBoc), [{ type: 'int', value: BigInt(TRANSFERS) }]);
    const history = chain.getTransactions(wallets[w].wallet.address, { limit: 100 });
    assert.equal(history.length, TRANSFERS + 1, 'funding + every transfer');
    for (let i = 0; i + 1 < history.length; i++) {
      // newest first; each transaction points at the one before it
      assert.equal(history[i].tx.prevTransactionLt, history[i + 1].lt);
      assert.ok(history[i].lt > history[i + 1].lt);
    }
    const received = chain.getTransactions(dests[w], { limit: 100 });
    assert.equal(received.length, TRANSFERS, `destination ${w} got every transfer`);
    assert.ok(chain.getAccount(dests[w]).balance > toNano(TRANSFERS - 0.1));
  }
});
