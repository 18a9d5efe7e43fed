/**
 * The parts of the forwarder that need no network: which requests are reads and what is kept, the
 * client's key cut from the query, the budget (injected clock: refusals decided without waiting), the
 * retry budget, the bounded cache, the shared body that coalesced requests read, and decoding the bodies
 * tongate must look into.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { v2Policy, v3Policy } from '../../src/upstream/route-policy.js';
import { withoutApiKey } from '../../src/upstream/hook.js';
import { UpstreamBudget } from '../../src/upstream/budget.js';
import { RetryBudget } from '../../src/upstream/retry-budget.js';
import { ReadCache } from '../../src/upstream/read-cache.js';
import { SharedBody } from '../../src/upstream/shared-body.js';
import { UpstreamFailure } from '../../src/upstream/failure.js';
import { acceptedCodings, contentCoding, decoded } from '../../src/upstream/encoding.js';
import { gzipSync, brotliCompressSync, deflateRawSync } from 'node:zlib';

test('reads and writes: sendBoc*, v3 message and unknown methods are never reads; what changes per block is kept per block', () => {
  for (const method of ['sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError', 'sendQuery', 'somethingNew'])
    assert.deepEqual(v2Policy(method, {}), { read: false }, method);
  assert.deepEqual(v2Policy('getMasterchainInfo', {}), { read: true, keep: 'block' });
  assert.deepEqual(v2Policy('getConfigParam', { config_id: 1 }), { read: true, keep: 'block' });
  assert.deepEqual(v2Policy('getConfigParam', { config_id: 1, seqno: 5 }), { read: true, keep: 'final' });
  assert.deepEqual(v2Policy('getBlockHeader', { workchain: -1, seqno: 5 }), { read: true, keep: 'final' });
  assert.deepEqual(v2Policy('lookupBlock', { workchain: -1, unixtime: 5 }), { read: true, keep: undefined });
  assert.deepEqual(v2Policy('getTransactions', { address: 'x', lt: '1', hash: 'h' }), { read: true, keep: 'final' });
  assert.deepEqual(v2Policy('getTransactions', { address: 'x' }), { read: true, keep: undefined });
  assert.deepEqual(v2Policy('runGetMethod', {}), { read: true });
  assert.deepEqual(v3Policy('POST', '/message', {}), { read: false });
  assert.deepEqual(v3Policy('POST', '/runGetMethod', {}), { read: true });
  assert.deepEqual(v3Policy('DELETE', '/anything', {}), { read: false });
  assert.deepEqual(v3Policy('GET', '/masterchainInfo', {}), { read: true, keep: 'block' });
  assert.deepEqual(v3Policy('GET', '/transactions', { hash: 'abc' }), { read: true, keep: 'final' });
  assert.deepEqual(v3Policy('GET', '/transactions', { hash: 'abc', limit: '5' }), { read: true });
});

test("the client's api_key leaves the query in every spelling; everything else stays as sent", () => {
  assert.equal(withoutApiKey('address=EQx&limit=5'), 'address=EQx&limit=5');
  assert.equal(withoutApiKey('api_key=k&address=EQx'), 'address=EQx');
  assert.equal(withoutApiKey('address=EQ%2Bx&api%5Fkey=k&api_key=&api_key'), 'address=EQ%2Bx');
  assert.equal(withoutApiKey('api_keys=1&x_api_key=2'), 'api_keys=1&x_api_key=2');
  assert.equal(withoutApiKey('api_key=k'), '');
});

test('budget: concurrency is a queue, the rate a token bucket; what cannot start before its deadline is refused at once', async () => {
  const clock = new ManualClock();
  const budget = new UpstreamBudget({ clock, concurrency: 1 });
  const first = budget.acquire(clock.now() + 1000);
  assert.equal(typeof first, 'function', 'a free slot is granted synchronously');
  let granted = false;
  const second = Promise.resolve(budget.acquire(clock.now() + 60_000)).then((release) => {
    granted = true;
    return release;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(granted, false, 'waits for the slot');
  (first as () => void)();
  (await second)();
  assert.equal(granted, true);
  assert.equal(budget.active, 0);

  const rated = new UpstreamBudget({ clock, concurrency: 100, rps: 2 });
  (rated.acquire(clock.now() + 100) as () => void)();
  (rated.acquire(clock.now() + 100) as () => void)();
  assert.throws(
    () => rated.acquire(clock.now() + 100),
    (error: unknown) => error instanceof UpstreamFailure && error.status === 503 && error.kind === 'budget' && error.retryAfter === 1,
  );
  clock.advance(500);
  assert.equal(typeof rated.acquire(clock.now() + 100), 'function', 'one token back after 1/rps seconds');
});

test('retry budget: a reserve of ten, then one retry per ten requests', () => {
  const budget = new RetryBudget();
  let granted = 0;
  while (budget.withdraw()) granted++;
  assert.equal(granted, 10);
  for (let i = 0; i < 9; i++) budget.deposit();
  assert.equal(budget.withdraw(), false);
  budget.deposit();
  assert.equal(budget.withdraw(), true);
});

test('read cache: entries expire by the clock; the least recently used go first past the byte bound', () => {
  const clock = new ManualClock();
  const cache = new ReadCache(clock, 64 * 1024);
  const answer = (n: number) => ({ status: 200, headers: {}, body: Buffer.alloc(n, 1) });
  cache.set('a', answer(10), 1000);
  clock.advance(1000);
  assert.ok(cache.get('a'), 'served while its age is at most its time to live');
  clock.advance(1);
  assert.equal(cache.get('a'), undefined, 'not older than its time to live');
  for (let i = 0; i < 20; i++) cache.set(`k${i}`, answer(6000), 60_000);
  assert.ok(cache.size.bytes <= 64 * 1024, `bounded: ${cache.size.bytes}`);
  assert.equal(cache.get('k0'), undefined, 'the oldest went first');
  assert.ok(cache.get('k19'));
  cache.set('big', answer(64 * 1024), 60_000);
  assert.equal(cache.get('big'), undefined, 'an answer too big for the cache is not kept');
});

test('shared body: a reader joining late replays the bytes so far, then follows; a failure reaches every reader', async () => {
  const body = new SharedBody();
  const early = collect(body.reader());
  body.push(Buffer.from('{"a":'));
  const late = collect(body.reader());
  body.push(Buffer.from('1}'));
  body.end();
  assert.equal(await early, '{"a":1}');
  assert.equal(await late, '{"a":1}');
  assert.equal((await body.whole()).toString(), '{"a":1}');

  const failing = new SharedBody();
  const reader = collect(failing.reader());
  failing.push(Buffer.from('{'));
  failing.fail(new Error('reset'));
  await assert.rejects(reader, /reset/);
  await assert.rejects(failing.whole(), /reset/);
});

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

test('decoding what tongate must read: a start cut short, raw deflate, never more than asked, and bytes that are not their coding', () => {
  const json = Buffer.from(JSON.stringify({ ok: true, result: 'x'.repeat(100_000) }));
  const gzip = gzipSync(json);
  assert.equal(
    decoded(gzip.subarray(0, 40), 'gzip', 1 << 20, true)?.toString('utf8', 0, 6),
    '{"ok":',
    'the first bytes of a body cut short',
  );
  assert.equal(decoded(gzip.subarray(0, 40), 'gzip', 1 << 20), undefined, 'a cut body is refused unless partial');
  assert.ok(decoded(brotliCompressSync(json), 'br', 1 << 20)!.equals(json));
  assert.ok(decoded(deflateRawSync(json), 'deflate', 1 << 20)!.equals(json), 'raw deflate, as some servers send it');
  assert.equal(decoded(gzip, 'gzip', 1000), undefined, 'more than maxBytes once decoded');
  assert.equal(decoded(Buffer.from('<html>502</html>'), 'gzip', 1 << 20, true), undefined, 'not gzip at all');
  assert.ok(decoded(json, '', 10)!.equals(json), 'no coding: the bytes as they are');
  assert.deepEqual(
    [
      contentCoding(undefined),
      contentCoding('GZIP'),
      contentCoding('x-gzip'),
      contentCoding('identity'),
      contentCoding('zstd'),
      contentCoding('gzip, br'),
    ],
    ['', 'gzip', 'gzip', '', undefined, undefined],
  );
  assert.deepEqual(
    [acceptedCodings(['gzip', 'br;q=0.1']), acceptedCodings('identity'), acceptedCodings('br;q=0.0, gzip;q=abc, deflate')],
    ['br, gzip', 'identity', 'deflate'],
  );
});
