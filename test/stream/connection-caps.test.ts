/**
 * The per-key cap counted across instances through a real Redis: two counters with the same prefix stand for two
 * tongate instances; together they admit exactly the cap, a release on one frees a place for the other, and
 * simultaneous connects admit exactly the cap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RedisCaps } from '../../src/stream/connection-caps.js';
import { REDIS_URL, requireService, uniqueName } from '../support/services.js';

const noTimers = { every: () => () => undefined };

test('two instances sharing Redis hold one cap per key', async (t) => {
  if (!(await requireService(t, 'redis'))) return;
  const prefix = uniqueName('stream_caps');
  const warnings: unknown[] = [];
  const a = new RedisCaps(REDIS_URL, prefix, noTimers, (e) => warnings.push(e));
  const b = new RedisCaps(REDIS_URL, prefix, noTimers, (e) => warnings.push(e));
  t.after(async () => {
    await a.close();
    await b.close();
  });
  assert.equal(await a.acquire('k1', 'a:1', 2), true);
  assert.equal(await b.acquire('k1', 'b:1', 2), true);
  assert.equal(await a.acquire('k1', 'a:2', 2), false, 'the third, on either instance, is refused');
  assert.equal(await b.acquire('k1', 'b:2', 2), false);
  assert.equal(await b.acquire('k2', 'b:3', 2), true, 'another key has its own count');
  a.release('k1', 'a:1');
  // The release is sent without waiting; the next command on the same connection comes after it.
  assert.equal(await a.acquire('k1', 'a:3', 2), true);
  const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).acquire('k3', `burst:${i}`, 3)));
  assert.equal(burst.filter(Boolean).length, 3);
  assert.deepEqual(warnings, []);
});
