import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { runTongate } from '../support/process.js';
import { configError, configFiles } from '../support/config.js';

const { file } = configFiles('tongate-trusted-block-');
const ROOT = '9f2b2c4ed1e5e5b0a3c7b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1';
const FILE_B64 = Buffer.alloc(32, 7).toString('base64');

test("--lite-trusted-block replaces the config's init block, from a flag, the environment or the config file", () => {
  const fromFlag = loadConfig({
    flags: { backend: ['mainnet=lite'], liteTrustedBlock: [`mainnet=81000001:${ROOT}:${FILE_B64}`] },
    env: {},
  });
  const lite = fromFlag.networks[0].lite!;
  assert.equal(lite.globalConfig.initBlock.seqno, 81000001);
  assert.equal(lite.globalConfig.initBlock.workchain, -1);
  assert.equal(lite.globalConfig.initBlock.shard, 0x8000000000000000n);
  assert.equal(lite.globalConfig.initBlock.rootHash.toString('hex'), ROOT);
  assert.deepEqual(lite.globalConfig.initBlock.fileHash, Buffer.alloc(32, 7));
  assert.deepEqual(lite.trustedBlock, lite.globalConfig.initBlock);
  // The liteservers and zero state still come from the config.
  assert.ok(lite.globalConfig.liteservers.length > 5);

  const fromEnv = loadConfig({
    flags: {},
    env: { TONGATE_BACKEND: 'testnet=lite', TONGATE_LITE_TRUSTED_BLOCK: `testnet=42:${ROOT}:${ROOT}` },
  });
  assert.equal(fromEnv.networks[1].lite!.globalConfig.initBlock.seqno, 42);
  const yaml = file(
    'tongate.yaml',
    `backend: [mainnet=lite]\nliteTrustedBlock:\n  mainnet: "7:${ROOT.toUpperCase()}:${FILE_B64.replace(/\+/g, '-').replace(/\//g, '_')}"\n`,
  );
  const fromFile = loadConfig({ flags: { config: yaml }, env: {} });
  assert.equal(fromFile.networks[0].lite!.globalConfig.initBlock.seqno, 7);
  assert.equal(fromFile.networks[0].lite!.globalConfig.initBlock.rootHash.toString('hex'), ROOT);
});

test("without --lite-trusted-block the config's own init block is the start", () => {
  const config = loadConfig({ flags: { backend: ['mainnet=lite'] }, env: {} });
  assert.equal(config.networks[0].lite!.trustedBlock, undefined);
  assert.ok(config.networks[0].lite!.globalConfig.initBlock.seqno > 0);
});

test('a bad --lite-trusted-block is a ConfigError naming the part that is wrong', () => {
  const bad = (value: string, backend = 'mainnet=lite') =>
    configError(() => loadConfig({ flags: { backend: [backend], liteTrustedBlock: [value] }, env: {} })).message;
  assert.match(bad(`mainnet=${ROOT}:${ROOT}`), /^--lite-trusted-block: mainnet: expected <seqno>:<root_hash>:<file_hash>/);
  assert.match(
    bad(`mainnet=0:${ROOT}:${ROOT}`),
    /^--lite-trusted-block: mainnet: seqno: expected a masterchain key block's seqno from 1, got "0"/,
  );
  assert.match(bad(`mainnet=-5:${ROOT}:${ROOT}`), /seqno: expected/);
  assert.match(bad(`mainnet=5000000000:${ROOT}:${ROOT}`), /seqno: expected/);
  assert.match(bad(`mainnet=5:${ROOT.slice(2)}:${ROOT}`), /^--lite-trusted-block: mainnet: root_hash: expected 32 bytes/);
  assert.match(bad(`mainnet=5:${ROOT}:zz${ROOT.slice(2)}`), /^--lite-trusted-block: mainnet: file_hash: expected 32 bytes/);
  assert.match(bad(`devnet=5:${ROOT}:${ROOT}`), /^--lite-trusted-block: unknown network "devnet"/);
  assert.match(bad(`testnet=5:${ROOT}:${ROOT}`), /^--lite-trusted-block: testnet is not a lite network/);
  const twice = configError(() =>
    loadConfig({
      flags: { backend: ['mainnet=lite'], liteTrustedBlock: [`mainnet=5:${ROOT}:${ROOT}`, `mainnet=6:${ROOT}:${ROOT}`] },
      env: {},
    }),
  );
  assert.match(twice.message, /^--lite-trusted-block: mainnet is given 2 values/);
});

test('a bad --lite-trusted-block stops tongate start with exit code 2 and one line', async () => {
  const result = await runTongate([
    'start',
    '--ephemeral',
    '--backend',
    'mainnet=lite',
    '--lite-trusted-block',
    `mainnet=12:${ROOT}:nothex`,
  ]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--lite-trusted-block: mainnet: file_hash: expected 32 bytes/);
  assert.equal(result.stderr.trim().split('\n').length, 1);
});
