/**
 * The Redis limiter decides a call's decisions of one identity (one limit, one instant) as one group. Its answers
 * must be exactly those of the script that decided them one by one (support/per-decision-sliding-log.ts): the same
 * decisions sent to both, on lists of their own in the real Redis, on a caller's clock, compared decision by decision
 * and list by list.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { ManualClock } from '../../src/util/clock.js';
import { RedisSlidingLog } from '../../src/access/limiter/redis-sliding-log.js';
import type { LimitResult } from '../../src/access/limiter/limiter.js';
import { REDIS_URL, requireService, uniqueName } from '../support/services.js';
import { decideOneByOne, type Decision } from './support/per-decision-sliding-log.js';

const WINDOW = 1000;

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sends one batch (one event-loop turn) to the grouped limiter, each decision at its own instant of the clock. */
async function decideGrouped(log: RedisSlidingLog, clock: ManualClock, decisions: Decision[]): Promise<LimitResult[]> {
  const before = log.calls;
  const answers = decisions.map((d) => {
    clock.set(d.at);
    return log.consume(d.identity, d.limit);
  });
  const results = await Promise.all(answers);
  assert.equal(log.calls - before, 1, 'one batch, one script call');
  return results;
}

async function compareLists(redis: Redis, grouped: string, oneByOne: string, identities: string[]): Promise<void> {
  for (const id of identities) {
    const mine = await redis.lrange(`${grouped}:rl:{${id}}`, 0, -1);
    const reference = await redis.lrange(`${oneByOne}:rl:{${id}}`, 0, -1);
    assert.deepEqual(mine, reference, `list of ${id}`);
    const [ttl, referenceTtl] = [await redis.pttl(`${grouped}:rl:{${id}}`), await redis.pttl(`${oneByOne}:rl:{${id}}`)];
    // Both lists expire (or both are gone), on the same rule: within the few ms between the two reads.
    assert.equal(ttl > 0, referenceTtl > 0, `${id} expires in ${ttl} ms, the reference's in ${referenceTtl} ms`);
    if (ttl > 0) assert.ok(Math.abs(ttl - referenceTtl) < 5_000, `${id}: ${ttl} against ${referenceTtl} ms`);
  }
}

test('grouped decisions answer exactly as one by one: random mixed batches on a caller clock', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = new Redis(REDIS_URL);
  const grouped = uniqueName('tg_grouped');
  const oneByOne = uniqueName('tg_one_by_one');
  const clock = new ManualClock(1_000_000);
  const log = new RedisSlidingLog({ redis, prefix: grouped, clock, timeoutMs: 10_000 });
  const identities = ['a', 'b', 'c', 'd'];
  try {
    for (const seed of [1, 2, 3]) {
      const random = rng(seed);
      const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
      // Each identity's usual limit; now and then a decision asks a lower one (below what its list holds) or a higher one.
      const usual = new Map(identities.map((id) => [id, pick([1, 2, 3, 5, 8, 20])]));
      let at = 1_000_000 + seed * 1_000_000;
      let decided = 0;
      let admitted = 0;
      let refused = 0;
      for (let batch = 0; batch < 150; batch++) {
        at += Math.floor(random() * 400);
        const decisions: Decision[] = [];
        const size = 1 + Math.floor(random() * 40);
        let id = pick(identities);
        for (let i = 0; i < size; i++) {
          // Runs of one identity (as one client's requests arrive), interleaved with the others'.
          if (random() < 0.3) id = pick(identities);
          // Mostly one instant per batch (as with Redis's TIME), sometimes a later one in the middle of a run.
          if (random() < 0.1) at += Math.floor(random() * 50);
          const r = random();
          const limit = r < 0.1 ? 1 + Math.floor(random() * 2) : r < 0.15 ? usual.get(id)! + 5 : usual.get(id)!;
          decisions.push({ identity: id, limit, at });
        }
        const mine = await decideGrouped(log, clock, decisions);
        const reference = await decideOneByOne(redis, oneByOne, WINDOW, decisions);
        for (let i = 0; i < decisions.length; i++) {
          assert.deepEqual(mine[i], reference[i], `seed ${seed}, batch ${batch}, decision ${i} (${JSON.stringify(decisions[i])})`);
          if (mine[i].allowed) admitted++;
          else refused++;
        }
        decided += decisions.length;
      }
      await compareLists(redis, grouped, oneByOne, identities);
      // The batches must have exercised both answers, or the comparison proves little.
      assert.ok(admitted > decided / 10 && refused > decided / 10, `seed ${seed}: ${admitted} admitted, ${refused} refused`);
      t.diagnostic(`seed ${seed}: ${decided} decisions, ${admitted} admitted, ${refused} refused: the same answers`);
    }
  } finally {
    redis.disconnect();
  }
});

test('grouped decisions answer exactly as one by one: the cases by name', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = new Redis(REDIS_URL);
  const grouped = uniqueName('tg_grouped_cases');
  const oneByOne = uniqueName('tg_one_by_one_cases');
  const clock = new ManualClock(1_000_000);
  const log = new RedisSlidingLog({ redis, prefix: grouped, clock, timeoutMs: 10_000 });
  const both = async (decisions: Decision[]): Promise<LimitResult[]> => {
    const mine = await decideGrouped(log, clock, decisions);
    assert.deepEqual(mine, await decideOneByOne(redis, oneByOne, WINDOW, decisions));
    return mine;
  };
  const many = (identity: string, limit: number, at: number, n: number): Decision[] =>
    Array.from({ length: n }, () => ({ identity, limit, at }));
  try {
    // Limit reached in the middle of a group, three identities interleaved.
    const first = await both([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({ identity: `x${i % 3}`, limit: 2, at: 10_000 })));
    assert.deepEqual(
      first.map((a) => a.allowed),
      [true, true, true, true, true, true, false, false, false],
    );
    // Half a window later: the window is full, each refused one is told when its slot frees.
    const full = await both(many('x0', 2, 10_500, 3));
    assert.deepEqual(
      full.map((a) => [a.allowed, a.resetMs]),
      [
        [false, 500],
        [false, 500],
        [false, 500],
      ],
    );
    // A limit raised in the middle of a call: a new group on the same list, after the first.
    await both([...many('x1', 2, 10_600, 2), ...many('x1', 4, 10_600, 3), ...many('x1', 2, 10_600, 1)]);
    // A limit lowered below the list's length (4 entries, limit 1): refused, told when the newest-but-0 leaves.
    await both(many('x1', 1, 10_700, 2));
    // Entries leave the window between two instants of one call: trimmed at the later one only.
    await both([...many('x2', 2, 10_900, 2), ...many('x2', 2, 11_000, 3), ...many('x2', 2, 11_000, 1)]);
    // An empty list (a new identity) filled beyond its limit by one group: the first admission is the oldest.
    const fresh = await both(many('y', 3, 12_000, 5));
    assert.deepEqual(
      fresh.map((a) => [a.allowed, a.remaining, a.resetMs]),
      [
        [true, 2, 1000],
        [true, 1, 1000],
        [true, 0, 1000],
        [false, 0, 1000],
        [false, 0, 1000],
      ],
    );
    await compareLists(redis, grouped, oneByOne, ['x0', 'x1', 'x2', 'y']);
  } finally {
    redis.disconnect();
  }
});

test("on Redis's clock a group has one instant: limit reached in the middle of a group, identities interleaved", async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = new Redis(REDIS_URL);
  const prefix = uniqueName('tg_grouped_time');
  const log = new RedisSlidingLog({ redis, prefix, timeoutMs: 10_000 });
  try {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => log.consume(`id${i % 3}`, 4)));
    assert.equal(log.calls, 1, 'one turn, one call');
    for (const id of [0, 1, 2]) {
      const mine = answers.filter((_, i) => i % 3 === id);
      assert.deepEqual(
        mine.map((a) => [a.allowed, a.remaining]),
        [[true, 3], [true, 2], [true, 1], [true, 0], ...Array.from({ length: 6 }, () => [false, 0])],
        `id${id}`,
      );
      // All at one instant: the oldest entry is one of this call's, so both waits are one whole window.
      for (const a of mine) assert.equal(a.resetMs, WINDOW, `id${id}: resetMs ${a.resetMs}`);
      assert.equal(await redis.llen(`${prefix}:rl:{id${id}}`), 4);
    }
  } finally {
    redis.disconnect();
  }
});
