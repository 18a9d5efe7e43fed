/**
 * The persistent retry schedule on a real index, both stores (migration 9's token_metadata_queue, the
 * sink in src/index/tokens/metadata-store.ts, the loop as runIndex starts it) against an HTTP server of the
 * test's own. Time is a ManualClock: "after the backoff" is `clock.advance`, never a wait.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/util/clock.js';
import { openIndex } from '../../../src/index/open-index.js';
import { tokenMetadataSink, CLAIM_LEASE_MS } from '../../../src/index/tokens/metadata-store.js';
import { MetadataHost, json, status, type Route } from './support/servers.js';
import { openStore, type StoreName } from '../support/stores.js';
import { addressN, masterWithUri, queueRow, startLoop } from './support/fetch-loop.js';

const MINUTE = 60_000;
const FETCHED = { name: 'Fetched Coin', symbol: 'FCH' };

/** Answers `first` for the first `times` hits, then the JSON. */
const failingFirst =
  (times: number, first: Route): Route =>
  (req, res, host) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (host.hitsOf(path) <= times) first(req, res, host);
    else json(FETCHED)(req, res, host);
  };

const retryAfter =
  (seconds: string): Route =>
  (_req, res) => {
    res.writeHead(429, { 'retry-after': seconds }).end('slow down');
  };

async function hostFor(t: TestContext, routes: Record<string, Route>): Promise<MetadataHost> {
  const host = await MetadataHost.start(routes);
  t.after(() => host.close());
  return host;
}

for (const store of ['sqlite', 'postgres'] as StoreName[]) {
  test(`a 503 is tried again once the backoff has passed, not before, and then fills token_info [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    const host = await hostFor(t, { '/flaky.json': failingFirst(1, status(503)) });
    const uri = host.url('/flaky.json');
    await index.writer.writeRows(masterWithUri(1, uri));
    const clock = new ManualClock();
    const { queue, sink } = startLoop(index, clock);
    t.after(() => queue.stop());

    await sink.settle(queue);
    assert.equal(host.hitsOf('/flaky.json'), 1);
    assert.deepEqual(await queueRow(index.reads, uri), { failures: 1, next: clock.now() + MINUTE });
    assert.deepEqual((await index.reader.metadata([addressN(1)]))[addressN(1)], {
      is_indexed: false,
      token_info: [{ type: 'jetton_masters' }],
    });

    clock.advance(MINUTE - 1);
    await sink.settle(queue);
    assert.equal(host.hitsOf('/flaky.json'), 1, 'not before the first backoff (1 min)');

    clock.advance(1);
    await sink.settle(queue);
    assert.equal(host.hitsOf('/flaky.json'), 2);
    const entry = (await index.reader.metadata([addressN(1)]))[addressN(1)];
    assert.equal(entry.is_indexed, true);
    assert.equal((entry.token_info[0] as { symbol?: string }).symbol, 'FCH');
    assert.deepEqual(await queueRow(index.reads, uri), { failures: 0, next: null });
  });

  test(`a permanent failure (404, not JSON) is stored at once and never tried again [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    const host = await hostFor(t, { '/gone.json': status(404), '/text': (_q, res) => void res.writeHead(200).end('<html>') });
    await index.writer.writeRows([...masterWithUri(1, host.url('/gone.json')), ...masterWithUri(2, host.url('/text'))]);
    const clock = new ManualClock();
    const { queue, sink } = startLoop(index, clock);
    t.after(() => queue.stop());
    await sink.settle(queue);
    for (let day = 0; day < 30; day++) {
      clock.advance(24 * 60 * MINUTE);
      await sink.settle(queue);
    }
    assert.equal(host.hitsOf('/gone.json'), 1);
    assert.equal(host.hitsOf('/text'), 1);
    const metadata = await index.reader.metadata([addressN(1), addressN(2)]);
    for (const n of [1, 2])
      assert.deepEqual(metadata[addressN(n)], { is_indexed: true, token_info: [{ valid: false, type: 'jetton_masters' }] });
    assert.deepEqual(await queueRow(index.reads, host.url('/gone.json')), { failures: 0, next: null });
  });

  test(`a 429's Retry-After longer than the backoff is honored [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    const host = await hostFor(t, { '/busy.json': failingFirst(1, retryAfter('600')) });
    const uri = host.url('/busy.json');
    await index.writer.writeRows(masterWithUri(1, uri));
    const clock = new ManualClock();
    const { queue, sink } = startLoop(index, clock);
    t.after(() => queue.stop());
    await sink.settle(queue);
    assert.deepEqual(await queueRow(index.reads, uri), { failures: 1, next: clock.now() + 600_000 });
    clock.advance(MINUTE); // the backoff alone would retry now
    await sink.settle(queue);
    clock.advance(600_000 - MINUTE - 1);
    await sink.settle(queue);
    assert.equal(host.hitsOf('/busy.json'), 1, 'not before Retry-After');
    clock.advance(1);
    await sink.settle(queue);
    assert.equal(host.hitsOf('/busy.json'), 2);
    assert.equal((await index.reader.metadata([addressN(1)]))[addressN(1)].is_indexed, true);
  });

  test(`a restart keeps the schedule: a uri waiting for its retry is not fetched early, and is once due [${store}]`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'tongate-metaretry-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const opened = await openStore(t, store, 'testnet', dir);
    if (!opened) return;
    const host = await hostFor(t, { '/flaky.json': failingFirst(2, status(503)) });
    const uri = host.url('/flaky.json');
    await opened.index.writer.writeRows(masterWithUri(1, uri));
    const clock = new ManualClock();
    const first = startLoop(opened.index, clock);
    await first.sink.settle(first.queue);
    clock.advance(MINUTE);
    await first.sink.settle(first.queue);
    assert.equal(host.hitsOf('/flaky.json'), 2);
    await first.queue.stop();
    await opened.index.close();

    const index = await opened.reopen();
    t.after(() => index.close());
    assert.deepEqual(await queueRow(index.reads, uri), { failures: 2, next: clock.now() + 2 * MINUTE }, 'the second backoff doubles');
    const second = startLoop(index, clock);
    t.after(() => second.queue.stop());
    await second.sink.settle(second.queue);
    clock.advance(2 * MINUTE - 1);
    await second.sink.settle(second.queue);
    assert.equal(host.hitsOf('/flaky.json'), 2, 'restarted: still waiting');
    clock.advance(1);
    await second.sink.settle(second.queue);
    assert.equal(host.hitsOf('/flaky.json'), 3);
    assert.equal((await index.reader.metadata([addressN(1)]))[addressN(1)].is_indexed, true);
  });

  test(`a token written again with its uri is not fetched again; its content changed to another uri is fetched [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const { index } = opened;
    const host = await hostFor(t, { '/a.json': json(FETCHED), '/b.json': json(FETCHED) });
    await index.writer.writeRows(masterWithUri(1, host.url('/a.json')));
    const clock = new ManualClock();
    const { queue, sink } = startLoop(index, clock);
    t.after(() => queue.stop());
    await sink.settle(queue);
    // A newer transaction, same content: written again, the uri stays fetched.
    await index.writer.writeRows(masterWithUri(1, host.url('/a.json'), 5n));
    await sink.settle(queue);
    assert.equal(host.hitsOf('/a.json'), 1);
    await index.writer.writeRows(masterWithUri(1, host.url('/b.json'), 6n));
    await sink.settle(queue);
    assert.equal(host.hitsOf('/b.json'), 1);
    assert.equal(host.hitsOf('/a.json'), 1);
  });
}

test('several instances on one PostgreSQL index: two listings at once claim disjoint uris; a dead claim is due again after the lease [postgres]', async (t) => {
  const opened = await openStore(t, 'postgres');
  if (!opened) return;
  const other = await opened.reopen();
  t.after(() => other.close());
  const uris = Array.from({ length: 20 }, (_, i) => `https://x.example/${i}.json`);
  await opened.index.writer.writeRows(uris.flatMap((uri, i) => masterWithUri(i + 1, uri)));
  const now = 1_700_000_000_000;
  const sinkOf = (index: typeof other) =>
    tokenMetadataSink(
      'postgres',
      index.reads,
      (rows) => index.writer.writeRows(rows),
      () => now,
    );
  const [a, b] = await Promise.all([sinkOf(opened.index).dueUris(15, now), sinkOf(other).dueUris(15, now)]);
  const claimed = [...a, ...b].map((d) => d.uri);
  assert.equal(new Set(claimed).size, claimed.length, `a uri claimed twice: ${JSON.stringify(claimed)}`);
  assert.deepEqual(claimed.sort(), [...uris].sort(), 'every due uri claimed once');
  assert.deepEqual(await sinkOf(other).dueUris(15, now + CLAIM_LEASE_MS - 1), [], 'claimed: not due during the lease');
  assert.equal((await sinkOf(other).dueUris(50, now + CLAIM_LEASE_MS)).length, 20, 'an instance that died mid-batch: its uris come back');
});

test('two loops on one PostgreSQL index fetch each uri once [postgres]', async (t) => {
  const opened = await openStore(t, 'postgres');
  if (!opened) return;
  const other = await opened.reopen();
  t.after(() => other.close());
  const routes: Record<string, Route> = {};
  for (let i = 0; i < 40; i++) routes[`/${i}.json`] = json({ name: `T${i}`, symbol: `T${i}` });
  const host = await hostFor(t, routes);
  await opened.index.writer.writeRows(Array.from({ length: 40 }, (_, i) => masterWithUri(i + 1, host.url(`/${i}.json`))).flat());
  const clock = new ManualClock();
  const loops = [startLoop(opened.index, clock), startLoop(other, clock)];
  t.after(() => Promise.all(loops.map((l) => l.queue.stop())));
  await Promise.all(loops.map((l) => l.sink.settle(l.queue)));
  for (let i = 0; i < 40; i++) assert.equal(host.hitsOf(`/${i}.json`), 1, `/${i}.json`);
  const metadata = await opened.index.reader.metadata(Array.from({ length: 40 }, (_, i) => addressN(i + 1)));
  assert.equal(Object.values(metadata).filter((m) => m.is_indexed).length, 40);
});

test('written contents enqueue their uri trimmed, once, blanks left out; reopening the index changes nothing [sqlite]', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-metaretry-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const index = await openIndex({ network: 'testnet', dataDir: dir });
  await index.writer.writeRows([
    ...masterWithUri(1, ' https://x.example/a.json '),
    ...masterWithUri(2, 'https://x.example/a.json'),
    ...masterWithUri(3, '  '),
  ]);
  await index.close();
  const again = await openIndex({ network: 'testnet', dataDir: dir });
  t.after(() => again.close());
  const rows = await again.reads.all('SELECT uri, failures, next_attempt_at FROM token_metadata_queue');
  assert.deepEqual(
    rows.map((r) => [r.uri, Number(r.failures), Number(r.next_attempt_at)]),
    [['https://x.example/a.json', 0, 0]],
    'trimmed, shared, blank left out',
  );
});
