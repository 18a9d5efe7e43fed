/**
 * `msWithoutBlock`: how long auto mining has gone without sealing a block, what /healthcheck calls a stuck producer.
 * Measured from the last seal or from the start of auto mining, whichever is later, on the injected clock: a chain
 * whose start-up was slow (the genesis block sealed long before `start()`), or whose own time a control moved, is
 * not late.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openChain } from './support.js';

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
