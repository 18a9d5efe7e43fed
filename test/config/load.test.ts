import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { planListeners } from '../../src/http/listeners.js';
import { configError, configFiles } from '../support/config.js';

const { dir, file } = configFiles('tongate-config-');

test('defaults: mainnet on 127.0.0.1:8080 (-239) and testnet on :8081 (-3), access on', () => {
  const config = loadConfig({ flags: {}, env: {} });
  assert.deepEqual(
    config.networks.map((n) => [n.name, n.baseUrl.origin, n.globalId]),
    [
      ['mainnet', 'http://127.0.0.1:8080', -239],
      ['testnet', 'http://127.0.0.1:8081', -3],
    ],
  );
  assert.equal(config.access, true);
  assert.equal(config.blockIntervalMs, 1000);
  assert.equal(config.faucetMnemonic.length, 24);
  assert.equal(config.dataDir, './.tongate');
});

test('flags win over the environment, which wins over the file', () => {
  const path = file('t.yaml', 'blockInterval: 300\ndataDir: /from/file\nlogLevel: warn\nnetworks:\n  devnet: http://127.0.0.1:9000\n');
  const fromFile = loadConfig({ flags: { config: path }, env: {} });
  assert.equal(fromFile.blockIntervalMs, 300);
  assert.equal(fromFile.dataDir, '/from/file');
  assert.deepEqual(
    fromFile.networks.map((n) => [n.name, n.globalId]),
    [['devnet', -3]],
  );
  const fromEnv = loadConfig({ flags: { config: path }, env: { TONGATE_BLOCK_INTERVAL: '200', TONGATE_DATA_DIR: '/from/env' } });
  assert.equal(fromEnv.blockIntervalMs, 200);
  assert.equal(fromEnv.dataDir, '/from/env');
  assert.equal(fromEnv.logLevel, 'warn');
  const fromFlags = loadConfig({ flags: { config: path, blockInterval: '100' }, env: { TONGATE_BLOCK_INTERVAL: '200' } });
  assert.equal(fromFlags.blockIntervalMs, 100);
});

test('a JSON config file and the environment name of repeated options', () => {
  const path = file('t.json', JSON.stringify({ network: ['mainnet=https://api.example.org'], trustProxy: '10.0.0.0/8', access: 'off' }));
  const config = loadConfig({ flags: { config: path }, env: {} });
  assert.equal(config.networks[0].baseUrl.origin, 'https://api.example.org');
  assert.deepEqual(config.trustProxy, ['10.0.0.0/8']);
  assert.equal(config.access, false);
  const env = loadConfig({ flags: {}, env: { TONGATE_NETWORK: 'mainnet=http://a.test:1,testnet=http://b.test:1' } });
  assert.deepEqual(
    env.networks.map((n) => n.baseUrl.host),
    ['a.test:1', 'b.test:1'],
  );
});

test('bad values stop start-up with a message naming the option', () => {
  assert.match(
    configError(() => loadConfig({ flags: { blockInterval: 'soon' }, env: {} })).message,
    /--block-interval: expected an integer/,
  );
  assert.match(
    configError(() => loadConfig({ flags: {}, env: { TONGATE_ACCESS: 'maybe' } })).message,
    /TONGATE_ACCESS: expected one of on, off/,
  );
  assert.match(configError(() => loadConfig({ flags: { network: ['mainnet'] }, env: {} })).message, /--network: expected name=url/);
  assert.match(configError(() => loadConfig({ flags: { network: ['mainnet=ftp://x'] }, env: {} })).message, /must be http or https/);
  assert.match(
    configError(() => loadConfig({ flags: { network: ['mainnet=http://x/api/v2'] }, env: {} })).message,
    /scheme:\/\/host\[:port\] only/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { network: ['mainnet=http://x:1', 'testnet=http://x:1'] }, env: {} })).message,
    /same base URL/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { network: ['mainnet=https://x'] }, env: {} })).message,
    /--tls-cert and --tls-key, or --trust-proxy/,
  );
  assert.match(configError(() => loadConfig({ flags: { tlsCert: '/nope.pem' }, env: {} })).message, /--tls-key: give both/);
  assert.match(
    configError(() => loadConfig({ flags: { faucetMnemonic: 'one two' }, env: {} })).message,
    /--faucet-mnemonic: expected 24 words, got 2/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { databaseUrl: 'mysql://x' }, env: {} })).message,
    /--database-url: expected a postgres: or postgresql: URL/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { config: file('bad.yaml', 'blockInterval: [\n') }, env: {} })).message,
    /is not valid YAML/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { config: file('unknown.yaml', 'blokInterval: 5\n') }, env: {} })).message,
    /blokInterval: unknown option/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { config: join(dir, 'missing.yaml') }, env: {} })).message,
    /--config: cannot read .*ENOENT/,
  );
});

test('listeners: one per base-URL port; networks sharing a port are told apart by host', () => {
  const split = loadConfig({ flags: {}, env: {} });
  assert.deepEqual(
    planListeners(split).map((l) => [l.host, l.port, l.networks.map((n) => n.name)]),
    [
      ['127.0.0.1', 8080, ['mainnet']],
      ['127.0.0.1', 8081, ['testnet']],
    ],
  );
  const shared = loadConfig({ flags: { network: ['mainnet=http://api.test:8080', 'testnet=http://testnet.api.test:8080'] }, env: {} });
  assert.deepEqual(
    planListeners(shared).map((l) => [l.host, l.port, l.networks.map((n) => n.name)]),
    [['0.0.0.0', 8080, ['mainnet', 'testnet']]],
  );
  const proxied = loadConfig({
    flags: { network: ['mainnet=https://api.test', 'testnet=https://testnet.api.test'], trustProxy: '127.0.0.1', listen: '127.0.0.1:9000' },
    env: {},
  });
  assert.deepEqual(
    planListeners(proxied).map((l) => [l.host, l.port, l.tls]),
    [['127.0.0.1', 9000, false]],
  );
  const mixed = loadConfig({
    flags: { network: ['mainnet=http://a.test:8443', 'testnet=https://b.test:8443'], trustProxy: '10.0.0.1' },
    env: {},
  });
  assert.match(configError(() => planListeners(mixed)).message, /share port 8443 but not the scheme/);
});
