/**
 * The upstream networks' front door (src/upstream/front.ts) answers as fastify's path does. Two fronts before one
 * upstream, keys and limits on, the same ManualClock: `door` takes its forwarded requests before fastify's router;
 * `plain` trusts a proxy (--trust-proxy), which leaves the front door out, so fastify answers all of them. The same
 * requests, in the same order, to both: every status, body and header (but Date) equal; the door took each one;
 * /metrics' request counts and durations and /admin/usage equal afterwards.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import { startFront, startUpstream, type Front } from './support/pair.js';
import type { TestTongate } from '../support/tongate.js';

const ADMIN = 'front-door-admin-token';
const KEY = 'front-door-mainnet-key-0123456789';
const TESTNET_KEY = 'front-door-testnet-key-0123456789';

let upstream: TestTongate;
let door: Front;
let plain: Front;
let faucet: string;
const keyIds = new Map<Front, string[]>();

before(async () => {
  upstream = await startUpstream();
  faucet = upstream.chain('mainnet').faucets()[0].address.toString();
  const clock = new ManualClock(Date.now());
  const flags = { access: 'on', adminToken: ADMIN };
  door = await startFront(upstream, { flags, clock });
  plain = await startFront(upstream, { flags: { ...flags, trustProxy: '127.0.0.1' }, clock });
  for (const front of [door, plain]) {
    const ids: string[] = [];
    for (const [network, key] of [
      ['mainnet', KEY],
      ['testnet', TESTNET_KEY],
    ]) {
      const created = await call(front, { method: 'POST', target: '/admin/keys', auth: true, body: { network, key, rps: 1000 } });
      assert.equal(created.status, 201, created.text);
      ids.push(created.json.result.id as string);
    }
    keyIds.set(front, ids);
  }
});
after(async () => {
  await door?.stop();
  await plain?.stop();
  await upstream?.stop();
});

interface Call {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: unknown;
  auth?: boolean;
}

function call(front: Front, { method = 'GET', target, headers = {}, body, auth }: Call, network = 'mainnet'): Promise<RawResponse> {
  const port = Number(new URL(front.front.url(network)).port);
  const raw = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
  return rawRequest({
    port,
    target,
    method,
    headers: {
      host: `127.0.0.1:${port}`,
      ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: `Bearer ${ADMIN}` } : {}),
      ...headers,
    },
    body: raw,
  });
}

/** v2's `@extra` is made by the upstream per call. */
const masked = (text: string) => text.replace(/"@extra":"[^"]*"/g, '"@extra":"*"');

function headersOf(res: RawResponse): Record<string, unknown> {
  const { date: _date, ...rest } = res.headers;
  return rest;
}

test('forwarded requests: the front door answers byte for byte as fastify does, and took every one', async () => {
  const key = { 'x-api-key': KEY };
  const calls: Array<Call & { what: string }> = [
    { what: 'v2 GET, key in the header', target: `/api/v2/getAddressInformation?address=${faucet}`, headers: key },
    { what: 'v2 GET, key in the query', target: `/api/v2/getAddressBalance?address=${faucet}&api_key=${KEY}` },
    { what: 'v2 GET, another case and a trailing slash', target: `/api/v2/getaddressinformation/?address=${faucet}`, headers: key },
    { what: 'v2 GET, the upstream refuses the input', target: '/api/v2/getAddressInformation?address=bad', headers: key },
    { what: 'v2 GET, gzip asked', target: '/api/v2/getMasterchainInfo', headers: { ...key, 'accept-encoding': 'gzip' } },
    { what: 'v3 GET in upper case', target: '/API/V3/MASTERCHAININFO', headers: key },
    { what: 'v3 GET with X-No-Metadata', target: '/api/v3/transactions?limit=2', headers: { ...key, 'x-no-metadata': '1' } },
    {
      what: 'v2 JSON-RPC',
      method: 'POST',
      target: '/api/v2/jsonRPC',
      headers: key,
      body: { jsonrpc: '2.0', id: 1, method: 'getMasterchainInfo', params: {} },
    },
    { what: 'v2 POST, a write the upstream refuses', method: 'POST', target: '/api/v2/sendBoc', headers: key, body: { boc: 'bad' } },
    {
      what: 'v2 POST nested past the JSON limits',
      method: 'POST',
      target: '/api/v2/jsonRPC',
      headers: key,
      body: `${'['.repeat(300)}${']'.repeat(300)}`,
    },
    { what: 'an unknown key', target: '/api/v2/getMasterchainInfo', headers: { 'x-api-key': 'no-such-key-0123456789' } },
    { what: "another network's key", target: '/api/v2/getMasterchainInfo', headers: { 'x-api-key': TESTNET_KEY } },
    { what: 'no key, first of the second', target: '/api/v3/masterchainInfo' },
    { what: 'no key, over 1 request a second', target: '/api/v3/masterchainInfo' },
  ];
  const takenBefore = door.front.gateway.front!.taken;
  for (const c of calls) {
    const viaDoor = await call(door, c);
    const viaFastify = await call(plain, c);
    assert.equal(viaDoor.status, viaFastify.status, `${c.what}: status`);
    assert.equal(masked(viaDoor.text), masked(viaFastify.text), `${c.what}: body`);
    const doorHeaders = headersOf(viaDoor);
    const fastifyHeaders = headersOf(viaFastify);
    // The body length differs only by what @extra says.
    if (viaDoor.text !== viaFastify.text) {
      delete doorHeaders['content-length'];
      delete fastifyHeaders['content-length'];
    }
    assert.deepEqual(doorHeaders, fastifyHeaders, `${c.what}: headers`);
  }
  assert.equal(door.front.gateway.front!.taken - takenBefore, calls.length, 'every forwarded request was taken by the front door');
  assert.equal(plain.front.gateway.front, undefined, 'behind a trusted proxy there is no front door');
});

test('what is not forwarded goes to fastify: preflights, HEAD, health, docs, admin, a %-escaped spelling', async () => {
  const front = door.front.gateway.front!;
  const before = front.taken;
  const preflight = await call(door, { method: 'OPTIONS', target: '/api/v2/getMasterchainInfo' });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
  assert.equal((await call(door, { target: '/healthcheck' })).status, 200);
  assert.equal((await call(door, { target: '/api/v2/openapi.json' })).status, 200);
  assert.equal((await call(door, { target: '/admin/keys', auth: true })).status, 200);
  const escaped = await call(door, { target: '/api/v2/getMasterchain%49nfo', headers: { 'x-api-key': KEY } });
  assert.equal(escaped.status, 200, escaped.text);
  assert.equal(escaped.json.ok, true);
  // HEAD is answered by fastify's path, whatever it answers (not this test's subject).
  await call(door, { method: 'HEAD', target: '/api/v2/getMasterchainInfo', headers: { 'x-api-key': KEY } });
  assert.equal(front.taken, before, 'none of them was taken by the front door');
});

test('the counters read the same afterwards: /metrics request counts and durations, /admin/usage', async () => {
  const counted = async (front: Front) => {
    const metrics = await call(front, { target: '/metrics', auth: true });
    assert.equal(metrics.status, 200);
    return metrics.text
      .split('\n')
      .filter((line) => line.startsWith('tongate_http_requests_total{') || line.startsWith('tongate_http_request_duration_seconds_count{'))
      .sort();
  };
  // The second test sent its requests to `door` only: send them to `plain` too, so both saw the same.
  for (const c of [
    { method: 'OPTIONS', target: '/api/v2/getMasterchainInfo' },
    { target: '/healthcheck' },
    { target: '/api/v2/openapi.json' },
    { target: '/admin/keys', auth: true },
    { target: '/api/v2/getMasterchain%49nfo', headers: { 'x-api-key': KEY } },
    { method: 'HEAD', target: '/api/v2/getMasterchainInfo', headers: { 'x-api-key': KEY } },
  ])
    await call(plain, c);
  const doorLines = await counted(door);
  const plainLines = await counted(plain);
  assert.ok(
    doorLines.some((line) => line.includes('method="getAddressInformation"')),
    doorLines.join('\n'),
  );
  assert.deepEqual(doorLines, plainLines);
  const usage = async (front: Front) => {
    const res = await call(front, { target: '/admin/usage?network=mainnet', auth: true });
    assert.equal(res.status, 200);
    let text = res.text;
    keyIds.get(front)!.forEach((id, i) => (text = text.split(id).join(`key-${i}`)));
    return JSON.parse(text);
  };
  const doorUsage = await usage(door);
  assert.ok(JSON.stringify(doorUsage).includes('key-0'), JSON.stringify(doorUsage));
  assert.deepEqual(doorUsage, await usage(plain));
});
