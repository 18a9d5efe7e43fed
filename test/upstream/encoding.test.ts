/**
 * Content codings through a tongate in upstream mode, before a compressing upstream (the tests' proxy in
 * `compress()` mode before a real tongate: it encodes as nginx's gzip does). The client's Accept-Encoding is
 * forwarded as the codings tongate can decode (br, gzip, deflate) in one spelling; the upstream's encoded
 * bytes reach the client unchanged with their Content-Encoding and Vary; the cache and single flight keep
 * answers per codings asked; errors tongate rewrites are decoded first and leave in the version's shape;
 * the size cap counts the bytes received. Clients that decode (fetch, TonClient through axios) read them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { request } from 'undici';
import type { TestTongate } from '../support/tongate.js';
import { ADMIN_TOKEN } from '../api/v2/support/keyed-tongate.js';
import { startFront, startUpstream, type Front } from './support/pair.js';
import type { Fault } from './support/fault-proxy.js';

let upstream: TestTongate;
let front: Front;
let faucet: string;
before(async () => {
  upstream = await startUpstream();
  faucet = upstream.chain('mainnet').faucets()[0].address.toString();
  front = await startCompressingFront({ upstreamCache: ['mainnet=60000'] });
});
after(async () => {
  await front?.stop();
  await upstream?.stop();
});

async function startCompressingFront(flags: Record<string, unknown>): Promise<Front> {
  const started = await startFront(upstream, {
    networks: ['mainnet'],
    flags: { upstreamHealthInterval: '3600000', upstreamMaxResponse: '1048576', adminToken: ADMIN_TOKEN, ...flags },
  });
  started.proxies.mainnet[0].compress();
  return started;
}

/** A raw client (undici's request does not decode): the bytes and headers as tongate sent them. */
async function raw(
  f: Front,
  path: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  const { statusCode, headers, body } = await request(f.front.url('mainnet') + path, {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
  return { status: statusCode, headers, bytes: Buffer.from(await body.arrayBuffer()) };
}

function decode(bytes: Buffer, coding: unknown): Buffer {
  if (coding === undefined) return bytes;
  if (coding === 'gzip') return gunzipSync(bytes);
  if (coding === 'br') return brotliDecompressSync(bytes);
  if (coding === 'deflate') return inflateSync(bytes);
  throw new Error(`unexpected content-encoding ${String(coding)}`);
}

const lastSeen = (f: Front, match: RegExp) => f.proxies.mainnet[0].recorded.filter((r) => match.test(r.path)).at(-1)!;
const maskExtra = (text: string) => text.replace(/"@extra":"[^"]*"/, '"@extra":"*"');

test("each coding the client accepts is asked of the upstream, and the upstream's encoded bytes reach the client unchanged", async () => {
  const paths = [`/api/v2/getAddressInformation?address=${faucet}`, `/api/v3/addressBook?address=${encodeURIComponent(faucet)}`];
  for (const path of paths) {
    const plain = await (await fetch(upstream.url('mainnet') + path, { headers: { 'accept-encoding': 'identity' } })).text();
    for (const coding of ['gzip', 'br', 'deflate']) {
      const answer = await raw(front, path, coding);
      assert.equal(answer.status, 200, `${path} ${coding}`);
      const seen = lastSeen(front, /getAddressInformation|addressBook/);
      assert.equal(seen.headers['accept-encoding'], coding, 'the upstream is asked for what the client accepts');
      assert.equal(answer.headers['content-encoding'], coding);
      assert.match(String(answer.headers.vary), /accept-encoding/i);
      assert.ok(answer.bytes.equals(seen.responseBody!), `${path} ${coding}: the upstream's encoded bytes, unchanged`);
      assert.equal(maskExtra(decode(answer.bytes, coding).toString('utf8')), maskExtra(plain), 'they decode to the plain answer');
    }
  }
});

test('Accept-Encoding is read as RFC 9110 says (q=0 refuses, * accepts the rest, x-gzip is gzip) and sent in one spelling', async () => {
  const path = `/api/v2/getAddressBalance?address=${faucet}`;
  const cases: Array<[string | undefined, string, string | undefined]> = [
    [undefined, 'identity', undefined],
    ['gzip;q=0, deflate', 'deflate', 'deflate'],
    ['*', 'br, gzip, deflate', 'br'],
    ['br;q=0, *;q=0.5', 'gzip, deflate', 'gzip'],
    ['zstd', 'identity', undefined],
    ['GZIP, x-gzip;q=0.5, br;q=0', 'gzip', 'gzip'],
    ['deflate, gzip, br', 'br, gzip, deflate', 'br'],
  ];
  for (const [asked, forwarded, coding] of cases) {
    const answer = await raw(front, path, asked);
    assert.equal(answer.status, 200);
    assert.equal(lastSeen(front, /getAddressBalance/).headers['accept-encoding'], forwarded, `client ${asked}`);
    assert.equal(answer.headers['content-encoding'], coding, `client ${asked}`);
    assert.equal(JSON.parse(decode(answer.bytes, coding).toString('utf8')).ok, true);
  }
});

test('clients that decode read the encoded answers: fetch, and TonClient (axios) on JSON-RPC', async () => {
  const response = await fetch(front.front.url('mainnet') + `/api/v2/getAddressInformation?address=${faucet}`);
  assert.equal(response.status, 200);
  assert.ok(['br', 'gzip', 'deflate'].includes(String(response.headers.get('content-encoding'))), 'fetch asked for a coding and got one');
  assert.equal((await response.json()).ok, true);
  const client = new TonClient({ endpoint: `${front.front.url('mainnet')}/api/v2/jsonRPC` });
  const balance = await client.getBalance(Address.parse(faucet));
  assert.ok(balance > 0n);
  assert.match(String(lastSeen(front, /jsonRPC/).headers['accept-encoding']), /gzip/, "TonClient's axios asks for gzip");
});

test('the cache and single flight keep answers per codings asked: a gzip answer never reaches a client that asked for none', async () => {
  const proxy = front.proxies.mainnet[0];
  const calls = (coding: string) =>
    proxy.recorded.filter((r) => r.path === '/api/v2/getMasterchainInfo' && r.headers['accept-encoding'] === coding).length;
  const identityBefore = calls('identity'); // the health check at start asked for none
  const gzipFirst = await raw(front, '/api/v2/getMasterchainInfo', 'gzip');
  const gzipSecond = await raw(front, '/api/v2/getMasterchainInfo', 'gzip');
  assert.equal(calls('gzip'), 1, 'the second gzip read is answered from the cache');
  assert.ok(gzipSecond.bytes.equals(gzipFirst.bytes));
  assert.equal(gzipSecond.headers['content-encoding'], 'gzip');
  const plain = await raw(front, '/api/v2/getMasterchainInfo');
  assert.equal(calls('identity') - identityBefore, 1, 'a read asking for no coding is its own upstream call');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(JSON.parse(plain.bytes.toString('utf8')).ok, true);
  await raw(front, '/api/v2/getMasterchainInfo');
  assert.equal(calls('identity') - identityBefore, 1, 'and is kept apart');

  // Single flight: the upstream holds the calls until the others joined; one call per codings asked.
  const path = `/api/v2/getAddressState?address=${faucet}`;
  const before = {
    gzip: proxy.recorded.filter((r) => r.path === path && r.headers['accept-encoding'] === 'gzip').length,
    identity: proxy.recorded.filter((r) => r.path === path && r.headers['accept-encoding'] === 'identity').length,
  };
  const coalescedBefore = await coalesced();
  proxy.inject('hold', Infinity, /getAddressState/);
  const pending = [...Array.from({ length: 3 }, () => raw(front, path, 'gzip')), ...Array.from({ length: 3 }, () => raw(front, path))];
  for (let i = 0; i < 500 && (await coalesced()) < coalescedBefore + 4; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  proxy.release();
  const answers = await Promise.all(pending);
  assert.equal((await coalesced()) - coalescedBefore, 4, 'two of each three joined a flight');
  assert.equal(proxy.recorded.filter((r) => r.path === path && r.headers['accept-encoding'] === 'gzip').length - before.gzip, 1);
  assert.equal(proxy.recorded.filter((r) => r.path === path && r.headers['accept-encoding'] === 'identity').length - before.identity, 1);
  for (const answer of answers.slice(0, 3)) assert.equal(answer.headers['content-encoding'], 'gzip');
  for (const answer of answers.slice(3)) {
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(answer.bytes.toString('utf8')).ok, true);
  }
});

async function coalesced(): Promise<number> {
  const metrics = await (
    await fetch(`${front.front.url('mainnet')}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).text();
  const match = /tongate_upstream_shared_answers_total\{network="mainnet",how="coalesced"\} (\d+)/.exec(metrics);
  return match ? Number(match[1]) : 0;
}

test("errors tongate rewrites are decoded first and leave in the version's shape, not encoded", async () => {
  const cases: Array<[Fault, string, number, RegExp]> = [
    ['500', '/api/v2/getAddressBalance', 502, /^LITE_SERVER_UNKNOWN: upstream exploded$/],
    ['500', '/api/v3/addressBook', 502, /^LITE_SERVER_UNKNOWN: upstream exploded$/],
    ['429', '/api/v2/getAddressBalance', 503, /^upstream rate limit reached, retry later$/],
    ['401', '/api/v2/getAddressBalance', 502, /^upstream refused tongate's API key \(401\): API key does not exist$/],
    ['not-json', '/api/v2/getAddressBalance', 502, /^upstream answered 200 with a body that is not JSON$/],
  ];
  for (const [fault, route, status, message] of cases) {
    for (const coding of ['gzip', 'br']) {
      // A front of its own per case: fresh breakers (a body that is not JSON counts against the URL).
      const f = await startCompressingFront({ upstreamCache: ['mainnet=0'] });
      try {
        f.proxies.mainnet[0].inject(fault, Infinity, /getAddressBalance|addressBook/);
        const answer = await raw(f, `${route}?address=${encodeURIComponent(faucet)}`, coding);
        assert.equal(answer.status, status, `${fault} ${route} ${coding}: ${answer.bytes}`);
        assert.equal(answer.headers['content-encoding'], undefined, 'tongate wrote this body itself');
        const body = JSON.parse(answer.bytes.toString('utf8'));
        assert.match(body.error, message);
        if (route.startsWith('/api/v2')) assert.deepEqual([body.ok, body.code], [false, status]);
        const sent = f.proxies.mainnet[0].recorded.find((r) => r.headers['accept-encoding'] === coding && r.responseBody !== undefined)!;
        assert.ok(decode(sent.responseBody!, coding).length > 0, 'the upstream sent it encoded');
      } finally {
        await f.stop();
      }
    }
  }
});

test('the size cap counts the bytes received: 3 MiB that arrive as a few kB of gzip pass, the same plain are refused', async () => {
  const f = await startCompressingFront({ upstreamCache: ['mainnet=0'] });
  try {
    f.proxies.mainnet[0].inject('huge', Infinity, /getAddressBalance/);
    const path = `/api/v2/getAddressBalance?address=${faucet}`;
    const encoded = await raw(f, path, 'gzip');
    assert.equal(encoded.status, 200);
    assert.ok(encoded.bytes.length < 1048576, `${encoded.bytes.length} bytes received and sent`);
    assert.equal(gunzipSync(encoded.bytes).length, 3 * 1024 * 1024);
    const plain = await raw(f, path);
    assert.equal(plain.status, 502);
    assert.match(JSON.parse(plain.bytes.toString('utf8')).error, /larger than 1048576 bytes/);
  } finally {
    await f.stop();
  }
});
