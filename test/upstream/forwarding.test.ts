/**
 * A tongate in upstream mode in front of a tongate with local chains (real sockets, a recording proxy in
 * between): every answer reaches the client byte for byte as the upstream sent it, on v2 REST (GET, POST),
 * JSON-RPC and v3, successes and errors, including v3 paths the local index does not build; the client's
 * key never travels upstream, tongate's does; block-bound reads are kept, identical reads in flight are
 * coalesced; /healthcheck reports each upstream; the upstream key shows nowhere.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, toNano } from '@ton/core';
import type { LocalChain } from '../../src/chain/local/index.js';
import { ADMIN_TOKEN } from '../api/v2/support/keyed-tongate.js';
import { startFront, startPair, UPSTREAM_KEY, type UpstreamPair } from './support/pair.js';
import { fundAndSeal } from './support/chain.js';
import { rawRequest } from '../support/raw-http.js';

let pair: UpstreamPair;
let chain: LocalChain;
let faucet: string;
let funded: Address;
let txHashB64 = '';

before(async () => {
  pair = await startPair({ flags: { upstreamCache: ['mainnet=60000', 'testnet=0'], adminToken: ADMIN_TOKEN } });
  chain = pair.upstream.chain('mainnet');
  faucet = chain.faucets()[0].address.toString();
  funded = Address.parse(`0:${'4c'.repeat(32)}`);
  const tx = await fundAndSeal(chain, funded, toNano('2'));
  txHashB64 = tx.txHash.toString('base64');
});
after(() => pair?.stop());

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

async function send(
  base: string,
  call: Call,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(base + call.path, {
    method: call.method,
    headers: call.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

const maskExtra = (bytes: Buffer) => bytes.toString('utf8').replace(/"@extra":"[^"]*"/, '"@extra":"*"');

test('v2 (GET, POST, JSON-RPC) and v3 answers, errors included, arrive byte for byte as the upstream sent them', async () => {
  const calls: Call[] = [
    { method: 'GET', path: `/api/v2/getAddressInformation?address=${faucet}` },
    { method: 'GET', path: `/api/v2/getTransactions?address=${funded.toString()}&limit=5` },
    { method: 'GET', path: '/api/v2/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=1' },
    { method: 'GET', path: '/api/v2/getConfigParam?config_id=19' },
    { method: 'GET', path: `/api/v2/detectAddress?address=${encodeURIComponent(faucet)}` },
    { method: 'GET', path: '/api/v2/getAddressInformation?address=bad' },
    { method: 'GET', path: '/api/v2/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=999999' },
    { method: 'GET', path: '/api/v2/noSuchMethod' },
    { method: 'POST', path: '/api/v2/runGetMethod', body: { address: faucet, method: 'seqno', stack: [] } },
    { method: 'POST', path: '/api/v2/sendBoc', body: { boc: 'not base64 at all' } },
    { method: 'POST', path: '/api/v2/jsonRPC', body: { jsonrpc: '2.0', id: 7, method: 'getAddressBalance', params: { address: faucet } } },
    {
      method: 'POST',
      path: '/api/v2/jsonRPC',
      body: { jsonrpc: '2.0', id: 8, method: 'runGetMethod', params: { address: faucet, method: 'seqno', stack: [] } },
    },
    { method: 'POST', path: '/api/v2/jsonRPC', body: { jsonrpc: '2.0', id: 9, method: 'nope', params: {} } },
    { method: 'GET', path: '/api/v3/blocks?workchain=-1&limit=3&sort=desc' },
    { method: 'GET', path: `/api/v3/transactions?account=${funded.toRawString()}&limit=5` },
    { method: 'GET', path: `/api/v3/addressBook?address=${faucet}` },
    { method: 'GET', path: `/api/v3/walletInformation?address=${faucet}` },
    { method: 'GET', path: '/api/v3/transactions?limit=5000' },
    { method: 'GET', path: '/api/v3/jettons/masters' },
    { method: 'POST', path: '/api/v3/runGetMethod', body: { address: faucet, method: 'seqno', stack: [] } },
  ];
  // v3 reads the upstream's index, which follows its chain a moment behind: the direct answer must not be taken
  // on a newer index than the forwarded one, so both are asked once it has every block.
  const upstreamMainnet = pair.upstream.networks.find((n) => n.name === 'mainnet')!;
  for (let waited = 0; upstreamMainnet.indexLag!() > 0; waited += 10) {
    assert.ok(waited < 30_000, 'the upstream index catches up with its chain');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const proxy = pair.proxies.mainnet[0];
  const statuses = new Set<number>();
  for (const call of calls) {
    const before = proxy.recorded.length;
    const viaFront = await send(pair.front.url('mainnet'), call, { 'x-api-key': 'client-own-key' });
    // (The front's health checks, every 5 s, pass the proxy too: only this call's path counts.)
    const forwarded = proxy.recorded.slice(before).filter((r) => r.path === call.path);
    assert.equal(forwarded.length, 1, `${call.method} ${call.path}: one upstream request`);
    const seen = forwarded[0];
    assert.equal(viaFront.status, seen.status, `${call.path}: status passed as is`);
    assert.ok(
      viaFront.bytes.equals(seen.responseBody!),
      `${call.path}: body byte for byte\nfront:    ${viaFront.bytes}\nupstream: ${seen.responseBody}`,
    );
    // The same request straight to the upstream: the same answer (but for @extra, which is per request).
    const direct = await send(pair.upstream.url('mainnet'), call);
    assert.equal(direct.status, viaFront.status, call.path);
    assert.equal(maskExtra(direct.bytes), maskExtra(viaFront.bytes), `${call.path}: as the upstream answers directly`);
    assert.equal(seen.headers['x-api-key'], UPSTREAM_KEY, 'tongate sends its own upstream key');
    statuses.add(viaFront.status);
  }
  assert.ok(statuses.has(200) && statuses.has(404) && statuses.has(422), `successes and errors were covered: ${[...statuses]}`);
});

test('HEAD answers as the GET would, without a body: sent upstream as that GET, as a local network answers it', async () => {
  const proxy = pair.proxies.mainnet[0];
  const head = (base: string, target: string) =>
    rawRequest({ port: Number(new URL(base).port), target, method: 'HEAD', headers: { 'x-api-key': 'client-own-key' } });
  for (const target of [
    `/api/v2/getAddressInformation?address=${faucet}`,
    '/api/v2/getAddressInformation?address=bad',
    `/api/v3/walletInformation?address=${faucet}`,
    '/api/v3/noSuchEndpoint',
  ]) {
    const before = proxy.recorded.length;
    const viaFront = await head(pair.front.url('mainnet'), target);
    const sent = proxy.recorded.slice(before).filter((r) => r.path === target);
    assert.deepEqual(
      sent.map((r) => r.method),
      ['GET'],
      `${target}: one upstream request, a GET`,
    );
    assert.equal(viaFront.status, sent[0].status, `${target}: the GET's status`);
    assert.equal(viaFront.text, '', `${target}: no body`);
    assert.equal(viaFront.headers['content-length'], String(sent[0].responseBody!.length), `${target}: the GET's length`);
    // A local network (the upstream itself) answers a HEAD the same way: fastify's HEAD route of the GET route.
    const direct = await head(pair.upstream.url('mainnet'), target);
    assert.equal(viaFront.status, direct.status, `${target}: as a local network answers it`);
    assert.equal(viaFront.headers['content-type'], direct.headers['content-type'], `${target}: content-type`);
  }
  // A HEAD is not a failure of the upstream: its breaker stays closed.
  assert.equal(pair.network('mainnet').forwarder.targets.v2[0].breakerState, 'closed');
});

test("the client's key (header or api_key in the query, any spelling) is never forwarded", async () => {
  const proxy = pair.proxies.mainnet[0];
  const before = proxy.recorded.length;
  const answer = await send(
    pair.front.url('mainnet'),
    { method: 'GET', path: `/api/v2/getAddressBalance?address=${faucet}&api_key=client-secret&api%5Fkey=client-secret2` },
    { 'x-api-key': 'client-secret3' },
  );
  assert.equal(answer.status, 200);
  const seen = proxy.recorded.slice(before).find((r) => r.path.includes('getAddressBalance'))!;
  assert.equal(seen.path, `/api/v2/getAddressBalance?address=${faucet}`);
  assert.equal(seen.headers['x-api-key'], UPSTREAM_KEY);
  assert.ok(!JSON.stringify(seen.headers).includes('client-secret'));
});

test('a block-bound read is kept (no second upstream call) and a transaction by hash too; identical reads in flight are coalesced', async () => {
  const proxy = pair.proxies.mainnet[0];
  const base = pair.front.url('mainnet');
  for (const path of [
    '/api/v2/getMasterchainInfo',
    '/api/v3/masterchainInfo',
    `/api/v3/transactions?hash=${encodeURIComponent(txHashB64)}`,
  ]) {
    const first = await send(base, { method: 'GET', path });
    assert.equal(first.status, 200, `${path}: ${first.bytes}`);
    const before = proxy.count(/./);
    const second = await send(base, { method: 'GET', path });
    assert.equal(proxy.recorded.slice(before).filter((r) => r.path === path).length, 0, `${path}: answered from the cache`);
    assert.ok(second.bytes.equals(first.bytes));
  }
  // Testnet keeps nothing (--upstream-cache testnet=0), but identical reads in flight make one upstream call:
  // the upstream holds the first until the 49 others have joined it (tongate's metrics count them).
  const testnetProxy = pair.proxies.testnet[0];
  const before = testnetProxy.count(/getAddressInformation/);
  const coalescedBefore = await coalesced('testnet');
  testnetProxy.inject('hold', Infinity, /getAddressInformation/);
  const address = encodeURIComponent(pair.upstream.chain('testnet').faucets()[0].address.toString());
  const pending = Array.from({ length: 50 }, () =>
    send(pair.front.url('testnet'), { method: 'GET', path: `/api/v2/getAddressInformation?address=${address}` }),
  );
  for (let i = 0; i < 500 && (await coalesced('testnet')) < coalescedBefore + 49; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  testnetProxy.release();
  const answers = await Promise.all(pending);
  assert.ok(answers.every((a) => a.status === 200 && a.bytes.equals(answers[0].bytes)));
  assert.equal(testnetProxy.count(/getAddressInformation/) - before, 1, '50 identical concurrent reads: one upstream call');
  assert.equal((await coalesced('testnet')) - coalescedBefore, 49);
});

test('100 concurrent identical getMasterchainInfo (cache off) make exactly one upstream call; health checks are counted apart', async () => {
  // A front of its own: cache off, and health checks only at start (--upstream-health-interval), so none can
  // land in the window; the ones it made are still subtracted, as the bench does.
  const front = await startFront(pair.upstream, {
    networks: ['testnet'],
    flags: { upstreamCache: ['testnet=0'], upstreamHealthInterval: '3600000', adminToken: ADMIN_TOKEN },
  });
  try {
    const proxy = front.proxies.testnet[0];
    const base = front.front.url('testnet');
    const calls = () => proxy.count(/\/api\/v2\/getMasterchainInfo/);
    const [callsBefore, checksBefore, coalescedBefore] = [calls(), await healthChecks(base), await coalesced('testnet', base)];
    assert.ok(checksBefore >= 1, 'the first round of health checks is counted');
    // The upstream holds the first call until the 99 others have joined it: they arrive while it is in flight.
    proxy.inject('hold', Infinity, /getMasterchainInfo/);
    const pending = Array.from({ length: 100 }, () => send(base, { method: 'GET', path: '/api/v2/getMasterchainInfo' }));
    for (let i = 0; i < 500 && (await coalesced('testnet', base)) < coalescedBefore + 99; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    proxy.release();
    const answers = await Promise.all(pending);
    assert.ok(
      answers.every((a) => a.status === 200 && a.bytes.equals(answers[0].bytes)),
      'one answer, the same bytes for all',
    );
    const checks = (await healthChecks(base)) - checksBefore;
    assert.equal(checks, 0);
    assert.equal(calls() - callsBefore - checks, 1, '100 identical concurrent reads: one upstream call');
    assert.equal((await coalesced('testnet', base)) - coalescedBefore, 99);
  } finally {
    await front.stop();
  }
});

async function healthChecks(base: string): Promise<number> {
  const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  return [...metrics.matchAll(/tongate_upstream_health_checks_total\{network="testnet",upstream="[^"]*\/api\/v2"\} (\d+)/g)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

async function coalesced(network: string, base = pair.front.url(network)): Promise<number> {
  const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const match = new RegExp(`tongate_upstream_shared_answers_total\\{network="${network}",how="coalesced"\\} (\\d+)`).exec(metrics);
  return match ? Number(match[1]) : 0;
}

test('/healthcheck reports each upstream; devnet/fund is not offered; the upstream key shows nowhere', async () => {
  const health = await fetch(`${pair.front.url('mainnet')}/healthcheck`);
  const report = (await health.json()) as any;
  assert.equal(health.status, 200);
  assert.equal(report.backend, 'upstream');
  assert.deepEqual(
    report.upstreams.map((u: any) => [u.version, u.url, u.state, u.breaker]),
    [
      ['v2', `${pair.proxies.mainnet[0].origin}/api/v2`, 'up', 'closed'],
      ['v3', `${pair.proxies.mainnet[0].origin}/api/v3`, 'up', 'closed'],
    ],
  );
  const fund = await fetch(`${pair.front.url('mainnet')}/devnet/fund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: '{}',
  });
  assert.equal(fund.status, 404);
  const metrics = await (
    await fetch(`${pair.front.url('mainnet')}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).text();
  assert.match(metrics, /tongate_upstream_responses_total\{network="mainnet",upstream="[^"]+\/api\/v2",status="200"\} \d+/);
  assert.match(metrics, /tongate_upstream_request_duration_seconds_bucket\{le="0.005",network="mainnet"/);
  assert.match(metrics, /tongate_upstream_shared_answers_total\{network="mainnet",how="cached"\} [1-9]/);
  assert.match(metrics, /tongate_upstream_shared_answers_total\{network="testnet",how="coalesced"\} [1-9]/);
  assert.match(metrics, /tongate_upstream_breaker_state\{network="mainnet",upstream="[^"]+"\} 0/);
  for (const text of [pair.front.banner, JSON.stringify(report), metrics])
    assert.ok(!text.includes(UPSTREAM_KEY), 'the upstream key is not shown');
});

test('a version without an upstream answers 404 in its own shape', async () => {
  const only = await startFront(pair.upstream, { networks: ['mainnet'], flags: { upstreamV3: [] } });
  try {
    const v3 = await fetch(`${only.front.url('mainnet')}/api/v3/masterchainInfo`);
    assert.equal(v3.status, 404);
    assert.deepEqual(await v3.json(), { error: 'v3 is not served on mainnet (it has no v3 upstream)' });
    const v2 = await fetch(`${only.front.url('mainnet')}/api/v2/getMasterchainInfo`);
    assert.equal(v2.status, 200);
  } finally {
    await only.stop();
  }
});

test('request bodies keep the local bounds: over --body-limit 413, nested or numerous past the JSON limits 400, never forwarded', async () => {
  const proxy = pair.proxies.mainnet[0];
  const before = proxy.count(/runGetMethod|jsonRPC/);
  const post = (path: string, body: string) =>
    fetch(pair.front.url('mainnet') + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const huge = await post(
    '/api/v2/runGetMethod',
    JSON.stringify({ address: faucet, method: 'seqno', stack: [['num', 'x'.repeat(2_000_000)]] }),
  );
  assert.equal(huge.status, 413);
  assert.deepEqual(await huge.json(), { ok: false, error: 'request body is too large', code: 413 });
  const deep = await post('/api/v2/jsonRPC', '['.repeat(600) + ']'.repeat(600));
  assert.equal(deep.status, 400);
  assert.match(((await deep.json()) as { error: string }).error, /nested deeper than 512 levels/);
  const many = await post('/api/v3/runGetMethod', `[${'[],'.repeat(30_000)}[]]`);
  assert.equal(many.status, 400);
  assert.match(((await many.json()) as { error: string }).error, /more than 20000 JSON values/);
  assert.equal(proxy.count(/runGetMethod|jsonRPC/), before, 'none reached the upstream');
});
