/**
 * toncenter's semantic request headers through an upstream front (a tongate with local chains behind a
 * recording proxy): X-No-Address-Book, X-No-Metadata and X-Actions-Version reach the upstream as sent, and
 * nothing else of the client's does (its key, cookies, toncenter's X-Timeout / X-Debug-Request, anything on
 * v2); requests differing only in one of them are apart in the read cache and in single flight, identical
 * ones still share.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, toNano } from '@ton/core';
import { ADMIN_TOKEN } from '../api/v2/support/keyed-tongate.js';
import { startPair, UPSTREAM_KEY, type UpstreamPair } from './support/pair.js';
import { fundAndSeal } from './support/chain.js';

let pair: UpstreamPair;
let txHash = '';

before(async () => {
  pair = await startPair({ flags: { upstreamCache: ['mainnet=60000', 'testnet=0'], adminToken: ADMIN_TOKEN } });
  const tx = await fundAndSeal(pair.upstream.chain('mainnet'), Address.parse(`0:${'5d'.repeat(32)}`), toNano('1'));
  txHash = encodeURIComponent(tx.txHash.toString('base64'));
  // v3 reads the upstream's index, a moment behind its chain.
  const upstreamMainnet = pair.upstream.networks.find((n) => n.name === 'mainnet')!;
  for (let waited = 0; upstreamMainnet.indexLag!() > 0; waited += 10) {
    assert.ok(waited < 30_000, 'the upstream index catches up with its chain');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});
after(() => pair?.stop());

async function get(network: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(pair.front.url(network) + path, { headers });
  return { status: response.status, text: await response.text() };
}

test("X-No-Address-Book, X-No-Metadata, X-Actions-Version reach the upstream as sent; the client's key and other headers never do", async () => {
  const proxy = pair.proxies.mainnet[0];
  const before = proxy.recorded.length;
  const path = '/api/v3/actions?limit=1';
  const answer = await get('mainnet', `${path}&api_key=client-secret-q`, {
    'X-No-Address-Book': 'true',
    'X-No-Metadata': '1',
    'X-Actions-Version': 'v1',
    'X-API-Key': 'client-secret-h',
    'X-Timeout': '5',
    'X-Debug-Request': 'true',
    Cookie: 'session=client-secret-c',
    'X-Forwarded-For': '203.0.113.9',
  });
  const seen = proxy.recorded.slice(before).filter((r) => r.path === path);
  assert.equal(seen.length, 1, 'one upstream request, api_key cut from its query');
  // (The local upstream's index does not build /actions: its answer, whatever it is, is passed as it is.)
  assert.equal(answer.status, seen[0].status, answer.text);
  const headers = seen[0].headers;
  assert.equal(headers['x-no-address-book'], 'true');
  assert.equal(headers['x-no-metadata'], '1');
  assert.equal(headers['x-actions-version'], 'v1');
  assert.equal(headers['x-api-key'], UPSTREAM_KEY, "tongate's key, not the client's");
  for (const name of ['x-timeout', 'x-debug-request', 'cookie', 'x-forwarded-for'])
    assert.equal(headers[name], undefined, `${name} is not forwarded`);
  assert.ok(!JSON.stringify(headers).includes('client-secret'), JSON.stringify(headers));

  // v2 (toncenter's ton-http-api) reads none of them: not forwarded, and not part of v2's key.
  const v2Before = proxy.recorded.length;
  assert.equal((await get('mainnet', '/api/v2/getMasterchainInfo', { 'X-No-Metadata': 'true' })).status, 200);
  for (const r of proxy.recorded.slice(v2Before)) assert.equal(r.headers['x-no-metadata'], undefined, r.path);
});

test('a kept read: requests differing only in X-No-Metadata are two cache entries and two upstream calls; identical ones one', async () => {
  const proxy = pair.proxies.mainnet[0];
  const path = `/api/v3/transactions?hash=${txHash}`;
  const calls = () => proxy.recorded.filter((r) => r.path === path).length;
  const before = calls();
  const plain = await get('mainnet', path);
  const noMetadata = await get('mainnet', path, { 'X-No-Metadata': 'true' });
  assert.equal(plain.status, 200, plain.text);
  assert.equal(noMetadata.status, 200, noMetadata.text);
  assert.equal(calls() - before, 2, 'the header makes a request of its own');
  assert.equal((await get('mainnet', path)).text, plain.text);
  assert.equal((await get('mainnet', path, { 'X-No-Metadata': 'true' })).text, noMetadata.text);
  assert.equal(calls() - before, 2, 'identical requests are answered from their own cache entry');

  // The answer differs where the upstream has something to leave out: an emptied address book is never
  // served to a request that did not ask for it, nor the other way round.
  const noBook = await get('mainnet', path, { 'X-No-Address-Book': 'true' });
  assert.deepEqual(JSON.parse(noBook.text).address_book, {});
  assert.ok(Object.keys(JSON.parse(plain.text).address_book).length > 0, plain.text);
  assert.equal((await get('mainnet', path)).text, plain.text);
  assert.equal(calls() - before, 3);
});

test('single flight (cache off): concurrent reads differing only in X-No-Metadata make two upstream calls, identical ones share', async () => {
  const proxy = pair.proxies.testnet[0];
  const path = `/api/v3/addressBook?address=${encodeURIComponent(pair.upstream.chain('testnet').faucets()[0].address.toString())}`;
  const calls = () => proxy.recorded.filter((r) => r.path === path).length;
  const [callsBefore, coalescedBefore] = [calls(), await coalesced('testnet')];
  // The upstream holds the calls until every request has arrived: 2 calls reached it, 4 requests joined them.
  proxy.inject('hold', Infinity, /addressBook/);
  const pending = [
    ...Array.from({ length: 3 }, () => get('testnet', path)),
    ...Array.from({ length: 3 }, () => get('testnet', path, { 'X-No-Metadata': 'true' })),
  ];
  for (let i = 0; i < 500 && (calls() < callsBefore + 2 || (await coalesced('testnet')) < coalescedBefore + 4); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  proxy.release();
  const answers = await Promise.all(pending);
  assert.ok(
    answers.every((a) => a.status === 200),
    answers.map((a) => a.text).join('\n'),
  );
  assert.equal(calls() - callsBefore, 2, 'one upstream call per header value');
  assert.equal((await coalesced('testnet')) - coalescedBefore, 4);
  const sent = proxy.recorded
    .filter((r) => r.path === path)
    .slice(-2)
    .map((r) => r.headers['x-no-metadata']);
  assert.deepEqual(sent.sort(), ['true', undefined].sort());
});

async function coalesced(network: string): Promise<number> {
  const metrics = await (await fetch(`${pair.front.url(network)}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const match = new RegExp(`tongate_upstream_shared_answers_total\\{network="${network}",how="coalesced"\\} (\\d+)`).exec(metrics);
  return match ? Number(match[1]) : 0;
}
