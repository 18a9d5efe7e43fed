/**
 * Every access rule of issue 3 through the fastify hook, on v2 REST (GET and POST), v2 JSON-RPC and
 * v3, on both networks, with the key in the header, the query or both: exact statuses, bodies and
 * headers. The same suite runs on memory + SQLite and on Redis + PostgreSQL, each with local networks and
 * with networks of kind upstream (the API behind the real upstream hook, on a real socket). Time is a ManualClock
 * (the Redis script is told its time too), so no test waits for a window to pass.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/util/clock.js';
import { createAccessLayer, openKeyAdmin, type AccessLayer, type KeyAdmin } from '../../src/access/index.js';
import { buildTestApp, HOSTS, STUB_UPSTREAM_KEY } from './support/app.js';
import { embeddedBackend, sharedBackend, type Backend } from './support/backends.js';

const BODY_401 = { ok: false, error: 'API key does not exist', code: 401 };
const BODY_403 = { ok: false, error: 'Network not allowed', code: 403 };
const BODY_429 = { ok: false, error: 'Ratelimit exceeded', code: 429 };

type Kind = 'v2 GET' | 'v2 POST' | 'v2 JSON-RPC' | 'v3';
const KINDS: Kind[] = ['v2 GET', 'v2 POST', 'v2 JSON-RPC', 'v3'];
type Place = 'header' | 'query' | 'both';

interface CallOptions {
  network?: 'mainnet' | 'testnet';
  key?: string;
  place?: Place;
  /** With place 'both': the other location's value. */
  otherKey?: string;
  ip?: string;
  headers?: Record<string, string>;
}

/** Every raw key a test used: the captured logs must contain none of them. */
const rawKeys = new Set<string>();

function makeCaller(app: FastifyInstance) {
  let ipCounter = 0;
  const call = (kind: Kind, o: CallOptions = {}): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { host: HOSTS[o.network ?? 'mainnet'], ...o.headers };
    const query: string[] = [];
    if (o.key !== undefined) {
      rawKeys.add(o.key);
      const place = o.place ?? 'header';
      if (place === 'header' || place === 'both') headers['x-api-key'] = o.key;
      if (place === 'query') query.push(`api_key=${encodeURIComponent(o.key)}`);
      if (place === 'both') query.push(`api_key=${encodeURIComponent(o.otherKey ?? o.key)}`);
    }
    const remoteAddress = o.ip ?? '198.51.100.1';
    const qs = (extra: string[]) => ([...extra, ...query].length ? '?' + [...extra, ...query].join('&') : '');
    switch (kind) {
      case 'v2 GET':
        return app.inject({ method: 'GET', url: `/api/v2/getAddressInformation${qs(['address=EQabc'])}`, headers, remoteAddress });
      case 'v2 POST':
        return app.inject({
          method: 'POST',
          url: `/api/v2/getAddressInformation${qs([])}`,
          headers,
          payload: { address: 'EQabc' },
          remoteAddress,
        });
      case 'v2 JSON-RPC':
        return app.inject({
          method: 'POST',
          url: `/api/v2/jsonRPC${qs([])}`,
          headers,
          payload: { jsonrpc: '2.0', id: 1, method: 'getMasterchainInfo', params: {} },
          remoteAddress,
        });
      case 'v3':
        return app.inject({ method: 'GET', url: `/api/v3/masterchainInfo${qs([])}`, headers, remoteAddress });
    }
  };
  /** A client address nobody used yet in this run. */
  const freshIp = () => `203.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  return { call, freshIp };
}

function assertRefused(res: LightMyRequestResponse, body: object, what: string): void {
  assert.equal(res.statusCode, (body as { code: number }).code, `${what}: status ${res.statusCode} ${res.body}`);
  assert.deepEqual(res.json(), body, what);
}

type Mode = 'local' | 'upstream';

async function runRules(t: TestContext, backend: Backend, mode: Mode): Promise<void> {
  const clock = new ManualClock();
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (chunk) => (logText += chunk));
  const logLines: string[] = [];
  const logger = {
    info: (o: object, m?: string) => logLines.push(JSON.stringify(o) + m),
    warn: (o: object, m?: string) => logLines.push(JSON.stringify(o) + m),
    error: (o: object, m?: string) => logLines.push(JSON.stringify(o) + m),
  };
  const access: AccessLayer = await createAccessLayer(backend.options, { clock, logger, redisUsesClock: true });
  const app = await buildTestApp(access, { logStream: logs, upstream: mode === 'upstream' });
  const admin: KeyAdmin = access.admin!;
  const { call, freshIp } = makeCaller(app);
  const newKey = async (network: 'mainnet' | 'testnet', extra: { rps?: number; account?: string; expires?: number } = {}) => {
    const created = await admin.createKey({ network, ...extra });
    rawKeys.add(created.key);
    return created;
  };
  // Each subtest starts in a new second: no earlier admission is still in any window.
  const nextWindow = () => clock.advance(5000);

  try {
    await t.test('no key: 1 request/s per client, exact 429 body, Retry-After, limit headers', async () => {
      for (const kind of KINDS) {
        for (const network of ['mainnet', 'testnet'] as const) {
          nextWindow();
          const ip = freshIp();
          const first = await call(kind, { network, ip });
          assert.equal(first.statusCode, 200, `${kind} ${network}: ${first.body}`);
          assert.equal(first.headers['ratelimit-policy'], '"ip";q=1;w=1');
          assert.equal(first.headers['ratelimit'], '"ip";r=0;t=1');
          clock.advance(999);
          const second = await call(kind, { network, ip });
          assertRefused(second, BODY_429, `${kind} ${network} second request within 1 s`);
          assert.equal(second.headers['retry-after'], '1');
          assert.equal(second.headers['ratelimit-policy'], '"ip";q=1;w=1');
          assert.equal(second.headers['ratelimit'], '"ip";r=0;t=1');
          // Another client is not affected; and after the window the first client is admitted again.
          assert.equal((await call(kind, { network, ip: freshIp() })).statusCode, 200);
          clock.advance(1);
          assert.equal((await call(kind, { network, ip })).statusCode, 200, `${kind} ${network}: admitted 1 s after`);
        }
      }
    });

    await t.test('no key: IPv6 clients are grouped by /64, IPv4-mapped equals IPv4, networks are separate', async () => {
      nextWindow();
      assert.equal((await call('v3', { ip: '2001:db8:1:2::1' })).statusCode, 200);
      assert.equal((await call('v3', { ip: '2001:db8:1:2:ffff::9' })).statusCode, 429, 'same /64');
      assert.equal((await call('v3', { ip: '2001:db8:1:3::1' })).statusCode, 200, 'another /64');
      assert.equal((await call('v3', { ip: '192.0.2.77' })).statusCode, 200);
      assert.equal((await call('v3', { ip: '::ffff:192.0.2.77' })).statusCode, 429, 'IPv4-mapped = IPv4');
      assert.equal((await call('v3', { ip: '192.0.2.77', network: 'testnet' })).statusCode, 200, 'limits are per network');
    });

    await t.test('a valid key in the header, in the query, or in both: admitted under the key policy', async () => {
      const { key } = await newKey('mainnet');
      for (const kind of KINDS) {
        for (const place of ['header', 'query', 'both'] as const) {
          nextWindow();
          const res = await call(kind, { key, place, ip: '198.51.100.9' });
          assert.equal(res.statusCode, 200, `${kind} key in ${place}: ${res.body}`);
          assert.equal(res.headers['ratelimit-policy'], '"key";q=10;w=1');
          assert.equal(res.headers['ratelimit'], '"key";r=9;t=1');
        }
      }
    });

    await t.test('header wins over query; an empty value counts as no key', async () => {
      const { key } = await newKey('mainnet');
      for (const kind of KINDS) {
        nextWindow();
        assert.equal(
          (await call(kind, { key, place: 'both', otherKey: 'not-a-key' })).statusCode,
          200,
          `${kind}: valid header, bogus query`,
        );
        assertRefused(await call(kind, { key: 'not-a-key', place: 'both', otherKey: key }), BODY_401, `${kind}: bogus header, valid query`);
        // Empty header: the query key is used.
        const emptyHeader = await call(kind, { key, place: 'query', headers: { 'x-api-key': '' } });
        assert.equal(emptyHeader.statusCode, 200);
        assert.equal(emptyHeader.headers['ratelimit-policy'], '"key";q=10;w=1');
        // Empty everywhere: the keyless rule.
        const ip = freshIp();
        const empty = await call(kind, { ip, headers: { 'x-api-key': '' } });
        assert.equal(empty.statusCode, 200);
        assert.equal(empty.headers['ratelimit-policy'], '"ip";q=1;w=1');
        const emptyQuery = await app.inject({
          method: 'GET',
          url: '/api/v3/masterchainInfo?api_key=',
          headers: { host: HOSTS.mainnet },
          remoteAddress: ip,
        });
        assertRefused(emptyQuery, BODY_429, `${kind}: empty query key is no key (same client, second request)`);
      }
    });

    await t.test('unknown, revoked, expired and oversized keys: 401, on every kind and both networks', async () => {
      const revoked = await newKey('mainnet');
      await admin.revokeKey(revoked.id);
      const expiring = await newKey('testnet', { expires: clock.now() + 60_000 });
      for (const kind of KINDS) {
        for (const network of ['mainnet', 'testnet'] as const) {
          for (const place of ['header', 'query', 'both'] as const) {
            assertRefused(
              await call(kind, { network, key: 'tg_unknownKey123', place }),
              BODY_401,
              `${kind} ${network} unknown in ${place}`,
            );
          }
          assertRefused(await call(kind, { network, key: revoked.key }), BODY_401, `${kind} revoked`);
          assertRefused(await call(kind, { network, key: 'x'.repeat(300), place: 'query' }), BODY_401, `${kind} oversized`);
        }
      }
      nextWindow();
      assert.equal((await call('v3', { network: 'testnet', key: expiring.key })).statusCode, 200, 'not yet expired');
      clock.advance(60_000);
      assertRefused(await call('v3', { network: 'testnet', key: expiring.key }), BODY_401, 'expired');
    });

    await t.test('a key of the other network: 403, on every kind, key in header or query', async () => {
      const main = await newKey('mainnet');
      const testnet = await newKey('testnet');
      for (const kind of KINDS) {
        for (const place of ['header', 'query'] as const) {
          assertRefused(await call(kind, { network: 'testnet', key: main.key, place }), BODY_403, `${kind} mainnet key on testnet`);
          assertRefused(await call(kind, { network: 'mainnet', key: testnet.key, place }), BODY_403, `${kind} testnet key on mainnet`);
        }
      }
    });

    await t.test('per-key limit: exactly N admitted per window, refusals use no quota, Retry-After exact', async () => {
      for (const kind of KINDS) {
        const { key } = await newKey('mainnet', { rps: 3 });
        nextWindow();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) {
          statuses.push((await call(kind, { key })).statusCode);
          clock.advance(100);
        }
        assert.deepEqual(statuses, [200, 200, 200]);
        // t = 300 ms after the first admission; 10 refusals in the next 699 ms.
        for (let i = 0; i < 10; i++) {
          const res = await call(kind, { key, place: i % 2 ? 'query' : 'header' });
          assertRefused(res, BODY_429, `${kind} over the key limit`);
          assert.equal(res.headers['retry-after'], '1');
          assert.equal(res.headers['ratelimit'], '"key";r=0;t=1');
          clock.advance(69);
        }
        // 990 ms: still refused; 1000 ms after the first admission: exactly one slot is back.
        assert.equal((await call(kind, { key })).statusCode, 429);
        clock.advance(10);
        const back = await call(kind, { key });
        assert.equal(back.statusCode, 200, 'refusals used no quota');
        assert.equal(back.headers['ratelimit'], '"key";r=0;t=1');
        assert.equal((await call(kind, { key })).statusCode, 429, 'only one slot came back');
      }
    });

    await t.test('account limit: all keys of the account share it on that network; per-key limits elsewhere', async () => {
      await admin.setAccountLimit({ name: 'acme', network: 'mainnet', rps: 4 });
      const a = await newKey('mainnet', { account: 'acme', rps: 100 });
      const b = await newKey('mainnet', { account: 'acme', rps: 100 });
      const c = await newKey('testnet', { account: 'acme', rps: 2 });
      nextWindow();
      const admitted = [];
      for (let i = 0; i < 6; i++) admitted.push((await call(KINDS[i % 4], { key: i % 2 ? a.key : b.key })).statusCode);
      assert.deepEqual(admitted, [200, 200, 200, 200, 429, 429]);
      const res = await call('v3', { key: a.key });
      assert.equal(res.headers['ratelimit-policy'], '"account";q=4;w=1');
      // The testnet key has no account limit on testnet: its own limit (2).
      const onTestnet = [];
      for (let i = 0; i < 3; i++) onTestnet.push((await call('v3', { network: 'testnet', key: c.key })).statusCode);
      assert.deepEqual(onTestnet, [200, 200, 429]);
      // Raising the account limit applies to the running server at once (same process: no wait).
      await admin.setAccountLimit({ name: 'acme', network: 'mainnet', rps: 6 });
      assert.equal((await call('v3', { key: b.key })).statusCode, 200);
      assert.equal((await call('v3', { key: a.key })).statusCode, 200);
      assert.equal((await call('v3', { key: a.key })).statusCode, 429);
    });

    await t.test('not limited: health and docs paths, with or without keys, and paths outside /api', async () => {
      nextWindow();
      const ip = freshIp();
      for (const url of [
        '/healthcheck',
        '/api/v2/healthcheck',
        '/api/v3/healthcheck',
        '/api/v2/openapi.json',
        '/api/v3/openapi.json',
        '/api/v2/',
        '/api/v3/',
        '/api/v2/docs/swagger-ui.css',
        '/api/v3/docs/swagger-ui-bundle.js',
      ]) {
        for (let i = 0; i < 3; i++) {
          const res = await app.inject({
            method: 'GET',
            url: i === 2 ? `${url}?api_key=bogus` : url,
            headers: { host: HOSTS.mainnet },
            remoteAddress: ip,
          });
          assert.equal(res.statusCode, 200, `${url} #${i}`);
          assert.equal(res.headers['ratelimit-policy'], undefined, url);
        }
      }
      // The unlimited paths used none of this client's quota; an escaped path is still limited.
      assert.equal((await call('v3', { ip })).statusCode, 200);
      const escaped = await app.inject({
        method: 'GET',
        url: '/api/%763/masterchainInfo',
        headers: { host: HOSTS.mainnet },
        remoteAddress: ip,
      });
      assert.equal(escaped.statusCode, 429, `percent-escaped path is limited too (${escaped.statusCode})`);
    });

    await t.test('another process creates and revokes keys: honoured after the store poll', async () => {
      const other = await openKeyAdmin({ ...backend.options, redisUrl: undefined });
      try {
        const created = await other.admin.createKey({ network: 'mainnet', key: `imported-${Date.now()}-abcdefgh` });
        rawKeys.add(created.key);
        // A lookup before the poll may cache "unknown"; the poll must drop that negative entry.
        await call('v3', { key: created.key });
        await access.syncKeys();
        nextWindow();
        assert.equal((await call('v3', { key: created.key })).statusCode, 200, 'created elsewhere: honoured');
        await other.admin.revokeKey(created.id);
        await access.syncKeys();
        assertRefused(await call('v3', { key: created.key }), BODY_401, 'revoked elsewhere: refused');
      } finally {
        await other.close();
      }
    });

    await t.test('logs and metrics never hold a raw key', async () => {
      const metrics = (await access.metrics.render()).body;
      assert.match(metrics, /tongate_access_decisions_total\{result="rate_limited",policy="key"\} \d+/);
      assert.match(metrics, /tongate_access_decisions_total\{result="unknown_key",policy="none"\} \d+/);
      assert.match(metrics, /tongate_key_cache_lookups_total\{result="hit"\} \d+/);
      // Log one request per placement at info level to be sure URLs were logged at all.
      assert.match(logText, /api_key=\[REDACTED\]/, 'query keys were logged, redacted');
      const all = logText + logLines.join('\n') + metrics;
      for (const key of rawKeys) assert.ok(!all.includes(key), `raw key ${key.slice(0, 6)}... found in logs or metrics`);
      assert.ok(!all.includes(STUB_UPSTREAM_KEY), 'the upstream key is in no log and no metric');
    });

    if (mode === 'upstream') {
      await t.test('upstream mode: requests reached the upstream with its key only, never a client key', () => {
        const seen = app.upstreamRequests!;
        assert.ok(seen.length > 50, `the upstream served the admitted requests (${seen.length})`);
        for (const { url, key } of seen) {
          assert.equal(key, STUB_UPSTREAM_KEY, url);
          assert.ok(!/api_key/.test(url), `no api_key forwarded: ${url}`);
          for (const raw of rawKeys) assert.ok(!url.includes(encodeURIComponent(raw)), `client key in ${url}`);
        }
      });
    }
  } finally {
    await app.close();
    await access.close();
  }
}

for (const mode of ['local', 'upstream'] as const) {
  test(`access rules on memory + SQLite, ${mode} networks`, async (t) => {
    const backend = embeddedBackend();
    try {
      await runRules(t, backend, mode);
    } finally {
      await backend.cleanup();
    }
  });

  test(`access rules on Redis + PostgreSQL, ${mode} networks`, async (t) => {
    const backend = await sharedBackend(t);
    if (!backend) return;
    try {
      await runRules(t, backend, mode);
    } finally {
      await backend.cleanup();
    }
  });
}
