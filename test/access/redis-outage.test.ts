/**
 * A private redis-server paused and stopped mid-load: every decision is still answered (the store
 * timeout: without it a burst against a paused Redis would never return), the chosen failure mode decides
 * meanwhile, and two instances hold one limit together again once Redis is back. Real time here (the outage
 * is real); each wait is a poll bounded only against a hang, never a fixed sleep, and no figure is asserted.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessLayer, type AccessLayer, type AccessOptions, type LimiterFailureMode } from '../../src/access/index.js';
import { requireService } from '../support/services.js';
import { embeddedBackend } from './support/backends.js';
import { PrivateRedis } from './support/private-redis.js';

const STORE_TIMEOUT = 50;
/** Only stops a hang (ioredis reconnects within a second or so); no figure is asserted. */
const HANG_MS = 60_000;

async function statusOf(access: AccessLayer, key: string): Promise<number> {
  const d = await access.check({ network: 'mainnet', key, clientIp: '192.0.2.1' });
  return d.allowed ? 200 : d.status;
}

/** Sends `count` requests per instance at once; returns the statuses. */
async function burst(instances: AccessLayer[], key: string, count: number): Promise<{ statuses: number[] }> {
  const all = await Promise.all(instances.flatMap((a) => Array.from({ length: count }, () => statusOf(a, key))));
  return { statuses: all };
}

async function waitFor(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    assert.ok(Date.now() - started < HANG_MS, `${what}: still not after ${HANG_MS} ms (a hang)`);
    await new Promise((r) => setTimeout(r, 20));
  }
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

test('Redis paused then stopped mid-load, failure mode local: no hang, per-instance limits, shared again once back', async (t: TestContext) => {
  if (!(await requireService(t, 'redis'))) return;
  const redis = await PrivateRedis.start();
  const { instances, key, close } = await twoInstances(redis, 'local');
  try {
    const healthy = await burst(instances, await key(), 10);
    assert.equal(count(healthy.statuses, 200), 5, 'healthy: two instances hold one limit of 5');

    redis.pause();
    const pausedKey = await key();
    const seen: number[] = [];
    // Load for a while: the first decisions time out (the store timeout), then the breaker answers at once.
    for (let round = 0; round < 6; round++) {
      const b = await burst(instances, pausedKey, 4);
      seen.push(...b.statuses);
    }
    assert.ok(
      instances.every((a) => a.status().limiterBreaker !== 'closed'),
      'breakers opened',
    );
    // local mode: each instance enforces the limit alone, so at most 2 x 5 in this (sub-second) run.
    assert.ok(count(seen, 200) >= 5 && count(seen, 200) <= 10, `admitted while Redis hung: ${count(seen, 200)}`);

    redis.resume();
    await waitFor('shared limits after resume', () => probeShared(instances));
    const afterResume = await burst(instances, await key(), 10);
    assert.equal(count(afterResume.statuses, 200), 5, 'after resume: one shared limit again');

    await redis.stop();
    const stoppedKey = await key();
    const down = await burst(instances, stoppedKey, 10);
    const down2 = await burst(instances, stoppedKey, 10);
    assert.equal(count([...down.statuses, ...down2.statuses], 200), 10, 'Redis down: each instance admits its own 5');

    await redis.restart();
    const recoverKey = await key();
    await waitFor('shared limits after restart', () => probeShared(instances));
    const recovered = await burst(instances, recoverKey, 10);
    assert.equal(count(recovered.statuses, 200), 5, 'after restart: one shared limit again');
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
  } finally {
    await closed.close();
    await open.close();
    await redis.stop();
  }
});
