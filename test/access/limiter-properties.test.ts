/**
 * The limiter's contract, checked against an independent oracle on random arrival sequences with an
 * injected clock (no sleeping): never more than N admitted in any window, every refusal necessary
 * (N admitted in the window at that instant), the wait it reports exact, refused requests recording
 * nothing, K simultaneous requests admitting exactly min(K, N). Runs on the memory limiter and on the
 * Redis limiter (through the SharedLimiter, deny cache included).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { ManualClock } from '../../src/util/clock.js';
import { MemorySlidingLog } from '../../src/access/limiter/memory-sliding-log.js';
import { RedisSlidingLog } from '../../src/access/limiter/redis-sliding-log.js';
import { SharedLimiter } from '../../src/access/limiter/shared-limiter.js';
import { CircuitBreaker } from '../../src/util/circuit-breaker.js';
import type { LimitResult } from '../../src/access/limiter/limiter.js';
import { retryAfterSeconds } from '../../src/access/decision.js';
import { REDIS_URL, requireService, uniqueName } from '../support/services.js';

const WINDOW = 1000;

type Consume = (identity: string, limit: number) => LimitResult | null | Promise<LimitResult | null>;

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Arrival times over `windows` seconds, about `load` x N per second, with bursts at one instant. Microsecond grid. */
function arrivals(random: () => number, n: number, load: number, windows: number): number[] {
  const times: number[] = [];
  let t = 0;
  const meanGap = WINDOW / (n * load);
  while (t < windows * WINDOW) {
    const burst = random() < 0.1 ? 1 + Math.floor(random() * n) : 1;
    for (let i = 0; i < burst; i++) times.push(t);
    t += Math.round(-Math.log(1 - random()) * meanGap * 1000 * burst) / 1000;
  }
  return times;
}

/** Drives `consume` through the arrivals and checks every decision against the definition. */
async function checkAgainstOracle(
  consume: Consume,
  clock: ManualClock,
  identity: string,
  n: number,
  times: number[],
): Promise<{ admitted: number; windowsMax: number }> {
  const start = clock.now();
  const admitted: number[] = [];
  let lo = 0; // admitted[lo..] are inside the current window
  for (const at of times) {
    clock.set(start + at);
    const r = await consume(identity, n);
    assert.ok(r !== null);
    while (lo < admitted.length && admitted[lo] <= at - WINDOW) lo++;
    const inWindow = admitted.length - lo;
    if (r.allowed) {
      assert.ok(inWindow < n, `admitted at ${at} with ${inWindow} already in the window (N=${n})`);
      admitted.push(at);
      assert.equal(r.remaining, n - inWindow - 1, `remaining at ${at}`);
      assert.ok(Math.abs(r.resetMs - (admitted[lo] + WINDOW - at)) < 1e-6, `reset at ${at}`);
    } else {
      // Every refusal necessary: the window held exactly N admissions.
      assert.equal(inWindow, n, `refused at ${at} with only ${inWindow} in the window (N=${n})`);
      // The wait is exact: the oldest admission in the window leaves it then.
      assert.ok(
        Math.abs(r.resetMs - (admitted[lo] + WINDOW - at)) < 1e-6,
        `retry after at ${at}: ${r.resetMs} vs ${admitted[lo] + WINDOW - at}`,
      );
      assert.ok(r.resetMs > 0);
      assert.equal(r.remaining, 0);
    }
  }
  // No window over N, scanned independently of the loop above.
  let windowsMax = 0;
  for (let i = 0, j = 0; i < admitted.length; i++) {
    while (admitted[j] <= admitted[i] - WINDOW) j++;
    windowsMax = Math.max(windowsMax, i - j + 1);
  }
  assert.ok(windowsMax <= n, `a window held ${windowsMax} > ${n}`);
  return { admitted: admitted.length, windowsMax };
}

async function limiterProperties(
  t: TestContext,
  make: (clock: ManualClock) => Promise<{ consume: Consume; close(): Promise<void> }>,
  heavy: boolean,
): Promise<void> {
  // A small epoch keeps microsecond fractions exact in doubles.
  const clock = new ManualClock(1_000_000);
  const limiter = await make(clock);
  try {
    await t.test('random arrivals: matches the sliding-log definition decision by decision', async () => {
      const random = rng(42);
      for (const n of [1, 3, 10, 100]) {
        for (const load of n === 100 && !heavy ? [0.5, 3] : [0.5, 1, 10]) {
          const times = arrivals(random, n, load, 50);
          const identity = `prop-${n}-${load}`;
          const { admitted, windowsMax } = await checkAgainstOracle(limiter.consume, clock, identity, n, times);
          assert.ok(admitted > 0 && windowsMax >= Math.min(n, 1));
          clock.advance(10 * WINDOW);
        }
      }
    });

    await t.test('Retry-After is exact: refused 1 µs before the reported instant, admitted at it', async () => {
      for (const n of [1, 5]) {
        const id = `retry-${n}`;
        for (let i = 0; i < n; i++) {
          assert.equal((await limiter.consume(id, n))!.allowed, true);
          clock.advance(37.5);
        }
        const refused = (await limiter.consume(id, n))!;
        assert.equal(refused.allowed, false);
        assert.equal(refused.resetMs, WINDOW - 37.5 * n);
        assert.equal(retryAfterSeconds(refused.resetMs), 1);
        clock.advance(refused.resetMs - 0.001);
        assert.equal((await limiter.consume(id, n))!.allowed, false, 'refused just before');
        clock.advance(0.001);
        assert.equal((await limiter.consume(id, n))!.allowed, true, 'admitted at the instant');
        clock.advance(10 * WINDOW);
      }
    });

    await t.test('K simultaneous requests of one client admit exactly min(K, N)', async () => {
      for (const [k, n] of [
        [50, 10],
        [5, 10],
        [200, 100],
        [30, 1],
      ]) {
        const id = `simultaneous-${k}-${n}`;
        const results = await Promise.all(Array.from({ length: k }, () => limiter.consume(id, n)));
        assert.equal(results.filter((r) => r!.allowed).length, Math.min(k, n), `K=${k} N=${n}`);
        clock.advance(10 * WINDOW);
      }
    });

    await t.test('a lower limit takes effect at once, a higher one too, without forgetting admissions', async () => {
      const id = 'resize';
      for (let i = 0; i < 8; i++) assert.equal((await limiter.consume(id, 10))!.allowed, true);
      clock.advance(500);
      assert.equal((await limiter.consume(id, 5))!.allowed, false, '8 admitted in the window > new limit 5');
      assert.equal((await limiter.consume(id, 9))!.allowed, true, 'raised to 9: one more');
      assert.equal((await limiter.consume(id, 9))!.allowed, false);
      clock.advance(500);
      // The first 8 left the window; the one admitted at 500 remains.
      const r = (await limiter.consume(id, 2))!;
      assert.equal(r.allowed, true);
      assert.equal(r.remaining, 0);
      clock.advance(10 * WINDOW);
    });
  } finally {
    await limiter.close();
  }
}

test('memory sliding log: limiter properties', async (t) => {
  await limiterProperties(
    t,
    async (clock) => {
      const memory = new MemorySlidingLog({ clock });
      return { consume: (id, n) => memory.consume(id, n), close: () => memory.close() };
    },
    true,
  );
});

test('Redis sliding log (through SharedLimiter): limiter properties', async (t) => {
  if (!(await requireService(t, 'redis'))) return;
  const prefix = uniqueName('tg_prop');
  const connections: Redis[] = [];
  await limiterProperties(
    t,
    async (clock) => {
      // Two connections, alternately used: like two instances sharing one Redis.
      const shared = [0, 1].map(() => {
        const redis = new Redis(REDIS_URL);
        connections.push(redis);
        return new SharedLimiter({
          remote: new RedisSlidingLog({ redis, prefix, clock, timeoutMs: 1000 }),
          local: new MemorySlidingLog({ clock }),
          breaker: new CircuitBreaker({ clock }),
          failureMode: 'closed',
          clock,
        });
      });
      let turn = 0;
      return {
        consume: (id, n) => shared[turn++ % 2].consume(id, n),
        close: async () => {
          for (const r of connections) r.disconnect();
        },
      };
    },
    false,
  );
});

test('memory sliding log: bounded memory, dead identities swept, live ones never evicted', () => {
  const clock = new ManualClock();
  const limiter = new MemorySlidingLog({ clock, maxIdentities: 1000 });
  for (let i = 0; i < 1000; i++) assert.equal(limiter.consume(`ip:${i}`, 1).allowed, true);
  // Full of live identities: a newcomer is refused rather than someone's history forgotten.
  const newcomer = limiter.consume('ip:new', 1);
  assert.equal(newcomer.allowed, false);
  assert.equal(limiter.consume('ip:5', 1).allowed, false, 'a live identity keeps its log');
  clock.advance(WINDOW);
  assert.equal(limiter.consume('ip:new', 1).allowed, true, 'after the window dead identities make room');
  // Keep deciding for one identity: the incremental sweep drops the others.
  for (let i = 0; i < 3000; i++) limiter.consume('ip:busy', 1_000_000);
  assert.ok(limiter.size <= 3, `swept down to ${limiter.size}`);
});

test('memory sliding log: a clock stepping backwards never admits more than N', () => {
  const clock = new ManualClock();
  const limiter = new MemorySlidingLog({ clock });
  assert.equal(limiter.consume('c', 2).allowed, true);
  clock.advance(900);
  assert.equal(limiter.consume('c', 2).allowed, true);
  clock.advance(-5000);
  assert.equal(limiter.consume('c', 2).allowed, false);
  clock.advance(5000 + 100);
  assert.equal(limiter.consume('c', 2).allowed, true, 'the first admission has left the window');
});
