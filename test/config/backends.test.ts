import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runTongate } from '../support/process.js';
import { configError, configFiles } from '../support/config.js';

const { dir, file } = configFiles('tongate-backends-');

test('networks are local by default; --backend mainnet=lite uses the shipped public mainnet config', () => {
  const local = loadConfig({ flags: {}, env: {} });
  assert.deepEqual(
    local.networks.map((n) => n.backend),
    ['local', 'local'],
  );
  const config = loadConfig({ flags: { backend: ['mainnet=lite'] }, env: {} });
  const [mainnet, testnet] = config.networks;
  assert.equal(mainnet.backend, 'lite');
  assert.equal(testnet.backend, 'local');
  assert.match(mainnet.lite!.configFile, /global-configs\/mainnet-\d{4}-\d\d-\d\d\.json$/);
  // The public mainnet config: many liteservers, the zero state of TON mainnet.
  assert.ok(mainnet.lite!.globalConfig.liteservers.length > 5);
  assert.equal(mainnet.lite!.globalConfig.zeroState.rootHash.toString('base64'), 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=');
  assert.equal(mainnet.lite!.globalConfig.zeroState.shard, 0x8000000000000000n);
  assert.match(mainnet.lite!.globalConfig.liteservers[0].host, /^\d+\.\d+\.\d+\.\d+$/);
});

test('--lite-config from the environment and a config file, like every option', () => {
  const testnetFile = join(import.meta.dirname, '..', '..', 'global-configs', 'testnet-2025-02-20.json');
  const copy = file('custom.json', readFileSync(testnetFile, 'utf8'));
  const fromEnv = loadConfig({ flags: {}, env: { TONGATE_BACKEND: 'testnet=lite', TONGATE_LITE_CONFIG: `testnet=${copy}` } });
  assert.equal(fromEnv.networks[1].lite!.configFile, copy);
  const yaml = file('tongate.yaml', `backend: [mainnet=lite]\nliteConfig: ["mainnet=${copy}"]\n`);
  const fromFile = loadConfig({ flags: { config: yaml }, env: {} });
  assert.equal(fromFile.networks[0].backend, 'lite');
  assert.equal(fromFile.networks[0].lite!.configFile, copy);
});

test('bad backends and global configs are ConfigErrors naming the option and what is wrong', () => {
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=remote'] }, env: {} })).message,
    /^--backend: mainnet: expected one of local, lite/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['devnet=lite'] }, env: {} })).message,
    /^--backend: unknown network "devnet"/,
  );
  assert.match(configError(() => loadConfig({ flags: { backend: ['mainnet'] }, env: {} })).message, /^--backend: expected network=value/);
  assert.match(
    configError(() => loadConfig({ flags: { liteConfig: [`mainnet=${dir}/x.json`] }, env: {} })).message,
    /^--lite-config: mainnet is not a lite network/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { network: ['dev=http://127.0.0.1:9000'], backend: ['dev=lite'] }, env: {} })).message,
    /^--lite-config: dev: no global config shipped/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], liteConfig: [`mainnet=${dir}/missing.json`] }, env: {} })).message,
    /^--lite-config: cannot read .*missing\.json: ENOENT/,
  );
  const noServers = file('empty.json', JSON.stringify({ liteservers: [], validator: {} }));
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], liteConfig: [`mainnet=${noServers}`] }, env: {} })).message,
    /is not a TON global config: liteservers: expected a non-empty list/,
  );
  const badKey = file('badkey.json', JSON.stringify({ liteservers: [{ ip: 2130706433, port: 1, id: { key: 'AAAA' } }], validator: {} }));
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], liteConfig: [`mainnet=${badKey}`] }, env: {} })).message,
    /liteservers\[0\]\.id\.key: expected base64 of 32 bytes/,
  );
});

test("--index-from: a lite network's index starts at a masterchain seqno; local networks and bad seqnos are refused", () => {
  const config = loadConfig({ flags: { backend: ['mainnet=lite'], indexFrom: ['mainnet=1000'] }, env: {} });
  assert.equal(config.networks[0].lite!.indexFrom, 1000);
  assert.equal(loadConfig({ flags: { backend: ['mainnet=lite'] }, env: {} }).networks[0].lite!.indexFrom, undefined);
  assert.match(
    configError(() => loadConfig({ flags: { indexFrom: ['testnet=5'] }, env: {} })).message,
    /^--index-from: testnet is not a lite network/,
  );
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], indexFrom: ['mainnet=-1'] }, env: {} })).message,
    /^--index-from: mainnet: expected a masterchain seqno from 1/,
  );
});

test("--index-rps: a lite network's liteserver budget from flags, environment or file; bad values and local networks are refused", () => {
  assert.equal(loadConfig({ flags: { backend: ['mainnet=lite'], indexRps: ['mainnet=40'] }, env: {} }).networks[0].lite!.indexRps, 40);
  assert.equal(loadConfig({ flags: { backend: ['mainnet=lite'] }, env: {} }).networks[0].lite!.indexRps, undefined);
  assert.equal(
    loadConfig({ flags: {}, env: { TONGATE_BACKEND: 'testnet=lite', TONGATE_INDEX_RPS: 'testnet=25' } }).networks[1].lite!.indexRps,
    25,
  );
  const fromFile = file('budget.yaml', 'backend:\n  mainnet: lite\nindexRps:\n  mainnet: 300\n');
  assert.equal(loadConfig({ flags: { config: fromFile }, env: {} }).networks[0].lite!.indexRps, 300);
  // Flags win over the environment.
  assert.equal(
    loadConfig({ flags: { backend: ['mainnet=lite'], indexRps: ['mainnet=7'] }, env: { TONGATE_INDEX_RPS: 'mainnet=9' } }).networks[0].lite!
      .indexRps,
    7,
  );
  assert.match(
    configError(() => loadConfig({ flags: { indexRps: ['testnet=5'] }, env: {} })).message,
    /^--index-rps: testnet is not a lite network/,
  );
  for (const bad of ['0', '-3', '1.5', 'fast', '100001']) {
    assert.match(
      configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], indexRps: [`mainnet=${bad}`] }, env: {} })).message,
      /^--index-rps: mainnet: expected liteserver queries per second from 1 to 100000/,
      bad,
    );
  }
  assert.match(
    configError(() => loadConfig({ flags: { backend: ['mainnet=lite'], indexRps: ['devnet=5'] }, env: {} })).message,
    /^--index-rps: unknown network "devnet"/,
  );
});

test('a bad --index-rps stops tongate start with exit code 2', async () => {
  const result = await runTongate(['start', '--ephemeral', '--backend', 'mainnet=lite', '--index-rps', 'mainnet=lots']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--index-rps: mainnet: expected liteserver queries per second/);
});

test('a bad lite config stops tongate start with exit code 2', async () => {
  const result = await runTongate(['start', '--ephemeral', '--backend', 'mainnet=lite', '--lite-config', `mainnet=${dir}/nope.json`]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--lite-config: cannot read/);
});
