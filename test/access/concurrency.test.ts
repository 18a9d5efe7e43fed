/**
 * 200 concurrent clients over real sockets (fastify listening, fetch with 200 requests in flight),
 * told apart by X-Forwarded-For behind a trusted proxy: each keyless client gets exactly its 1
 * request/s, a shared key exactly its N, on both backends. The clock is frozen (ManualClock), so the
 * counts are exact whatever the machine's speed.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { createAccessLayer, type AccessLayer } from '../../src/access/index.js';
import { buildTestApp, HOSTS } from './support/app.js';
import { embeddedBackend, sharedBackend, type Backend } from './support/backends.js';

/** Decisions taken without Redis so far (0 on the embedded backend). */
async function fallbackCount(access: AccessLayer): Promise<number> {
  const text = (await access.metrics.render()).body;
  return [...text.matchAll(/^tongate_limiter_fallback_decisions_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

async function concurrentClients(t: TestContext, backend: Backend): Promise<void> {
  const clock = new ManualClock();
  const access = await createAccessLayer(backend.options, { clock, redisUsesClock: true });
  const app = await buildTestApp(access, { trustProxy: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const get = (path: string, headers: Record<string, string>) =>
    fetch(base + path, { headers: { 'x-forwarded-host': HOSTS.mainnet, ...headers } }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
  try {
    await t.test('200 keyless clients, 3 simultaneous requests each: exactly one admitted per client', async () => {
      const results = await Promise.all(
        Array.from({ length: 600 }, (_, i) =>
          get('/api/v3/masterchainInfo', { 'x-forwarded-for': `10.1.${Math.floor((i % 200) / 100)}.${i % 100}` }),
        ),
      );
      const admittedPer = new Map<number, number>();
      results.forEach((r, i) => {
        assert.ok(r.status === 200 || r.status === 429, `status ${r.status}: ${r.body}`);
        if (r.status === 200) admittedPer.set(i % 200, (admittedPer.get(i % 200) ?? 0) + 1);
      });
      for (const r of results.filter((x) => x.status === 429))
        assert.deepEqual(JSON.parse(r.body), { ok: false, error: 'Ratelimit exceeded', code: 429 });
      assert.equal(admittedPer.size, 200, 'every client was admitted once');
      // Exact while Redis answers within the store timeout. On an overloaded machine a decision may
      // time out: the 'local' failure mode then decides alone, and that instance may admit once more.
      const fallbacks = await fallbackCount(access);
      if (fallbacks === 0) {
        assert.ok(
          [...admittedPer.values()].every((n) => n === 1),
          'no client admitted twice',
        );
        assert.equal(results.filter((r) => r.status === 429).length, 400);
      } else {
        t.diagnostic(`${fallbacks} decisions fell back to local limiting (Redis slower than the store timeout)`);
        assert.ok(
          [...admittedPer.values()].every((n) => n <= 2),
          `local fallback: at most once more per client (${JSON.stringify([...admittedPer].filter(([, n]) => n > 1))})`,
        );
      }
    });

    await t.test('200 clients sharing one key of 50 requests/s: exactly 50 admitted', async () => {
      clock.advance(5000);
      const { key } = await access.admin!.createKey({ network: 'mainnet', rps: 50 });
      // The key's first lookup goes to the store: 200 requests waiting on it, under load, can outwait the test's
      // 100 ms store timeout (503 'API key store unavailable'). Looked up once first (a late answer is still kept);
      // the frozen clock keeps it fresh, and its one admission is counted in the window.
      let warm = { status: 0, body: '' };
      for (let tries = 0; tries < 20 && warm.status !== 200; tries++) warm = await get('/api/v3/masterchainInfo', { 'x-api-key': key });
      assert.equal(warm.status, 200, warm.body);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          get(i % 2 ? `/api/v2/getMasterchainInfo?api_key=${key}` : '/api/v3/masterchainInfo', {
            'x-api-key': i % 2 ? '' : key,
            'x-forwarded-for': `10.2.0.${i}`,
          }),
        ),
      );
      const before = await fallbackCount(access);
      const admitted = results.filter((r) => r.status === 200).length + 1;
      if (before === 0) assert.equal(admitted, 50);
      else assert.ok(admitted >= 50 && admitted <= 100, `admitted ${admitted} with local fallbacks`);
      const other = results.filter((r) => r.status !== 200 && r.status !== 429);
      assert.deepEqual(other, [], 'every answer 200 or 429');
    });

    await t.test('X-Forwarded-For from an untrusted peer is ignored', async () => {
      clock.advance(5000);
      const untrusted = await buildTestApp(access, { trustProxy: false });
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++) {
          const res = await untrusted.inject({
            method: 'GET',
            url: '/api/v3/masterchainInfo',
            headers: { host: HOSTS.mainnet, 'x-forwarded-for': `10.3.0.${i}` },
            remoteAddress: '192.0.2.200',
          });
          statuses.push(res.statusCode);
        }
        assert.deepEqual(statuses, [200, 429, 429]);
      } finally {
        await untrusted.close();
      }
    });
  } finally {
    await app.close();
    await access.close();
  }
}

test('200 concurrent clients on memory + SQLite', async (t) => {
  const backend = embeddedBackend();
  try {
    await concurrentClients(t, backend);
  } finally {
    await backend.cleanup();
  }
});

test('200 concurrent clients on Redis + PostgreSQL', async (t) => {
  const backend = await sharedBackend(t);
  if (!backend) return;
  try {
    await concurrentClients(t, backend);
  } finally {
    await backend.cleanup();
  }
});
