/**
 * `msWithoutBlock`: how long auto mining has gone without sealing a block, what /healthcheck calls a stuck producer.
 * Measured from the last seal or from the start of auto mining, whichever is later, on the injected clock: a chain
 * whose start-up was slow (the genesis block sealed long before `start()`), or whose own time a control moved, is
 * not late.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internal } from '@ton/core';
import { EmulatorPool } from '../../../src/chain/emulator/emulator-pool.js';
import { INDEX_NICE } from '../../../src/util/thread-priority.js';
import { INFINITE_GETTER_CODE, deployMessage, openChain, testFaucet, testWallet, toNano, v4Send } from './support/local-chain.js';

// An hour between blocks: the block timer never fires during the test, every block here is asked for.
const HOUR = 3_600_000;

test('a block is due an interval after start(), not since the genesis block: a slow start-up is no stall', async (t) => {
  const { chain, clock } = await openChain(t, { blockIntervalMs: HOUR });
  assert.equal(chain.masterchainInfo().last.id.seqno, 0);
  assert.equal(chain.msWithoutBlock(), undefined, 'nothing is due before start()');

  clock.advance(60_000); // the rest of the start-up took a minute (a cold compile on a loaded machine)
  chain.start();
  assert.equal(chain.msWithoutBlock(), 0, 'the head is a minute old, but production only began');
  clock.advance(5_000);
  assert.equal(chain.msWithoutBlock(), 5_000);

  await chain.produceBlock();
  assert.equal(chain.msWithoutBlock(), 0, 'a seal starts the count again');
  clock.advance(7_000);
  await chain.increaseTime(86_400);
  assert.equal(chain.msWithoutBlock(), 7_000, "the chain's own time jumped a day; the producer is not a day late");
});

test('manual mining has no block due; switching back to auto mining starts the count afresh', async (t) => {
  const { chain, clock } = await openChain(t, { blockIntervalMs: HOUR });
  chain.start();
  chain.setMiningMode({ mode: 'manual' });
  assert.equal(chain.msWithoutBlock(), undefined);
  clock.advance(HOUR * 5);
  await chain.mine();
  assert.equal(chain.msWithoutBlock(), undefined, 'a mined block makes none due');

  clock.advance(HOUR);
  chain.setMiningMode({ mode: 'auto' });
  assert.equal(chain.msWithoutBlock(), 0);
  clock.advance(2_000);
  assert.equal(chain.msWithoutBlock(), 2_000);
  await chain.stop();
  assert.equal(chain.msWithoutBlock(), undefined, 'a stopped chain produces nothing');
});

test("blocks are sealed while the index's get-method worker is held: production never waits for a SCHED_IDLE thread", async (t) => {
  // The index's threads and its get-method worker run in SCHED_IDLE (util/thread-priority.ts): under a full load
  // from other processes they get no CPU at all, so nothing the producer does may wait for them. Held here by
  // get-methods that each burn their whole gas limit (~0.5-2 s of CPU apiece, asked all at once).
  const pool = new EmulatorPool({ txWorkers: 1, readWorkers: 1 });
  const { chain } = await openChain(t, { blockIntervalMs: HOUR, emulators: pool });
  t.after(() => pool.close());
  const from = await testFaucet();
  const looping = deployMessage(INFINITE_GETTER_CODE, toNano('1'));
  await chain.sendExternal(v4Send(from, 0, [looping.message]));
  await chain.produceBlock();

  let answered = 0;
  const held = Promise.allSettled(
    Array.from({ length: 12 }, () =>
      chain.runGetMethod(looping.address, 'forever', [], undefined, { nice: INDEX_NICE }).finally(() => answered++),
    ),
  );
  const to = testWallet(43).wallet.address;
  const sent = await chain.sendExternal(v4Send(from, 1, [internal({ to, value: toNano('2'), bounce: false })]));
  const first = await chain.produceBlock();
  const second = await chain.produceBlock();
  assert.equal(answered, 0, 'every background get-method is still running or waiting');
  assert.equal(chain.getTransactionsByMessage(sent.hash)[0].mcSeqno, first.id.seqno);
  assert.equal(second.id.seqno, first.id.seqno + 1);
  assert.ok(chain.getAccount(to).balance > toNano('1.99'), 'the transfer arrived, delivered in a block of its own');
  await pool.close(); // the held calls fail (closed), rather than burn a minute of CPU after the test
  await held;
});
