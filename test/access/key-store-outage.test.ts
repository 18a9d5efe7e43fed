/**
 * The key store (real PostgreSQL behind a breakable TCP proxy) unreachable or hung: a cached key
 * keeps working, an unknown one gets 503 at the store timeout (on a manual clock: not a millisecond before), never a
 * false 401; back to
 * normal when the store returns. Plus the key cache's own rules: negative entries stop floods of
 * made-up keys at one store lookup, and a lookup that overlaps an invalidation is not cached.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { ManualTimers } from '../support/manual-timers.js';
import { createAccessLayer } from '../../src/access/index.js';
import { CircuitBreaker } from '../../src/util/circuit-breaker.js';
import { KeyDirectory } from '../../src/access/keys/key-directory.js';
import { hashKey } from '../../src/access/keys/key-material.js';
import { PostgresKeyStore } from '../../src/access/keys/postgres-key-store.js';
import { KeyAdmin } from '../../src/access/admin.js';
import { POSTGRES_URL, dropSchema, requireService, uniqueName } from '../support/services.js';
import { TcpProxy } from './support/outage-proxy.js';

const BODY_503 = { ok: false, error: 'API key store unavailable, retry later', code: 503 };

async function pgProxy(): Promise<TcpProxy> {
  const u = new URL(POSTGRES_URL);
  return TcpProxy.start({ host: u.hostname, port: Number(u.port || 5432) });
}

test('key store down or hung: cached keys keep working, unknown keys get 503 (never 401), recovery', async (t: TestContext) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tg_outage');
  const proxy = await pgProxy();
  const clock = new ManualTimers();
  const STORE_TIMEOUT = 50;
  const access = await createAccessLayer(
    {
      enabled: true,
      networks: ['mainnet', 'testnet'],
      databaseUrl: proxy.rewrite(POSTGRES_URL),
      databaseSchema: schema,
      limiterFailure: 'local',
      storeTimeoutMs: STORE_TIMEOUT,
      anonymousRps: 1,
      defaultKeyRps: 10,
    },
    { clock },
  );
  const check = async (key: string) => ({ d: await access.check({ network: 'mainnet', key, clientIp: '192.0.2.9' }) });
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  let waitedForTheTimeout = 0;
  /**
   * A key the cache lacks while the store is in trouble. Hung, the store never answers: the request waits for the
   * store timeout on the clock's timer, is still waiting a millisecond before it, and is answered at it (until
   * the breaker opens: then at once). Down, the refusal may come first or the timeout: 503 either way.
   */
  const checkUnseen = async (key: string, mode: 'down' | 'hang') => {
    const timersBefore = clock.scheduled;
    let settled = false;
    const pending = check(key).finally(() => (settled = true));
    await turns(3);
    if (mode === 'hang' && !settled) {
      assert.equal(clock.scheduled, timersBefore + 1, 'the wait is on the clock: one timer more');
      clock.advance(STORE_TIMEOUT - 1);
      await turns(3);
      assert.equal(settled, false, 'still waiting 1 ms before the store timeout');
      clock.advance(1);
      waitedForTheTimeout++;
    } else clock.advance(STORE_TIMEOUT);
    return pending;
  };
  try {
    const known = await access.admin!.createKey({ network: 'mainnet', rps: 1000 });
    const unseenKeys = {
      down: await access.admin!.createKey({ network: 'mainnet', rps: 1000 }),
      hang: await access.admin!.createKey({ network: 'mainnet', rps: 1000 }),
    };
    assert.equal((await check(known.key)).d.allowed, true, 'known key cached');

    for (const mode of ['down', 'hang'] as const) {
      const unseen = unseenKeys[mode];
      await proxy.setMode(mode);
      clock.advance(60_000); // the cached entry is stale now: it must still be served
      for (let i = 0; i < 10; i++) {
        const k = await check(known.key);
        assert.equal(k.d.allowed, true, `${mode}: a cached key keeps working`);
        const u = await checkUnseen(unseen.key, mode);
        assert.equal(u.d.allowed, false, `${mode} #${i}: ${JSON.stringify(u.d)}`);
        if (!u.d.allowed) {
          assert.equal(u.d.status, 503, `${mode}: unknown to the cache -> 503, not 401`);
          assert.deepEqual(u.d.body, BODY_503);
        }
        const bogus = await check('tg_neverIssued');
        assert.equal(bogus.d.allowed ? 200 : bogus.d.status, 503, `${mode}: made-up key -> 503 too (the store cannot say)`);
      }
      assert.equal(access.status().keyStoreBreaker === 'closed', false, `${mode}: breaker opened`);
      if (mode === 'hang') assert.ok(waitedForTheTimeout >= 1, 'a request waited for the store timeout before the breaker opened');
      await proxy.setMode('up');
      clock.advance(2000); // past the breaker's open interval (it uses the injected clock)
      let d = (await check(unseen.key)).d;
      for (let i = 0; i < 20 && !d.allowed; i++) {
        clock.advance(2000);
        await new Promise((r) => setTimeout(r, 20));
        d = (await check(unseen.key)).d;
      }
      assert.equal(d.allowed, true, `${mode}: store back, the unseen key is found`);
      assert.equal(access.status().keyStoreBreaker, 'closed');
      const gone = await check('tg_neverIssued');
      assert.equal(gone.d.allowed ? 200 : gone.d.status, 401, 'store back: an unknown key is 401 again');
    }
  } finally {
    await access.close();
    await proxy.close();
    await dropSchema(schema);
  }
});

test('key cache: a flood of one made-up key reaches the store once; a lookup overlapping an invalidation is not cached', async (t: TestContext) => {
  if (!(await requireService(t, 'postgres'))) return;
  const schema = uniqueName('tg_cache');
  const proxy = await pgProxy();
  const store = await PostgresKeyStore.open({ url: proxy.rewrite(POSTGRES_URL), schema });
  const clock = new ManualClock();
  let misses = 0;
  const directory = new KeyDirectory({
    store,
    clock,
    breaker: new CircuitBreaker({ clock }),
    timeoutMs: 1000,
    pollMs: 60_000,
    events: { onMiss: () => misses++ },
  });
  const admin = new KeyAdmin({ store, networks: ['mainnet'], defaultKeyRps: 10, clock, onChange: (m) => directory.invalidate(m.hashes) });
  try {
    await directory.start();
    const bogus = hashKey('tg_madeUp');
    for (let i = 0; i < 100; i++) assert.equal(await directory.lookup(bogus), null);
    assert.equal(misses, 1, 'one store lookup for 100 requests of one made-up key');

    // The key created afterwards is honoured at once: the create invalidates the negative entry.
    const created = await admin.createKey({ network: 'mainnet', key: 'tg_madeUp' });
    assert.equal((await directory.lookup(bogus))?.id, created.id);

    // A lookup in flight while the key is revoked must not put the pre-revocation answer in the cache.
    const other = await admin.createKey({ network: 'mainnet' });
    const h = hashKey(other.key);
    proxy.delayMs = 50;
    const inFlight = directory.lookup(h);
    assert.ok(inFlight instanceof Promise);
    await admin.revokeKey(other.id); // invalidates h while the lookup is still travelling
    proxy.delayMs = 0;
    assert.equal((await inFlight)?.id, other.id, 'the in-flight answer predates the revocation');
    assert.equal(await directory.lookup(h), null, 'but it was not cached: the next lookup sees the revocation');
  } finally {
    await directory.close();
    await store.close();
    await proxy.close();
    await dropSchema(schema);
  }
});
