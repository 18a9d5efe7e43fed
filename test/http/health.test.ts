/**
 * /healthcheck of a local chain: stale (503) when its producer has gone ten block intervals without sealing a block
 * it owed, not when its newest block is merely old (a restart after downtime, a slow start-up, the chain's time moved
 * by a control). Time is a ManualClock: nothing here waits for a block timer (an hour between blocks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { staleAfter } from '../../src/http/health.js';
import { getJson, startTestTongate } from '../support/tongate.js';
import { tempDir } from '../chain/local/support/local-chain.js';

const INTERVAL = 3_600_000; // startTestTongate's block interval

test('/healthcheck: a chain restarted after a day down is ok at once; stale once ten intervals pass without a block', async (t) => {
  const clock = new ManualClock(1_750_000_000_000);
  const dataDir = tempDir(t);
  const before = await startTestTongate({ ephemeral: false, dataDir }, {}, { clock });
  await before.chain('mainnet').produceBlock();
  await before.stop();

  clock.advance(86_400_000);
  const gate = await startTestTongate({ ephemeral: false, dataDir }, {}, { clock });
  t.after(() => gate.stop());
  const url = `${gate.url('mainnet')}/healthcheck`;
  let health = await getJson(url);
  assert.equal(health.status, 200, JSON.stringify(health.body));
  assert.equal(health.body.status, 'ok');
  assert.equal(health.body.mining, 'auto');
  assert.ok(health.body.last_block_age_ms >= 86_400_000, `the newest block's age is told as it is (${health.body.last_block_age_ms} ms)`);

  clock.advance(staleAfter(INTERVAL));
  assert.equal((await getJson(url)).status, 200, 'ten intervals without a block: not yet stale');
  clock.advance(1);
  health = await getJson(url);
  assert.equal(health.status, 503, JSON.stringify(health.body));
  assert.equal(health.body.status, 'stale');
  assert.equal((await getJson(`${gate.url('testnet')}/healthcheck`)).status, 503, 'the other network owes its block too');

  await gate.chain('mainnet').produceBlock();
  health = await getJson(url);
  assert.equal(health.status, 200, 'a sealed block: healthy again');
  assert.equal(health.body.status, 'ok');
});

test("/healthcheck: moving the chain's time a month ahead does not make it stale", async (t) => {
  const clock = new ManualClock(1_750_000_000_000);
  const gate = await startTestTongate({ adminToken: 'health-test-admin' }, {}, { clock });
  t.after(() => gate.stop());
  await gate.chain('testnet').increaseTime(30 * 86_400);
  const health = await getJson(`${gate.url('testnet')}/healthcheck`);
  assert.equal(health.status, 200, JSON.stringify(health.body));
  assert.ok(health.body.last_block_age_ms >= 30 * 86_400_000, "the newest block is a month old on the chain's clock");
});
