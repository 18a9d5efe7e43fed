/**
 * The fetcher against real HTTP(S) servers of the test's own on loopback. The fetcher under test runs with
 * private addresses refused and 127.0.0.1 alone exempted (`exemptAddresses`), so every other private address,
 * and every name, goes through the real refusal path.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MetadataFetcher, type MetadataFetcherOptions } from '../../../src/index/metadata-fetch/fetcher.js';
import { MetadataFetchError, type FetchFailureKind } from '../../../src/index/metadata-fetch/errors.js';
import { ManualClock } from '../../../src/util/clock.js';
import { freePort } from '../../support/ports.js';
import { MetadataHost, json, redirect, selfSignedCert, status, type Route } from './support/servers.js';

const META = { name: 'Coin', symbol: 'CN', decimals: '9', image: 'https://img.example/c.png' };
let host: MetadataHost;
let second: MetadataHost; // on 127.0.0.2: a private address that is not exempted
let secure: MetadataHost;
let tls: { cert: string; key: string };
const fetchers: MetadataFetcher[] = [];

function fetcher(options: MetadataFetcherOptions = {}): MetadataFetcher {
  const made = new MetadataFetcher({ exemptAddresses: ['127.0.0.1'], timeoutMs: 2000, sleep: async () => {}, ca: tls.cert, ...options });
  fetchers.push(made);
  return made;
}

async function failure(promise: Promise<unknown>, kind: FetchFailureKind, message?: RegExp): Promise<MetadataFetchError> {
  const err = await promise.then(
    () => assert.fail(`expected a ${kind} failure`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof MetadataFetchError, String(err));
  assert.equal(err.kind, kind, err.message);
  if (message) assert.match(err.message, message);
  return err;
}

let flakyCalls = 0;
let closedPort = 0;
let hugeClosedAfter: number | undefined;
const held: Array<() => void> = [];
const routes: Record<string, Route> = {
  '/meta.json': json(META),
  '/text-plain.json': json(META, 'text/plain; charset=utf-8'),
  '/bom.json': (_req, res) => res.writeHead(200).end('\uFEFF' + JSON.stringify(META)),
  '/page.html': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>'),
  '/array.json': json([1, 2]),
  '/latin1.json': (_req, res) => res.writeHead(200).end(Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d])),
  '/silent': () => {}, // accepts, never answers
  '/drip': (_req, res, server) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"name":"');
    const timer = server.every(100, () => res.write('a')); // a chunk every 100 ms: no body-chunk timeout fires
    res.on('close', () => clearInterval(timer));
  },
  '/huge': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 50 * 1_048_576) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('{}');
    };
    res.on('close', () => {
      hugeClosedAfter = sent;
      sent = Infinity;
    });
    pump();
  },
  '/huge-declared': (_req, res) => res.writeHead(200, { 'content-length': String(50 * 1_048_576) }).end(),
  '/missing': status(404),
  '/refused-port': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${closedPort}/meta.json` }).end(),
  '/broken': status(500),
  '/flaky': (req, res, server) => (++flakyCalls === 1 ? status(503)(req, res, server) : json(META)(req, res, server)),
  '/held': (req, res, server) => held.push(() => json(META)(req, res, server)),
  '/to-meta': redirect('/meta.json', 301),
  '/loop': redirect('/loop'),
  '/to-file': redirect('file:///etc/passwd'),
};

before(async () => {
  tls = selfSignedCert();
  closedPort = await freePort();
  host = await MetadataHost.start(routes);
  second = await MetadataHost.start({ '/meta.json': json(META) }, { host: '127.0.0.2' });
  routes['/to-second'] = redirect(second.url('/meta.json'));
  routes['/to-second-v6-mapped'] = redirect(second.url('/meta.json').replace('127.0.0.2', '[::ffff:127.0.0.2]'));
  secure = await MetadataHost.start({ '/meta.json': json(META) }, { tls });
});

after(async () => {
  await Promise.all(fetchers.map((f) => f.close()));
  await Promise.all([host?.close(), second?.close(), secure?.close()]);
});

test('valid JSON comes back as the object, whatever the content type says', async () => {
  const f = fetcher();
  assert.deepEqual(await f.fetch(host.url('/meta.json')), META);
  assert.deepEqual(await f.fetch(host.url('/text-plain.json')), META);
  assert.deepEqual(await f.fetch(host.url('/bom.json')), META);
});

test('https: fetched with the certificate checked; a bad certificate is not retried', async () => {
  assert.deepEqual(await fetcher().fetch(secure.url('/meta.json')), META);
  const delays: number[] = [];
  const err = await failure(
    fetcher({ ca: undefined, sleep: async (ms) => void delays.push(ms) }).fetch(secure.url('/meta.json')),
    'network',
    /certificate/i,
  );
  assert.equal(err.retryable, false);
  assert.deepEqual(delays, []);
});

test('a refused connection is retried', async () => {
  const delays: number[] = [];
  const err = await failure(
    fetcher({ retries: 1, backoffMs: 3, sleep: async (ms) => void delays.push(ms) }).fetch(host.url('/refused-port')),
    'network',
    /ECONNREFUSED/,
  );
  assert.equal(err.retryable, true);
  assert.deepEqual(delays, [3]);
  assert.equal(host.hitsOf('/refused-port'), 2);
});

test('a body that is not a JSON object is refused, not retried', async () => {
  const f = fetcher();
  await failure(f.fetch(host.url('/page.html')), 'not-json', /not UTF-8 JSON/);
  await failure(f.fetch(host.url('/array.json')), 'not-json', /not an object/);
  await failure(f.fetch(host.url('/latin1.json')), 'not-json');
  assert.equal(host.hitsOf('/page.html'), 1);
});

test('a host that never answers times out, retried, and the fetch ends', async () => {
  const delays: number[] = [];
  const f = fetcher({ timeoutMs: 300, retries: 1, backoffMs: 7, sleep: async (ms) => void delays.push(ms) });
  const before = host.hitsOf('/silent');
  await failure(f.fetch(host.url('/silent')), 'timeout');
  assert.equal(host.hitsOf('/silent') - before, 2);
  assert.deepEqual(delays, [7]);
});

test('a body that drips forever is cut by the attempt deadline, not only the between-chunks timeout', async () => {
  await failure(fetcher({ timeoutMs: 400, retries: 0 }).fetch(host.url('/drip')), 'timeout');
});

test('a huge body is dropped at the size cap, the transfer stopped', async () => {
  const f = fetcher({ maxBytes: 256 * 1024 });
  await failure(f.fetch(host.url('/huge')), 'too-large', /passed 262144 bytes/);
  await failure(f.fetch(host.url('/huge-declared')), 'too-large', /52428800 bytes/);
  assert.equal(host.hitsOf('/huge'), 1, 'too-large is not retried');
  while (hugeClosedAfter === undefined) await new Promise((r) => setTimeout(r, 5));
  assert.ok(hugeClosedAfter < 10 * 1_048_576, `the server was stopped after ${hugeClosedAfter} of 50 MiB`);
});

test('404 is not retried; 500 is, with a doubling backoff; a 503 that passes later gives the JSON', async () => {
  const delays: number[] = [];
  const f = fetcher({ retries: 2, backoffMs: 100, sleep: async (ms) => void delays.push(ms) });
  await failure(f.fetch(host.url('/missing')), 'http-status', /HTTP 404/);
  assert.equal(host.hitsOf('/missing'), 1);
  assert.deepEqual(delays, []);
  await failure(f.fetch(host.url('/broken')), 'http-status', /HTTP 500/);
  assert.equal(host.hitsOf('/broken'), 3);
  assert.deepEqual(delays, [100, 200]);
  assert.deepEqual(await f.fetch(host.url('/flaky')), META);
  assert.equal(host.hitsOf('/flaky'), 2);
});

test('negative cache: a failed uri fails at once until its time is up', async () => {
  const clock = new ManualClock();
  const f = fetcher({ clock, negativeTtlMs: 60_000, retries: 0 });
  const uri = host.url('/missing') + '?negative';
  const hits = host.hitsOf('/missing');
  await failure(f.fetch(uri), 'http-status');
  await failure(f.fetch(uri), 'http-status');
  assert.equal(host.hitsOf('/missing') - hits, 1, 'the second failure came from the cache');
  assert.equal(f.knownToFail(uri), true);
  clock.advance(60_000);
  assert.equal(f.knownToFail(uri), false);
  await failure(f.fetch(uri), 'http-status');
  assert.equal(host.hitsOf('/missing') - hits, 2);
});

test('redirects are followed and each hop is checked again', async () => {
  const f = fetcher();
  assert.deepEqual(await f.fetch(host.url('/to-meta')), META);
  await failure(f.fetch(host.url('/loop')), 'too-many-redirects', /more than 3/);
  assert.equal(host.hitsOf('/loop'), 4);
  await failure(f.fetch(host.url('/to-file')), 'unsupported-uri', /file:/);
});

test('a redirect to a private address is refused unless allowed', async () => {
  await failure(fetcher().fetch(host.url('/to-second')), 'refused-address', /127\.0\.0\.2, a loopback address/);
  await failure(fetcher().fetch(host.url('/to-second-v6-mapped')), 'refused-address', /IPv4 inside IPv6/);
  assert.equal(second.hitsOf('/meta.json'), 0, 'nothing reached the private host');
  assert.deepEqual(await fetcher({ allowPrivate: true }).fetch(host.url('/to-second')), META);
  assert.equal(second.hitsOf('/meta.json'), 1);
});

test('a name that resolves to loopback (localhost) is refused by default, fetched when private addresses are allowed', async () => {
  const viaName = host.url('/meta.json').replace('127.0.0.1', 'localhost');
  const hits = host.hitsOf('/meta.json');
  const err = await failure(new MetadataFetcher({ ca: tls.cert }).fetch(viaName), 'refused-address', /^localhost resolves to .*(loopback)/);
  assert.ok(!err.retryable);
  assert.equal(host.hitsOf('/meta.json'), hits, 'no request was made');
  await failure(new MetadataFetcher().fetch(host.url('/meta.json')), 'refused-address', /127\.0\.0\.1, a loopback address/);
  assert.deepEqual(await fetcher({ allowPrivate: true, exemptAddresses: [] }).fetch(viaName), META);
  assert.deepEqual(
    await fetcher({ allowPrivate: true, exemptAddresses: [] }).fetch(secure.url('/meta.json').replace('127.0.0.1', 'localhost')),
    META,
  );
});

test('other spellings of a private address are refused too (URL normalization, v6 literals)', async () => {
  const port = new URL(second.origin).port;
  const hits = second.hitsOf('/meta.json');
  for (const spelling of [
    `http://2130706434:${port}`,
    `http://0x7f.0.0.2:${port}`,
    `http://127.2:${port}`,
    `http://[::ffff:7f00:2]:${port}`,
    `http://[::1]:${port}`,
  ]) {
    await failure(fetcher().fetch(`${spelling}/meta.json`), 'refused-address', /loopback/);
  }
  assert.equal(second.hitsOf('/meta.json'), hits);
});

test('ipfs uris go through the configured gateway', async () => {
  const f = fetcher({ ipfsGateway: new URL(host.origin) });
  assert.deepEqual(await f.fetch('ipfs://meta.json'), META);
  await failure(fetcher().fetch('ipfs://meta.json'), 'unsupported-uri', /--ipfs-gateway/);
});

test('at most `perHost` fetches in flight to one host', async () => {
  const f = fetcher({ concurrency: 8, perHost: 2 });
  host.maxInFlight = 0;
  const all = Promise.all([1, 2, 3, 4, 5].map((n) => f.fetch(host.url('/held') + `?n=${n}`)));
  while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 100)); // room for a third request to arrive if the limit leaked
  assert.equal(held.length, 2);
  while ((await Promise.race([all.then(() => true), new Promise((r) => setTimeout(() => r(false), 5))])) === false) held.shift()?.();
  assert.equal((await all).length, 5);
  assert.equal(host.maxInFlight, 2);
});

test('close() ends a fetch in flight at once', async () => {
  const f = new MetadataFetcher({ exemptAddresses: ['127.0.0.1'], timeoutMs: 60_000 });
  const pending = f.fetch(host.url('/silent') + '?close').then(
    () => assert.fail('resolved'),
    (err: Error) => err,
  );
  while (host.hitsOf('/silent') === 0 || host.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
  await f.close();
  assert.equal((await pending).name, 'AbortError');
});
