/**
 * The upstream health check runs on the injected clock's timers (src/util/scheduler.ts): a manual clock moved past
 * `healthIntervalMs` runs a round of checks against a real HTTP upstream on loopback, and not a millisecond before;
 * close() stops the timer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { Registry } from 'prom-client';
import { UpstreamNetwork } from '../../src/upstream/index.js';
import { ManualTimers } from '../support/manual-timers.js';

test('upstream health checks: one round at start, the next when the clock passes the interval, none after close', async (t) => {
  const asked: string[] = [];
  const upstream = createServer((request, response) => {
    asked.push(request.url ?? '');
    const seqno = asked.length;
    const body = request.url?.startsWith('/api/v2/') ? { ok: true, result: { last: { seqno } } } : { last: { seqno } };
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t.after(() => upstream.close());
  const origin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  const clock = new ManualTimers();
  const interval = 10_000;
  const network = new UpstreamNetwork(
    'mainnet',
    {
      v2: [new URL(`${origin}/api/v2`)],
      v3: [new URL(`${origin}/api/v3`)],
      concurrency: 4,
      cacheMs: 0,
      timeoutMs: 5000,
      maxResponseBytes: 1_048_576,
      healthIntervalMs: interval,
      breakerOpenMs: 2000,
    },
    { clock, registry: new Registry() },
  );
  const rounds = () => asked.filter((url) => url === '/api/v2/getMasterchainInfo').length;
  const before = clock.scheduled;
  await network.start();
  assert.equal(rounds(), 1, 'one round at start');
  assert.deepEqual(asked.sort(), ['/api/v2/getMasterchainInfo', '/api/v3/masterchainInfo']);
  assert.equal(clock.scheduled, before + 1, 'the health timer is on the injected clock');

  clock.advance(interval - 1);
  await clock.settled();
  assert.equal(rounds(), 1, 'not before the interval');

  clock.advance(1);
  await clock.settled();
  assert.equal(rounds(), 2, 'a round when the interval has passed');
  assert.equal(asked.length, 4, 'both versions checked');
  assert.ok(network.health().body.upstreams.every((u) => u.state === 'up'));

  clock.advance(interval);
  await clock.settled();
  assert.equal(rounds(), 3);

  await network.close();
  assert.equal(clock.scheduled, before, 'close() stops the timer');
  clock.advance(interval * 3);
  await clock.settled();
  assert.equal(rounds(), 3, 'no round after close');
});
