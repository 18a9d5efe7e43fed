/**
 * What the console needs of the server, over a real gateway: `/console/` served from the build under a strict
 * Content-Security-Policy (src/console/routes.ts); the block feed `GET /api/streaming/blocks` (src/stream/block-feed.ts:
 * a key required, blocks once indexed, a rewind on a snapshot restore, the per-key cap); the admin API's per-key
 * minute counts `GET /admin/usage` (src/access/usage.ts, src/http/usage-counter.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson } from '../support/tongate.js';
import { admin, createKey, devnet, sseEvents, startConsoleTongate } from './support.js';

let tongate: Awaited<ReturnType<typeof startConsoleTongate>>;
let base: string;

before(async () => {
  tongate = await startConsoleTongate();
  base = tongate.base;
});
after(async () => tongate?.stop());

test('/console/ is the built app under a strict CSP; only its own files are served', async () => {
  const page = await fetch(`${base}/console/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  const csp = page.headers.get('content-security-policy')!;
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /connect-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  const html = await page.text();
  assert.doesNotMatch(html, /<script>|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  const script = /<script type="module" src="([^"]+)"/.exec(html)![1];
  const js = await fetch(`${base}/console/${script}`);
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type')!, /^text\/javascript/);
  assert.match(js.headers.get('cache-control')!, /immutable/);
  assert.equal(js.headers.get('content-security-policy'), csp);

  const redirect = await fetch(`${base}/console`, { redirect: 'manual' });
  assert.equal(redirect.status, 301);
  assert.equal(redirect.headers.get('location'), '/console/');
  for (const path of ['/console/nothing.js', '/console/..%2Fpackage.json', '/console/%2e%2e%2f%2e%2e%2fpackage.json']) {
    const res = await getJson(`${base}${path}`);
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(JSON.stringify(res.body), /"name":\s*"tongate"/);
  }
  // Outside /api: never limited, no key asked.
  for (let i = 0; i < 5; i++) assert.equal((await fetch(`${base}/console/`)).status, 200);
});

test('block feed: a key required; blocks once indexed; a rewind on restore; the per-key cap', async () => {
  assert.equal((await fetch(`${base}/api/streaming/blocks`)).status, 401);
  assert.equal((await fetch(`${base}/api/streaming/blocks?api_key=tg_unknown`)).status, 401);
  const { key } = await createKey(base, { label: 'feed' });
  const controller = new AbortController();
  const response = await fetch(`${base}/api/streaming/blocks`, { headers: { 'x-api-key': key }, signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type')!, /^text\/event-stream/);
  const events = sseEvents(response);
  const connected = (await events.next()).value!;
  assert.equal(connected.event, 'connected');
  const head = connected.data.seqno as number;

  const snapshot = await devnet(base, '/devnet/snapshots', { name: 'feed' });
  const mined = await devnet(base, '/devnet/mine', { blocks: 2 });
  const seen: number[] = [];
  while (seen.length === 0 || seen.at(-1)! < mined.seqno) {
    const next = (await events.next()).value!;
    assert.equal(next.event, 'block');
    assert.equal(typeof next.data.root_hash, 'string');
    seen.push(next.data.seqno);
    // Told once the index holds it: v3 answers it.
    const indexed = await getJson(`${base}/api/v3/blocks?workchain=-1&seqno=${next.data.seqno}`, { headers: { 'x-api-key': key } });
    assert.equal(indexed.body.blocks[0].root_hash, next.data.root_hash);
  }
  assert.ok(seen[0] > head && seen.at(-1) === mined.seqno, `blocks ${seen} after ${head}`);
  for (let i = 1; i < seen.length; i++) assert.equal(seen[i], seen[i - 1] + 1, 'in order, none skipped');

  // Two feeds per key by default: a third is refused while two are open.
  const second = new AbortController();
  const other = await fetch(`${base}/api/streaming/blocks?api_key=${encodeURIComponent(key)}`, { signal: second.signal });
  assert.equal(other.status, 200);
  const third = await getJson(`${base}/api/streaming/blocks`, { headers: { 'x-api-key': key } });
  assert.equal(third.status, 429);
  assert.match(third.body.error, /connection limit reached: 2/);
  second.abort();

  await devnet(base, `/devnet/snapshots/feed/restore`);
  let next = (await events.next()).value!;
  while (next.event === 'block') next = (await events.next()).value!;
  assert.equal(next.event, 'rewind');
  assert.equal(next.data.seqno, snapshot.seqno);
  controller.abort();
});

test('GET /admin/usage: the requests of a key per minute, the keyless rule, 401s after a revoke', async () => {
  const { id, key } = await createKey(base, { label: 'usage' });
  for (let i = 0; i < 3; i++)
    assert.equal((await getJson(`${base}/api/v3/masterchainInfo`, { headers: { 'x-api-key': key } })).status, 200);
  await getJson(`${base}/api/v3/masterchainInfo`);
  assert.equal((await getJson(`${base}/admin/usage`)).status, 401, 'behind the admin token');
  let usage = (await getJson(`${base}/admin/usage?network=mainnet`, { headers: admin })).body;
  assert.equal(usage.ok, true);
  const mainnet = usage.result[0];
  assert.equal(mainnet.network, 'mainnet');
  assert.equal(mainnet.keys[id].total_requests, 3);
  assert.equal(mainnet.keys[id].requests.length, 60);
  assert.equal(mainnet.keys[id].requests.at(-1), 3);
  assert.ok(mainnet.keyless.total_requests >= 1);
  assert.ok(!JSON.stringify(usage).includes(key), 'never the key itself');

  const revoked = await fetch(`${base}/admin/keys/${id}`, { method: 'DELETE', headers: admin });
  assert.equal(revoked.status, 200);
  const before401 = mainnet.refusals['401'].reduce((a: number, b: number) => a + b, 0);
  assert.equal((await getJson(`${base}/api/v3/masterchainInfo`, { headers: { 'x-api-key': key } })).status, 401);
  usage = (await getJson(`${base}/admin/usage?network=mainnet`, { headers: admin })).body;
  assert.equal(
    usage.result[0].refusals['401'].reduce((a: number, b: number) => a + b, 0),
    before401 + 1,
  );
  assert.equal(usage.result[0].keys[id].total_requests, 3, 'a revoked key is an unknown key: its 401 is a refusal only');
  assert.equal((await getJson(`${base}/admin/usage?network=a&network=b`, { headers: admin })).status, 400);
});
