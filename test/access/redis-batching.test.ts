/**
 * The Redis limiter's batching: the decisions of one event-loop turn leave in one script call, a turn's
 * call leaves while earlier ones are still in flight (so no decision waits for another's round trip), and
 * three instances sharing the real Redis, deciding concurrently on an injected clock, hold the seed's rule
 * exactly: no sliding window over N, and as many admitted as an exact limiter could admit.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { ManualClock } from '../../src/util/clock.js';
import { MemorySlidingLog } from '../../src/access/limiter/memory-sliding-log.js';
import { RedisSlidingLog } from '../../src/access/limiter/redis-sliding-log.js';
import { SharedLimiter } from '../../src/access/limiter/shared-limiter.js';
import { CircuitBreaker } from '../../src/util/circuit-breaker.js';
import { REDIS_URL, requireService, uniqueName } from '../support/services.js';
import { PrivateRedis } from './support/private-redis.js';

const WINDOW = 1000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('one script call per event-loop turn, sent while the previous turn is still in flight', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  // A private Redis, frozen: nothing is answered, so every call made is counted before any returns.
  const server = await PrivateRedis.start();
  const redis = new Redis(server.url);
  try {
    await redis.ping();
    const clock = new ManualClock(1_000_000);
    const log = new RedisSlidingLog({ redis, prefix: 'batching', clock, timeoutMs: 10_000 });
    // Load the script while Redis answers (a first call may need EVAL after EVALSHA's NOSCRIPT).
    await log.consume('warm', 1);
    const before = log.calls;
    server.pause();
    const first = Array.from({ length: 30 }, (_, i) => log.consume(`c${i % 3}`, 5));
    await nextTurn();
    assert.equal(log.calls - before, 1, '30 decisions of one turn: one script call');
    const second = Array.from({ length: 30 }, (_, i) => log.consume(`c${i % 3}`, 5));
    await nextTurn();
    assert.equal(log.calls - before, 2, 'the next turn leaves without waiting for the first call to return');
    server.resume();
    const answers = await Promise.all([...first, ...second]);
    // 20 decisions per identity at a limit of 5, all at one instant: exactly 5 admitted each.
    for (const id of [0, 1, 2]) {
      const mine = answers.filter((_, i) => i % 3 === id);
      assert.equal(mine.filter((a) => a.allowed).length, 5, `identity c${id}`);
    }
  } finally {
    redis.disconnect();
    await server.stop();
  }
});

test('three instances sharing Redis, concurrent decisions on an injected clock: no window over N, none refused needlessly', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const prefix = uniqueName('tg_batch3');
  const clock = new ManualClock(1_000_000);
  const connections = [0, 1, 2].map(() => new Redis(REDIS_URL));
  // Each instance as tongate wires it: its own connection, deny cache and breaker.
  const instances = connections.map(
    (redis) =>
      new SharedLimiter({
        remote: new RedisSlidingLog({ redis, prefix, clock, timeoutMs: 5000 }),
        local: new MemorySlidingLog({ clock }),
        breaker: new CircuitBreaker({ clock }),
        failureMode: 'closed',
        clock,
      }),
  );
  try {
    for (const n of [1, 7, 40]) {
      const random = rng(n);
      const identity = `k:${n}`;
      const admitted: number[] = [];
      let oracleAdmitted = 0;
      const oracle: number[] = [];
      let lo = 0;
      // 30 windows at about 4x the limit, in groups of simultaneous requests spread over the three instances.
      for (let at = 0; at < 30 * WINDOW; at += Math.max(1, Math.round(random() * ((2 * WINDOW) / n)))) {
        clock.set(1_000_000 + at);
        const group = 1 + Math.floor(random() * Math.max(1, n / 2));
        const decisions = await Promise.all(
          Array.from({ length: group }, (_, i) => instances[(i + Math.floor(random() * 3)) % 3].consume(identity, n)),
        );
        for (const d of decisions) {
          assert.ok(d !== null, 'Redis answered every decision');
          if (d.allowed) admitted.push(at);
        }
        // The exact limiter's answer for the same arrivals: min(group, room in the window).
        while (lo < oracle.length && oracle[lo] <= at - WINDOW) lo++;
        const room = Math.min(group, n - (oracle.length - lo));
        for (let i = 0; i < room; i++) oracle.push(at);
        oracleAdmitted += room;
      }
      let windowsOver = 0;
      for (let i = 0, j = 0; i < admitted.length; i++) {
        while (admitted[j] <= admitted[i] - WINDOW) j++;
        if (i - j + 1 > n) windowsOver++;
      }
      assert.equal(windowsOver, 0, `N=${n}: windows holding more than N`);
      assert.equal(admitted.length, oracleAdmitted, `N=${n}: admitted as many as an exact limiter`);
      t.diagnostic(`N=${n}: ${admitted.length} admitted over 30 windows by 3 instances, 0 windows over N`);
    }
  } finally {
    for (const redis of connections) redis.disconnect();
  }
});

test('one script call for many decisions of one identity: each list expires one window and a second after its last admission, the oldest entry is told right', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const prefix = uniqueName('tg_batch_ttl');
  const redis = new Redis(REDIS_URL);
  try {
    // Redis's own clock (no injected one): the lists expire in real time, window + 1 s slack.
    const log = new RedisSlidingLog({ redis, prefix, timeoutMs: 10_000 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => log.consume(`id${i % 2}`, 100)));
    assert.equal(log.calls, 1, 'one turn, one call');
    assert.deepEqual(
      answers.map((a) => a.remaining),
      [99, 99, 98, 98, 97, 97, 96, 96, 95, 95, 94, 94],
    );
    // The first admission of each identity is its oldest: the window frees a slot one window after it, never later.
    for (const a of answers) assert.ok(a.resetMs > 0 && a.resetMs <= WINDOW, `resetMs ${a.resetMs}`);
    for (const id of ['id0', 'id1']) {
      const key = `${prefix}:rl:{${id}}`;
      assert.equal(await redis.llen(key), 6);
      const ttl = await redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= WINDOW + 1000, `${key} expires in ${ttl} ms`);
    }
  } finally {
    redis.disconnect();
  }
});
