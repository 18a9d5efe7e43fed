/**
 * The admin HTTP API and /metrics: off without a token (404), bearer token required (401), the same
 * key operations as the CLI with the v2 envelope, errors naming the field, and Prometheus metrics
 * (requests by network, version, method and status; decisions; cache; store errors) without keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { createAccessLayer } from '../../src/access/index.js';
import { buildTestApp, HOSTS } from './support/app.js';
import { embeddedBackend } from './support/backends.js';

const TOKEN = 'admin-secret-token-0123456789';

test('admin API and /metrics', async (t) => {
  const backend = embeddedBackend();
  const access = await createAccessLayer(backend.options, { clock: new ManualClock() });
  const app = await buildTestApp(access, { adminToken: TOKEN });
  const noAdmin = await buildTestApp(access, {});
  const auth = { authorization: `Bearer ${TOKEN}` };
  try {
    await t.test('off without a token; 401 without the right bearer token', async () => {
      assert.equal((await noAdmin.inject({ method: 'GET', url: '/admin/keys', headers: auth })).statusCode, 404);
      assert.equal((await noAdmin.inject({ method: 'GET', url: '/metrics', headers: auth })).statusCode, 404);
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
        for (const url of ['/admin/keys', '/metrics']) {
          const res = await app.inject({ method: 'GET', url, headers });
          assert.equal(res.statusCode, 401, `${url} ${JSON.stringify(headers)}`);
          assert.equal(res.json().code, 401);
          assert.equal(res.headers['www-authenticate'], 'Bearer');
        }
      }
    });

    let created: { id: string; key: string };
    await t.test('create, list, show, revoke keys; set account limits', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/admin/keys',
        headers: auth,
        payload: { network: 'mainnet', rps: 20, label: 'remote' },
      });
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.equal(body.ok, true);
      created = body.result;
      assert.match(created.key, /^tg_/);
      assert.equal(body.result.rps, 20);
      // The key works at once.
      const use = await app.inject({
        method: 'GET',
        url: '/api/v3/masterchainInfo',
        headers: { host: HOSTS.mainnet, 'x-api-key': created.key },
      });
      assert.equal(use.statusCode, 200);
      assert.equal(use.headers['ratelimit-policy'], '"key";q=20;w=1');

      const list = (await app.inject({ method: 'GET', url: '/admin/keys', headers: auth })).json();
      assert.equal(list.ok, true);
      assert.ok(list.result.some((k: { id: string }) => k.id === created.id));
      assert.ok(!JSON.stringify(list).includes(created.key));
      const show = (await app.inject({ method: 'GET', url: `/admin/keys/${created.id}`, headers: auth })).json();
      assert.equal(show.result.label, 'remote');

      const acct = await app.inject({ method: 'PUT', url: '/admin/accounts/acme', headers: auth, payload: { network: 'testnet', rps: 7 } });
      assert.equal(acct.statusCode, 200);
      assert.deepEqual({ ...acct.json().result, updatedAt: 0 }, { name: 'acme', network: 'testnet', rps: 7, updatedAt: 0 });
      assert.equal((await app.inject({ method: 'GET', url: '/admin/accounts', headers: auth })).json().result.length, 1);

      const revoked = await app.inject({ method: 'DELETE', url: `/admin/keys/${created.id}`, headers: auth });
      assert.equal(revoked.statusCode, 200);
      assert.notEqual(revoked.json().result.revokedAt, null);
      const refused = await app.inject({
        method: 'GET',
        url: '/api/v3/masterchainInfo',
        headers: { host: HOSTS.mainnet, 'x-api-key': created.key },
      });
      assert.equal(refused.statusCode, 401, 'revoked through the admin API: refused at once');
    });

    await t.test('bad input: 422 naming the field (400 for a body that is no JSON object), never 500', async () => {
      const cases: Array<[string, string, unknown, number, RegExp]> = [
        ['POST', '/admin/keys', { network: 'devnet' }, 422, /network: unknown network/],
        ['POST', '/admin/keys', { network: 'mainnet', rps: 'lots' }, 422, /rps: must be an integer/],
        ['POST', '/admin/keys', { network: 'mainnet', key: 42 }, 422, /key: must be a string/],
        ['POST', '/admin/keys', { network: 'mainnet', expires: 'soon' }, 422, /expires: not a date/],
        ['POST', '/admin/keys', [1, 2], 400, /body: a JSON object is required/],
        ['GET', '/admin/keys/key_missing', undefined, 404, /no key with id/],
        ['DELETE', '/admin/keys/key_missing', undefined, 404, /no key with id/],
        ['PUT', '/admin/accounts/acme', { network: 'mainnet' }, 422, /rps: must be an integer/],
        ['PUT', '/admin/accounts/a%20b', { network: 'mainnet', rps: 3 }, 422, /account: /],
      ];
      for (const [method, url, payload, status, message] of cases) {
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: auth,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().code, status);
        assert.match(res.json().error, message);
      }
      const invalidJson = await app.inject({
        method: 'POST',
        url: '/admin/keys',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"network":',
      });
      assert.equal(invalidJson.statusCode, 400);
    });

    await t.test('/metrics: Prometheus text, requests by network/version/method/status, no keys', async () => {
      await app.inject({
        method: 'GET',
        url: '/api/v2/getAddressInformation?address=x',
        headers: { host: HOSTS.testnet },
        remoteAddress: '192.0.2.50',
      });
      await app.inject({
        method: 'GET',
        url: '/api/v2/getAddressInformation?address=x',
        headers: { host: HOSTS.testnet },
        remoteAddress: '192.0.2.50',
      });
      await app.inject({
        method: 'POST',
        url: '/api/v2/jsonRPC',
        headers: { host: HOSTS.mainnet, 'x-api-key': 'tg_bogus' },
        payload: { method: 'x' },
      });
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: auth });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      const text = res.body;
      assert.match(text, /tongate_http_requests_total\{network="testnet",version="v2",method="getAddressInformation",status="200"\} 1/);
      assert.match(text, /tongate_http_requests_total\{network="testnet",version="v2",method="getAddressInformation",status="429"\} 1/);
      assert.match(text, /tongate_http_requests_total\{network="mainnet",version="v2",method="jsonRPC",status="401"\} 1/);
      assert.match(text, /tongate_http_requests_total\{network="mainnet",version="v3",method="masterchainInfo",status="200"\} 1/);
      assert.match(text, /tongate_access_decisions_total\{result="allowed",policy="ip"\} 1/);
      assert.match(text, /tongate_key_cache_lookups_total\{result="miss"\} \d+/);
      assert.match(text, /# TYPE tongate_store_errors_total counter/);
      assert.ok(!text.includes(created.key) && !text.includes('tg_bogus'));
    });
  } finally {
    await app.close();
    await noAdmin.close();
    await access.close();
    await backend.cleanup();
  }
});
