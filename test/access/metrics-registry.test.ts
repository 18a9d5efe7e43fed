/**
 * The access layer's metrics registry is made on first need (prom-client loaded then), and what was counted before
 * it was made is in its first exposition: store errors, fallback decisions and breaker states are plain tallies
 * like the request counts. Other rooms' metrics join through `whenRegistry`, before or after it is made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessMetrics } from '../../src/access/metrics.js';

test('events counted before the registry exists are in its first exposition', async () => {
  const metrics = new AccessMetrics();
  metrics.storeError('limiter', 'decision');
  metrics.storeError('limiter', 'decision');
  metrics.storeError('keys', 'lookup');
  metrics.fallback('local');
  metrics.breakerState('limiter', 'open');
  metrics.breakerState('keys', 'half-open');
  metrics.breakerState('keys', 'closed');
  const { body } = await metrics.render();
  assert.match(body, /^tongate_store_errors_total\{store="limiter",operation="decision"\} 2$/m);
  assert.match(body, /^tongate_store_errors_total\{store="keys",operation="lookup"\} 1$/m);
  assert.match(body, /^tongate_limiter_fallback_decisions_total\{mode="local"\} 1$/m);
  assert.match(body, /^tongate_circuit_breaker_state\{store="limiter"\} 2$/m);
  assert.match(body, /^tongate_circuit_breaker_state\{store="keys"\} 0$/m);
  assert.match(body, /^nodejs_eventloop_lag_seconds /m, 'the process figures are registered with it');
});

test('a room registers its metrics before or after the registry is made; the registry is made once', async () => {
  const metrics = new AccessMetrics();
  const seen: string[] = [];
  metrics.whenRegistry((registry, prom) => {
    seen.push('early');
    new prom.Gauge({ name: 'early_gauge', help: 'registered before', registers: [registry] }).set(7);
  });
  assert.equal(seen.length, 0, 'nothing runs before the registry is asked for');
  const [first, second] = await Promise.all([metrics.registry(), metrics.registry()]);
  assert.equal(first, second);
  metrics.whenRegistry((registry) => {
    seen.push('late');
    assert.equal(registry, first);
  });
  assert.deepEqual(seen, ['early', 'late']);
  assert.match((await metrics.render()).body, /^early_gauge 7$/m);
});
