/**
 * A private redis-server paused and stopped mid-load: no request waits longer than the store
 * timeout, the chosen failure mode decides meanwhile, and two instances hold one limit together
 * again within 5 s of Redis coming back. Real time here (the outage is real); each wait is a poll
 * with a deadline, never a fixed sleep.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessLayer, type AccessLayer, type AccessOptions, type LimiterFailureMode } from '../../src/access/index.js';
import { requireService } from '../support/services.js';
import { embeddedBackend } from './support/backends.js';
import { PrivateRedis } from './support/private-redis.js';

const STORE_TIMEOUT = 50;
/** Scheduling slack on a shared 2-core machine: the bound checked is STORE_TIMEOUT + this. */
const SLACK = 150;

interface Timed {
  status: number;
  ms: number;
}

async function timedCheck(access: AccessLayer, key: string): Promise<Timed> {
  const started = performance.now();
  const d = await access.check({ network: 'mainnet', key, clientIp: '192.0.2.1' });
  return { status: d.allowed ? 200 : d.status, ms: performance.now() - started };
}

/** Sends `count` requests per instance at once; returns the statuses and the slowest decision. */
async function burst(instances: AccessLayer[], key: string, count: number): Promise<{ statuses: number[]; maxMs: number }> {
  const all = await Promise.all(instances.flatMap((a) => Array.from({ length: count }, () => timedCheck(a, key))));
  return { statuses: all.map((r) => r.status), maxMs: Math.max(...all.map((r) => r.ms)) };
}

async function waitFor(what: string, deadlineMs: number, condition: () => Promise<boolean> | boolean): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    assert.ok(Date.now() - started < deadlineMs, `${what} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

async function twoInstances(
  redis: PrivateRedis,
  mode: LimiterFailureMode,
): Promise<{ instances: AccessLayer[]; key: () => Promise<string>; close(): Promise<void> }> {
  const backend = embeddedBackend();
  const options: AccessOptions = {
    ...backend.options,
    redisUrl: redis.url,
    redisPrefix: 'outage',
    limiterFailure: mode,
    storeTimeoutMs: STORE_TIMEOUT,
  };
  const instances = [await createAccessLayer(options), await createAccessLayer(options)];
  return {
    instances,
    // Keys live in the shared SQLite file; a fresh key per phase starts with an empty log.
    key: async () => {
      const { key } = await instances[0].admin!.createKey({ network: 'mainnet', rps: 5 });
      await instances[1].syncKeys();
      return key;
    },
    async close() {
      for (const a of instances) await a.close();
      await backend.cleanup();
    },
  };
}

/** Traffic lets the breakers probe Redis (keyless requests from fresh addresses); true once both use Redis again. */
let probeIp = 0;
async function probeShared(instances: AccessLayer[]): Promise<boolean> {
  for (const a of instances) await a.check({ network: 'mainnet', key: undefined, clientIp: `198.18.0.${++probeIp % 250}` });
  return instances.every((a) => a.status().limiterBreaker === 'closed');
}

function count(statuses: number[], status: number): number {
  return statuses.filter((s) => s === status).length;
}

test('Redis paused then stopped mid-load, failure mode local: no hang, per-instance limits, shared again within 5 s', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = await PrivateRedis.start();
  const { instances, key, close } = await twoInstances(redis, 'local');
  try {
    const healthy = await burst(instances, await key(), 10);
    assert.equal(count(healthy.statuses, 200), 5, 'healthy: two instances hold one limit of 5');

    redis.pause();
    const pausedKey = await key();
    let maxMs = 0;
    const seen: number[] = [];
    // Load for a while: the first decisions time out (<= store timeout), then the breaker answers at once.
    for (let round = 0; round < 6; round++) {
      const b = await burst(instances, pausedKey, 4);
      maxMs = Math.max(maxMs, b.maxMs);
      seen.push(...b.statuses);
    }
    assert.ok(maxMs <= STORE_TIMEOUT + SLACK, `slowest decision while Redis hung: ${maxMs.toFixed(1)} ms`);
    assert.ok(
      instances.every((a) => a.status().limiterBreaker !== 'closed'),
      'breakers opened',
    );
    // local mode: each instance enforces the limit alone, so at most 2 x 5 in this (sub-second) run.
    assert.ok(count(seen, 200) >= 5 && count(seen, 200) <= 10, `admitted while Redis hung: ${count(seen, 200)}`);
    t.diagnostic(
      `Redis paused: slowest decision ${maxMs.toFixed(1)} ms, admitted ${count(seen, 200)} of ${seen.length} (limit 5 per instance)`,
    );

    redis.resume();
    const resumedAfter = await waitFor('shared limits after resume', 5000, () => probeShared(instances));
    const afterResume = await burst(instances, await key(), 10);
    assert.equal(count(afterResume.statuses, 200), 5, 'after resume: one shared limit again');
    t.diagnostic(`Redis resumed: shared limits back after ${resumedAfter} ms`);

    await redis.stop();
    const stoppedKey = await key();
    const down = await burst(instances, stoppedKey, 10);
    const down2 = await burst(instances, stoppedKey, 10);
    assert.ok(Math.max(down.maxMs, down2.maxMs) <= STORE_TIMEOUT + SLACK, 'no hang with Redis down');
    assert.equal(count([...down.statuses, ...down2.statuses], 200), 10, 'Redis down: each instance admits its own 5');

    const restartedAt = Date.now();
    await redis.restart();
    const recoverKey = await key();
    await waitFor('shared limits after restart', 5000, () => probeShared(instances));
    const recoveredMs = Date.now() - restartedAt;
    const recovered = await burst(instances, recoverKey, 10);
    assert.equal(count(recovered.statuses, 200), 5, 'after restart: one shared limit again');
    assert.ok(recoveredMs <= 5000);
    t.diagnostic(`Redis restarted: shared limits back after ${recoveredMs} ms`);
  } finally {
    await close();
    await redis.stop();
  }
});

test('Redis down, failure mode closed: 503 at once; mode open: admitted', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = await PrivateRedis.start();
  const closed = await twoInstances(redis, 'closed');
  const open = await twoInstances(redis, 'open');
  try {
    const k1 = await closed.key();
    const k2 = await open.key();
    await redis.stop();
    const c = await burst(closed.instances, k1, 10);
    assert.deepEqual([...new Set(c.statuses)], [503]);
    const d = await closed.instances[0].check({ network: 'mainnet', key: k1, clientIp: '192.0.2.1' });
    assert.equal(d.allowed, false);
    if (!d.allowed) {
      assert.equal(d.status, 503);
      assert.deepEqual(d.body, { ok: false, error: 'Rate limiter unavailable, retry later', code: 503 });
      assert.equal(d.headers['retry-after'], '1');
    }
    const o = await burst(open.instances, k2, 10);
    assert.deepEqual([...new Set(o.statuses)], [200]);
    assert.ok(Math.max(c.maxMs, o.maxMs) <= STORE_TIMEOUT + SLACK);
  } finally {
    await closed.close();
    await open.close();
    await redis.stop();
  }
});
