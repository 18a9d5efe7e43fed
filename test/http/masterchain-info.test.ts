import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, postJson, startTestTongate, type TestTongate } from '../support/tongate.js';
import { v2Spec, v3Spec } from '../support/openapi.js';

let tongate: TestTongate;

/**
 * Waits until `network`'s v3 index holds its chain's newest block. v3 answers from the index, which follows the chain
 * in threads of its own: right after a block is sealed it may still be writing it (on a loaded machine, for a while),
 * and v3's masterchainInfo would name the block before.
 */
async function indexedToHead(network: string): Promise<void> {
  const seqno = tongate.chain(network).masterchainInfo().last.id.seqno;
  await tongate.networks.find((n) => n.name === network)!.indexed!(seqno);
}

/** Seals a block on `network` and waits until its index holds it. */
async function produceIndexedBlock(network: string): Promise<void> {
  await tongate.chain(network).produceBlock();
  await indexedToHead(network);
}

before(async () => {
  tongate = await startTestTongate();
  await produceIndexedBlock('mainnet');
  await produceIndexedBlock('mainnet');
  await indexedToHead('testnet');
});
after(() => tongate.stop());

const SHARD_V2 = '-9223372036854775808';

test('v2 GET, v2 POST, JSON-RPC and v3 report the same last block', async () => {
  const base = tongate.url('mainnet');
  const get = await getJson(`${base}/api/v2/getMasterchainInfo`);
  const post = await postJson(`${base}/api/v2/getMasterchainInfo`, {});
  const rpc = await postJson(`${base}/api/v2/jsonRPC`, { id: 1, jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} });
  const v3 = await getJson(`${base}/api/v3/masterchainInfo`);
  for (const response of [get, post, rpc, v3]) assert.equal(response.status, 200, JSON.stringify(response.body));

  const last = get.body.result.last;
  assert.equal(get.body.ok, true);
  assert.equal('error' in get.body, false);
  assert.equal(last['@type'], 'ton.blockIdExt');
  assert.equal(last.workchain, -1);
  assert.equal(last.shard, SHARD_V2);
  assert.ok(last.seqno >= 2);
  assert.match(last.root_hash, /^[A-Za-z0-9+/]{43}=$/);
  assert.deepEqual(post.body.result, get.body.result);
  assert.deepEqual(rpc.body.result, get.body.result);
  assert.equal(rpc.body.jsonrpc, '2.0');
  assert.equal(rpc.body.id, '1');
  assert.deepEqual(get.body.result.init, { ...get.body.result.init, workchain: -1, shard: '0', seqno: 0 });

  assert.deepEqual(Object.keys(v3.body), ['last', 'first']);
  assert.equal(v3.body.last.seqno, last.seqno);
  assert.equal(v3.body.last.root_hash, last.root_hash);
  assert.equal(v3.body.last.file_hash, last.file_hash);
  assert.equal(v3.body.last.shard, '8000000000000000');
  assert.equal(v3.body.last.workchain, -1);
  assert.equal(v3.body.first.seqno, 0);
  assert.equal(v3.body.first.root_hash, get.body.result.init.root_hash);
  assert.equal(v3.body.last.global_id, -239);
  assert.equal(typeof v3.body.last.start_lt, 'string');
  assert.equal(typeof v3.body.last.gen_utime, 'string');
  assert.ok(BigInt(v3.body.last.start_lt) <= BigInt(v3.body.last.end_lt));
});

test("responses validate against toncenter's OpenAPI files", async () => {
  const base = tongate.url('testnet');
  const get = await getJson(`${base}/api/v2/getMasterchainInfo`);
  assert.deepEqual(v2Spec().validate('/api/v2/getMasterchainInfo', 'get', 200, get.body), []);
  const rpc = await postJson(`${base}/api/v2/jsonRPC`, { id: '7', jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} });
  assert.deepEqual(v2Spec().validate('/api/v2/jsonRPC', 'post', 200, rpc.body), []);
  const v3 = await getJson(`${base}/api/v3/masterchainInfo`);
  assert.deepEqual(v3Spec().validate('/api/v3/masterchainInfo', 'get', 200, v3.body), []);
  const badParams = await postJson(`${base}/api/v2/jsonRPC`, { id: '7', jsonrpc: '2.0', method: 'getMasterchainInfo', params: [1] });
  assert.equal(badParams.status, 422);
  assert.deepEqual(v2Spec().validate('/api/v2/jsonRPC', 'post', 422, badParams.body), []);
});

test('the two networks are independent: own global_id, own seqnos', async () => {
  const before = (await getJson(`${tongate.url('testnet')}/api/v3/masterchainInfo`)).body.last;
  await produceIndexedBlock('mainnet');
  await produceIndexedBlock('mainnet');
  // Testnet's index has caught up with whatever its chain holds now, so a block that moved testnet would show.
  await indexedToHead('testnet');
  const mainLast = (await getJson(`${tongate.url('mainnet')}/api/v3/masterchainInfo`)).body.last;
  const testLast = (await getJson(`${tongate.url('testnet')}/api/v3/masterchainInfo`)).body.last;
  assert.equal(testLast.seqno, before.seqno, 'blocks on mainnet do not move testnet');
  assert.ok(mainLast.seqno > testLast.seqno);
  assert.equal(mainLast.global_id, -239);
  assert.equal(testLast.global_id, -3);
  assert.notEqual(mainLast.root_hash, testLast.root_hash);
  await produceIndexedBlock('testnet');
  assert.equal((await getJson(`${tongate.url('testnet')}/api/v3/masterchainInfo`)).body.last.seqno, before.seqno + 1);
});

test('JSON-RPC: unknown method, malformed JSON, numeric strings, GET', async () => {
  const rpc = `${tongate.url('mainnet')}/api/v2/jsonRPC`;
  const unknown = await postJson(rpc, { id: '1', jsonrpc: '2.0', method: 'getEverything', params: {} });
  assert.equal(unknown.status, 422);
  assert.deepEqual(unknown.body, { ok: false, error: 'Unknown method', code: 422 });
  const malformed = await getJson(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"method": "getMasterchainInfo",',
  });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.ok, false);
  assert.equal(malformed.body.code, 400);
  assert.match(malformed.body.error, /not valid JSON/);
  const notObject = await postJson(rpc, ['getMasterchainInfo']);
  assert.equal(notObject.status, 422);
  assert.match(notObject.body.error, /JSON object/);
  const get = await getJson(rpc);
  assert.equal(get.status, 405);
  assert.equal(get.body.code, 405);
});

test("unknown paths: 404 in each version's shape; health is served", async () => {
  const base = tongate.url('mainnet');
  const v2 = await getJson(`${base}/api/v2/getNothing`);
  assert.equal(v2.status, 404);
  assert.deepEqual(v2.body, { ok: false, error: 'Not Found', code: 404 });
  const v3 = await getJson(`${base}/api/v3/noSuchEndpoint`);
  assert.equal(v3.status, 404);
  assert.deepEqual(v3.body, { error: 'not found' });
  for (const path of ['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']) {
    const health = await getJson(`${base}${path}`);
    assert.equal(health.status, 200);
    assert.equal(health.body.network, 'mainnet');
    assert.equal(typeof health.body.last_seqno, 'number');
  }
});

test('CORS: preflights allow X-API-Key and X-Ton-Client-Version', async () => {
  const response = await fetch(`${tongate.url('mainnet')}/api/v2/jsonRPC`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key,x-ton-client-version',
    },
  });
  assert.equal(response.status, 204);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  assert.match(response.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
  assert.match(response.headers.get('access-control-allow-headers') ?? '', /X-Ton-Client-Version/);
});

test('real clients read it: @ton/ton TonClient and tonweb', async () => {
  const { TonClient } = await import('@ton/ton');
  const TonWeb = ((await import('tonweb')) as any).default;
  const endpoint = `${tongate.url('testnet')}/api/v2/jsonRPC`;
  const expected = (await getJson(`${tongate.url('testnet')}/api/v2/getMasterchainInfo`)).body.result;

  const info = await new TonClient({ endpoint }).getMasterchainInfo();
  assert.equal(info.workchain, -1);
  assert.equal(info.shard, SHARD_V2);
  assert.equal(info.latestSeqno, expected.last.seqno);
  assert.equal(info.initSeqno, 0);

  const tonweb = new TonWeb(new TonWeb.HttpProvider(endpoint));
  const viaTonweb = await tonweb.provider.getMasterchainInfo();
  assert.deepEqual(viaTonweb.last, expected.last);
});

test('docs: /api/v2/openapi.json lists our methods and key schemes; Swagger UI is served with its assets, no CDN', async () => {
  const base = tongate.url('mainnet');
  const spec = await getJson(`${base}/api/v2/openapi.json`);
  assert.equal(spec.status, 200);
  assert.equal(spec.body.openapi, '3.0.3');
  assert.ok(spec.body.paths['/api/v2/getMasterchainInfo'].get);
  assert.ok(spec.body.paths['/api/v2/jsonRPC'].post);
  assert.deepEqual(spec.body.components.securitySchemes.APIKeyHeader, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  assert.deepEqual(spec.body.components.securitySchemes.APIKeyQuery, { type: 'apiKey', in: 'query', name: 'api_key' });
  const page = await fetch(`${base}/api/v2/`);
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.doesNotMatch(html, /https?:\/\//, 'no external (CDN) URL in the page');
  for (const asset of html.match(/\/api\/v2\/docs\/[\w.-]+/g) ?? []) {
    assert.equal((await fetch(`${base}${asset}`)).status, 200, asset);
  }
});
