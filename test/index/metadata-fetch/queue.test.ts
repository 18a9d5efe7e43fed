/**
 * The background loop over a sink of the test's own (an in-memory stand-in for the token index's table), fetching from a real
 * HTTP server of the test's own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MetadataFetcher } from '../../../src/index/metadata-fetch/fetcher.js';
import {
  MetadataFetchQueue,
  type DueUri,
  type FetchOutcome,
  type MetadataSink,
  type RetryLater,
} from '../../../src/index/metadata-fetch/queue.js';
import { MetadataHost, json, status } from './support/servers.js';
import { ManualClock } from '../../../src/util/clock.js';

/** A metadata table in memory: uris without an outcome are pending. */
class TableSink implements MetadataSink {
  readonly outcomes = new Map<string, FetchOutcome>();
  readonly retries = new Map<string, RetryLater>();
  readonly pending: string[] = [];
  largestAsk = 0;
  listCalls = 0;
  failLists = 0;
  private waiters: Array<() => void> = [];

  add(...uris: string[]): void {
    this.pending.push(...uris);
  }

  async dueUris(limit: number, now: number): Promise<DueUri[]> {
    this.listCalls++;
    this.largestAsk = Math.max(this.largestAsk, limit);
    if (this.failLists > 0) {
      this.failLists--;
      throw new Error('database is down');
    }
    return this.pending
      .filter((uri) => !this.outcomes.has(uri) && (this.retries.get(uri)?.at ?? 0) <= now)
      .slice(0, limit)
      .map((uri) => ({ uri, failures: this.retries.get(uri)?.failures ?? 0 }));
  }

  async storeRetry(uri: string, retry: RetryLater): Promise<void> {
    this.retries.set(uri, retry);
    for (const wake of this.waiters.splice(0)) wake();
  }

  async storeFetched(uri: string, outcome: FetchOutcome): Promise<void> {
    this.outcomes.set(uri, outcome);
    for (const wake of this.waiters.splice(0)) wake();
  }

  async until(predicate: () => boolean): Promise<void> {
    while (!predicate()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

let host: MetadataHost;
before(async () => {
  host = await MetadataHost.start({
    '/a.json': json({ name: 'A', symbol: 'AA' }),
    '/b.json': json({ name: 'B' }),
    '/gone': status(404),
    '/down': status(503),
    '/silent': () => {},
  });
});
after(() => host.close());

const fetcherFor = () => new MetadataFetcher({ exemptAddresses: ['127.0.0.1'], retries: 0, timeoutMs: 60_000 });

test(
  'pending uris are fetched in the background and every outcome is stored, in batches of at most batchSize',
  { timeout: 20_000 },
  async () => {
    const sink = new TableSink();
    const uris = Array.from({ length: 7 }, (_, i) => host.url('/a.json') + `?i=${i}`);
    sink.add(...uris, host.url('/gone'), 'ftp://x.example/meta.json');
    const queue = new MetadataFetchQueue(sink, fetcherFor(), { batchSize: 4, idleMs: 60_000 });
    queue.start();
    await sink.until(() => sink.outcomes.size === 9);
    await queue.stop();
    assert.deepEqual(sink.outcomes.get(uris[3]), { ok: true, json: { name: 'A', symbol: 'AA' } });
    assert.deepEqual(sink.outcomes.get(host.url('/gone')), { ok: false, kind: 'http-status', error: 'HTTP 404' });
    assert.equal(sink.outcomes.get('ftp://x.example/meta.json')?.ok, false);
    assert.equal(sink.largestAsk, 4);
    assert.equal(host.hitsOf('/a.json'), 7);
  },
);

test('wake() fetches uris added later without waiting for the idle time', { timeout: 20_000 }, async () => {
  const sink = new TableSink();
  const queue = new MetadataFetchQueue(sink, fetcherFor(), { idleMs: 3_600_000 });
  queue.start();
  await new Promise((r) => setImmediate(r));
  sink.add(host.url('/b.json'));
  queue.wake();
  await sink.until(() => sink.outcomes.size === 1);
  await queue.stop();
  assert.deepEqual(sink.outcomes.get(host.url('/b.json')), { ok: true, json: { name: 'B' } });
});

test('a sink that fails to list is asked again after the idle wait; the loop goes on', { timeout: 20_000 }, async () => {
  const sink = new TableSink();
  sink.failLists = 1;
  const warnings: string[] = [];
  sink.add(host.url('/b.json') + '?retry');
  const queue = new MetadataFetchQueue(sink, fetcherFor(), { idleMs: 10, log: { warn: (_o, message) => warnings.push(message) } });
  queue.start();
  await sink.until(() => sink.outcomes.size === 1);
  await queue.stop();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /could not list or store/);
});

test('a sink that keeps listing a uri it was told failed does not make the loop spin', { timeout: 20_000 }, async () => {
  const sink = new TableSink();
  const gone = host.url('/gone') + '?spin';
  sink.dueUris = async () => {
    sink.listCalls++;
    return [{ uri: gone, failures: 0 }];
  };
  const queue = new MetadataFetchQueue(sink, fetcherFor(), { idleMs: 3_600_000 });
  queue.start();
  await sink.until(() => sink.outcomes.has(gone));
  await new Promise((r) => setTimeout(r, 50));
  await queue.stop();
  assert.ok(sink.listCalls <= 2, `asked ${sink.listCalls} times`);
  assert.equal(host.hitsOf('/gone') >= 1, true);
});

test(
  'a transient failure is scheduled with the clock and the failures so far; at the last attempt it is stored for good',
  { timeout: 20_000 },
  async () => {
    const sink = new TableSink();
    const clock = new ManualClock();
    const [early, last] = [host.url('/down') + '?early', host.url('/down') + '?last'];
    sink.add(early, last);
    sink.retries.set(last, { failures: 2, at: clock.now(), kind: 'http-status', error: 'HTTP 503' });
    const queue = new MetadataFetchQueue(sink, fetcherFor(), {
      idleMs: 3_600_000,
      clock,
      retry: { firstDelayMs: 1000, maxDelayMs: 10_000, maxAttempts: 3 },
    });
    queue.start();
    await sink.until(() => sink.outcomes.has(last) && sink.retries.get(early) !== undefined);
    await queue.stop();
    assert.deepEqual(sink.retries.get(early), { failures: 1, at: clock.now() + 1000, kind: 'http-status', error: 'HTTP 503' });
    assert.deepEqual(sink.outcomes.get(last), { ok: false, kind: 'http-status', error: 'HTTP 503' });
  },
);

test('stop() ends a fetch in flight at once and stores nothing after it', { timeout: 20_000 }, async () => {
  const sink = new TableSink();
  sink.add(host.url('/silent'));
  const queue = new MetadataFetchQueue(sink, fetcherFor(), { idleMs: 3_600_000 });
  queue.start();
  while (host.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
  await queue.stop();
  assert.equal(sink.outcomes.size, 0);
});
