/**
 * RequestUsage (src/access/usage.ts): requests and 429s per key per minute over the last hour, the keyless rule's
 * own series, refusals per network; minutes roll over on the injected clock (no sleeping).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestUsage, USAGE_MINUTES } from '../../src/access/usage.js';
import { ManualClock } from '../../src/util/clock.js';

const MINUTE = 60_000;

test('per key per minute, the keyless rule apart, refusals per network', () => {
  const clock = new ManualClock(1_800_000_000_000 - (1_800_000_000_000 % MINUTE));
  const usage = new RequestUsage(clock);
  usage.count('mainnet', 'k1', 200);
  usage.count('mainnet', 'k1', 200);
  usage.count('mainnet', 'k1', 429);
  usage.count('mainnet', undefined, 200);
  usage.count('mainnet', undefined, 429);
  usage.count('mainnet', undefined, 401); // an unknown key: a refusal, no series
  usage.count('testnet', 'k2', 403);
  clock.advance(MINUTE);
  usage.count('mainnet', 'k1', 200);

  const [mainnet, testnet] = usage.report();
  assert.equal(mainnet.network, 'mainnet');
  assert.equal(mainnet.minutes, USAGE_MINUTES);
  assert.equal(mainnet.from, clock.now() / 1000 - (USAGE_MINUTES - 1) * 60);
  const k1 = mainnet.keys.k1;
  assert.equal(k1.requests.length, USAGE_MINUTES);
  assert.deepEqual(k1.requests.slice(-2), [3, 1]);
  assert.deepEqual(k1.limited.slice(-2), [1, 0]);
  assert.equal(k1.total_requests, 4);
  assert.equal(k1.total_limited, 1);
  assert.equal(mainnet.keyless.total_requests, 2);
  assert.equal(mainnet.keyless.total_limited, 1);
  assert.deepEqual(mainnet.refusals['401'].slice(-2), [1, 0]);
  assert.deepEqual(mainnet.refusals['429'].slice(-2), [2, 0]);
  assert.equal(Object.keys(mainnet.keys).length, 1);
  // A key of another network refused (403) counts as that network's refusal and gets a series (the layer knew it).
  assert.equal(testnet.network, 'testnet');
  assert.equal(testnet.refusals['403'].at(-2), 1);
  assert.equal(testnet.keys.k2.total_requests, 1);
  assert.deepEqual(
    usage.report('testnet').map((u) => u.network),
    ['testnet'],
  );
});

test('an hour later the old minutes are gone, and a slot reused for a new minute starts at zero', () => {
  const clock = new ManualClock(1_800_000_000_000 - (1_800_000_000_000 % MINUTE));
  const usage = new RequestUsage(clock);
  for (let i = 0; i < 5; i++) usage.count('mainnet', 'k', 200);
  clock.advance((USAGE_MINUTES - 1) * MINUTE);
  assert.equal(usage.report()[0].keys.k.requests[0], 5, 'the first minute is still in the window');
  clock.advance(MINUTE);
  assert.equal(usage.report()[0].keys.k.total_requests, 0, 'out of the window');
  usage.count('mainnet', 'k', 200); // the same slot as the first minute
  const k = usage.report()[0].keys.k;
  assert.equal(k.requests.at(-1), 1);
  assert.equal(k.total_requests, 1);
  assert.equal(usage.report('nowhere')[0].keyless.total_requests, 0);
});

test('an admitted request counts in the minute the access layer decided it, though answered in the next', () => {
  const clock = new ManualClock(1_800_000_000_000 - (1_800_000_000_000 % MINUTE) + MINUTE - 1);
  const usage = new RequestUsage(clock);
  const decidedAt = clock.now();
  clock.advance(2); // the answer comes in the next minute
  usage.count('mainnet', 'k', 200, decidedAt);
  usage.count('mainnet', undefined, 401); // not admitted: no instant, the clock says
  const [mainnet] = usage.report();
  assert.deepEqual(mainnet.keys.k.requests.slice(-2), [1, 0]);
  assert.deepEqual(mainnet.refusals['401'].slice(-2), [0, 1]);
});
