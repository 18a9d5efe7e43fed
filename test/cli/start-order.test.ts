/**
 * tongate start serves before a local chain's v3 index is open: meanwhile /healthcheck answers 200 with `starting`
 * and names the index, v2 answers, v3 answers 503 saying the index is starting; once it is up, `ok` and v3 answers.
 * The moment in between is held by the start's `afterServing` (no timing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { startTongate } from '../../src/cli/start.js';
import { freePort } from '../support/ports.js';
import { getJson } from '../support/tongate.js';

test('the API serves before the v3 index opens: health says starting, v3 answers 503 starting, v2 answers; then ok', async (t) => {
  const ports = [await freePort(), await freePort()];
  const config = loadConfig({
    flags: {
      ephemeral: true,
      blockInterval: '3600000',
      access: 'off',
      network: [`mainnet=http://127.0.0.1:${ports[0]}`, `testnet=http://127.0.0.1:${ports[1]}`],
    },
    env: {},
  });
  let serving!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (serving = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const starting = startTongate(config, {
    logger: pino({ level: 'silent' }),
    afterServing: () => {
      serving();
      return gate;
    },
  });
  starting.then((running) => t.after(() => running.stop())).catch(() => undefined);
  await reached;

  for (const [i, name] of ['mainnet', 'testnet'].entries()) {
    const base = `http://127.0.0.1:${ports[i]}`;
    const health = await getJson(`${base}/healthcheck`);
    assert.equal(health.status, 200, name);
    assert.equal(health.body.status, 'starting');
    assert.equal(health.body.network, name);
    assert.deepEqual(health.body.starting, ['v3 index']);
    const v2 = await getJson(`${base}/api/v2/getMasterchainInfo`);
    assert.equal(v2.status, 200);
    assert.equal(v2.body.ok, true);
    const v3 = await getJson(`${base}/api/v3/transactions?limit=1`);
    assert.equal(v3.status, 503);
    assert.match(v3.body.error, new RegExp(`the v3 index of network ${name} is starting`));
    const states = await getJson(`${base}/api/v3/accountStates?address=0:${'00'.repeat(32)}`);
    assert.equal(states.status, 503);
  }

  release();
  const running = await starting;
  assert.match(running.banner, /ready in \d+ ms; v3 indexes up in \d+ ms/);
  const base = `http://127.0.0.1:${ports[0]}`;
  const health = await getJson(`${base}/healthcheck`);
  assert.equal(health.status, 200);
  assert.equal(health.body.status, 'ok');
  assert.equal(health.body.starting, undefined);
  const v3 = await getJson(`${base}/api/v3/transactions?limit=1`);
  assert.equal(v3.status, 200);
  assert.ok(Array.isArray(v3.body.transactions));
});
