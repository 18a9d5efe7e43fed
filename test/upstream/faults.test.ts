/**
 * Faults between tongate (upstream mode) and its upstream, injected by the tests' own proxy: down, hanging
 * past the timeout, reset before the headers or mid-body, 500, 429, a body that is not JSON, a body over
 * the cap. Reads are sent again (to the other URL first) and answered when a second try works; otherwise
 * each fault leaves as its status in the version's shape after at most 3 attempts (a hang leaves as the
 * timeout's 504; no duration is asserted: a client bound only stops a hang). Writes are never
 * sent twice. Failover while one upstream is killed loses no request. Each case gets a fresh front
 * (fresh breakers and budgets) before the same upstream.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestTongate } from '../support/tongate.js';
import { BIG_BODY, type Fault } from './support/fault-proxy.js';
import { startFront, startUpstream, type Front } from './support/pair.js';

/** Long enough for a loaded 2-core machine to answer a read in half of it (an attempt's share). */
const TIMEOUT_MS = 2000;
/** Only stops a hang of the test's own requests (every fault here answers within the upstream timeout). */
const HANG_MS = 60_000;

let upstream: TestTongate;
let faucet: string;
before(async () => {
  upstream = await startUpstream();
  faucet = upstream.chain('mainnet').faucets()[0].address.toString();
});
after(() => upstream?.stop());

async function withFront(urls: number, run: (f: Front) => Promise<void>, timeoutMs = TIMEOUT_MS): Promise<void> {
  const front = await startFront(upstream, {
    networks: ['mainnet'],
    urlsPerNetwork: urls,
    flags: { upstreamTimeout: String(timeoutMs), upstreamMaxResponse: '1048576', upstreamCache: ['mainnet=0'] },
  });
  try {
    await run(front);
  } finally {
    await front.stop();
  }
}

async function call(
  f: Front,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(f.front.url('mainnet') + path, {
    method,
    signal: AbortSignal.timeout(HANG_MS),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* the test sees the text */
  }
  return { status: response.status, json, headers: response.headers };
}

const read = (f: Front) => call(f, 'GET', `/api/v2/getAddressBalance?address=${faucet}`);
const readV3 = (f: Front) => call(f, 'GET', `/api/v3/addressBook?address=${faucet}`);

for (const fault of ['reset', 'reset-mid-body', '500', 'not-json', 'hang', '429'] as Fault[]) {
  // A 429 is only taken elsewhere (never asked again of the URL that said it): two URLs for that one.
  const urls = fault === '429' ? 2 : 1;
  // After a hang the second try has only the rest of the time: more of it, for a loaded machine.
  const timeoutMs = fault === 'hang' ? 2 * TIMEOUT_MS : TIMEOUT_MS;
  test(`a read that meets "${fault}" once is sent again${urls > 1 ? ' (to the other URL)' : ''} and answered`, async () => {
    await withFront(
      urls,
      async (f) => {
        f.proxies.mainnet[0].inject(fault, 1, /getAddressBalance/);
        const answer = await read(f);
        assert.equal(answer.status, 200, JSON.stringify(answer.json));
        assert.equal(answer.json.ok, true);
        const attempts = f.proxies.mainnet.map((p) => p.count(/getAddressBalance/));
        assert.deepEqual(attempts, urls === 1 ? [2] : [1, 1], 'one failed attempt, one answered');
      },
      timeoutMs,
    );
  });
}

test("a 429 of the only URL is not asked again: 503 with the upstream's Retry-After at once", async () => {
  await withFront(1, async (f) => {
    f.proxies.mainnet[0].inject('429', 1, /getAddressBalance/);
    const answer = await read(f);
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '7');
    assert.equal(f.proxies.mainnet[0].count(/getAddressBalance/), 1);
  });
});

const MAPPED: Array<{ fault: Fault | 'down'; status: number; message: RegExp; retryAfter?: string }> = [
  { fault: 'down', status: 502, message: /^upstream unreachable \(ECONNREFUSED\)$/ },
  { fault: 'hang', status: 504, message: /^upstream did not answer in time$/ },
  { fault: 'reset', status: 502, message: /^upstream connection failed/ },
  { fault: 'reset-mid-body', status: 502, message: /^upstream connection failed/ },
  { fault: '500', status: 502, message: /^LITE_SERVER_UNKNOWN: upstream exploded$/ },
  { fault: '429', status: 503, message: /^upstream rate limit reached, retry later$/, retryAfter: '7' },
  { fault: 'not-json', status: 502, message: /^upstream answered 200 with a body that is not JSON$/ },
  { fault: '401', status: 502, message: /^upstream refused tongate's API key \(401\): API key does not exist$/ },
  { fault: 'huge', status: 502, message: /^upstream response is larger than 1048576 bytes/ },
];

for (const { fault, status, message, retryAfter } of MAPPED) {
  test(`both upstreams "${fault}": ${status} in each version's shape, at most 3 attempts`, async () => {
    await withFront(2, async (f) => {
      for (const proxy of f.proxies.mainnet) {
        if (fault === 'down') await proxy.down();
        else proxy.inject(fault);
      }
      const v2 = await read(f);
      assert.equal(v2.status, status, JSON.stringify(v2.json));
      assert.deepEqual(Object.keys(v2.json), ['ok', 'error', 'code']);
      assert.equal(v2.json.ok, false);
      assert.equal(v2.json.code, status);
      assert.match(v2.json.error, message);
      const attempts = f.proxies.mainnet.reduce((sum, p) => sum + p.count(/getAddressBalance/), 0);
      assert.ok(attempts <= 3, `at most 3 attempts in all, within the one timeout: ${attempts}`);
      const v3 = await readV3(f);
      assert.equal(v3.status, status);
      assert.deepEqual(Object.keys(v3.json), ['error']);
      assert.match(v3.json.error, message);
      for (const answer of [v2, v3]) {
        assert.equal(answer.headers.get('retry-after') ?? undefined, retryAfter);
      }
    });
  });
}

test('writes are never sent twice: sendBoc (REST, JSON-RPC) and v3 message meet every fault once', async () => {
  const writes: Array<{ path: string; body: unknown; match: RegExp }> = [
    { path: '/api/v2/sendBoc', body: { boc: 'te6cc' }, match: /sendBoc$/ },
    { path: '/api/v2/sendBocReturnHash', body: { boc: 'te6cc' }, match: /sendBocReturnHash$/ },
    { path: '/api/v2/jsonRPC', body: { jsonrpc: '2.0', id: 1, method: 'sendBoc', params: { boc: 'te6cc' } }, match: /jsonRPC$/ },
    { path: '/api/v3/message', body: { boc: 'te6cc' }, match: /\/message$/ },
  ];
  for (const fault of ['reset', 'reset-mid-body', '500', 'hang', 'not-json', '429'] as Fault[]) {
    await withFront(2, async (f) => {
      for (const proxy of f.proxies.mainnet) proxy.inject(fault);
      for (const write of writes) {
        const answer = await call(f, 'POST', write.path, write.body);
        assert.ok(answer.status >= 502 && answer.status <= 504, `${fault} ${write.path}: ${answer.status}`);
        const sent = f.proxies.mainnet.reduce((n, p) => n + p.count(write.match), 0);
        assert.equal(sent, 1, `${fault} ${write.path}: sent ${sent} times`);
      }
    });
  }
});

test('a write whose first upstream refuses the connection goes to the next (it was provably not sent)', async () => {
  await withFront(2, async (f) => {
    await f.proxies.mainnet[0].down();
    const answer = await call(f, 'POST', '/api/v2/sendBoc', { boc: 'te6cc' });
    assert.equal(answer.status, 422, JSON.stringify(answer.json)); // the upstream's own verdict on a bad BoC
    assert.equal(f.proxies.mainnet[1].count(/sendBoc/), 1);
  });
});

test('failover: reads keep being answered while one of two upstreams is killed; /healthcheck tells which', async () => {
  await withFront(2, async (f) => {
    const [first, second] = f.proxies.mainnet;
    const statuses: number[] = [];
    let killed = false;
    const worker = async () => {
      for (let i = 0; i < 40; i++) {
        if (statuses.length === 40 && !killed) {
          killed = true;
          await first.down();
        }
        statuses.push((await read(f)).status);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    assert.equal(killed, true);
    assert.deepEqual([...new Set(statuses)], [200], `every read answered: ${statuses.filter((s) => s !== 200).length} failed`);
    assert.ok(first.count(/getAddressBalance/) > 0 && second.count(/getAddressBalance/) > 0, 'both served a part');
    await f.network('mainnet').checkAll();
    const health = await fetch(`${f.front.url('mainnet')}/healthcheck`);
    const report = (await health.json()) as any;
    assert.equal(health.status, 200, 'v2 and v3 each still have an upstream');
    assert.deepEqual(
      report.upstreams.map((u: any) => [u.version, u.state]),
      [
        ['v2', 'down'],
        ['v2', 'up'],
        ['v3', 'down'],
        ['v3', 'up'],
      ],
    );
    assert.match(report.upstreams[0].error, /unreachable/);
    await second.down();
    await f.network('mainnet').checkAll();
    const down = await fetch(`${f.front.url('mainnet')}/healthcheck`);
    assert.equal(down.status, 503);
    assert.equal(((await down.json()) as any).status, 'down');
  });
});

test('a body over 64 kB streams to the client byte for byte; a reset in its middle cuts the client connection, no hang', async () => {
  await withFront(1, async (f) => {
    const proxy = f.proxies.mainnet[0];
    proxy.inject('big', 1);
    const whole = await fetch(`${f.front.url('mainnet')}/api/v2/getAddressBalance?address=${faucet}`);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-length'), String(BIG_BODY.length));
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(BIG_BODY));

    proxy.inject('big-reset', 1);
    const cut = await fetch(`${f.front.url('mainnet')}/api/v2/getAddressBalance?address=${faucet}`, {
      signal: AbortSignal.timeout(HANG_MS),
    });
    assert.equal(cut.status, 200, 'the status was sent before the failure');
    await assert.rejects(cut.arrayBuffer(), 'the client sees the cut, not a short body taken as whole');
    // The front is fine afterwards.
    assert.equal((await read(f)).status, 200);
  });
});

test("tongate's own budget: past --upstream-concurrency a request waits, and is refused with a 503 when it cannot start in time", async () => {
  const front = await startFront(upstream, {
    networks: ['mainnet'],
    flags: { upstreamTimeout: String(TIMEOUT_MS), upstreamCache: ['mainnet=0'], upstreamConcurrency: ['mainnet=1'] },
  });
  try {
    const proxy = front.proxies.mainnet[0];
    // A write holds the one slot for its whole timeout (a write's attempt is not cut short for a retry).
    proxy.inject('hold', Infinity, /sendBoc/);
    const first = call(front, 'POST', '/api/v2/sendBoc', { boc: 'te6cc' });
    while (proxy.count(/sendBoc/) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = call(front, 'GET', `/api/v3/addressBook?address=${faucet}`);
    const [held, queued] = await Promise.all([first, second]);
    assert.equal(held.status, 504, 'the held write times out');
    assert.equal(queued.status, 503, JSON.stringify(queued.json));
    assert.deepEqual(queued.json, { error: 'upstream request budget exhausted, retry later' });
    assert.ok(Number(queued.headers.get('retry-after')) >= 1);
    assert.equal(proxy.count(/addressBook/), 0, 'the queued request never reached the upstream');
    proxy.release();
  } finally {
    await front.stop();
  }
});
