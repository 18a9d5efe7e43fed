import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalChain } from '../../src/chain/local/index.js';
import { DEFAULT_FAUCET_MNEMONIC } from '../../src/config/defaults.js';
import { freePort } from '../support/ports.js';
import { runTongate, spawnTongate, waitForOutput } from '../support/process.js';
import { getJson } from '../support/tongate.js';

test('bad flags and bad config files stop start-up with a message naming the option and exit code 2', async () => {
  const badInterval = await runTongate(['start', '--block-interval', 'fast']);
  assert.equal(badInterval.code, 2);
  assert.match(badInterval.stderr, /bad configuration: --block-interval: expected an integer/);

  const dir = mkdtempSync(join(tmpdir(), 'tongate-cli-'));
  const file = join(dir, 'tongate.yaml');
  writeFileSync(file, 'networks:\n  mainnet: ftp://nowhere\n');
  const badFile = await runTongate(['start', '--config', file]);
  assert.equal(badFile.code, 2);
  assert.match(badFile.stderr, /--network: mainnet: the base URL must be http or https/);

  const unknownFlag = await runTongate(['start', '--blok-interval', '5']);
  assert.notEqual(unknownFlag.code, 0);
  assert.match(unknownFlag.stderr, /unknown option '--blok-interval'/);
});

test('SIGTERM seals the block in progress, closes the stores and exits 0; kill -9 loses no reported block', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-data-'));
  const mainPort = await freePort();
  const testPort = await freePort();
  const args = [
    'start',
    '--data-dir',
    dataDir,
    '--block-interval',
    '50',
    '--access',
    'off',
    '--log-level',
    'warn',
    '--network',
    `mainnet=http://127.0.0.1:${mainPort}`,
    '--network',
    `testnet=http://127.0.0.1:${testPort}`,
  ];

  // Run 1: watch blocks being reported, then kill -9.
  const first = spawnTongate(args);
  await waitForOutput(first, (out) => out.includes('Faucet mnemonic'));
  const reported = new Map<number, string>();
  while (reported.size < 5) {
    const { body } = await getJson(`http://127.0.0.1:${mainPort}/api/v3/masterchainInfo`);
    reported.set(body.last.seqno, body.last.root_hash);
  }
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('close', resolve));

  // Every reported block is on disk, with the same hash.
  const chain = await LocalChain.open({
    network: 'mainnet',
    globalId: -239,
    dataDir: join(dataDir, 'mainnet'),
    blockIntervalMs: 3_600_000,
    faucetMnemonic: DEFAULT_FAUCET_MNEMONIC.split(' '),
  });
  try {
    for (const [seqno, rootHash] of reported) {
      const block = chain.getBlock({ workchain: -1, shard: 0x8000000000000000n, seqno });
      assert.ok(block, `block ${seqno} was reported before kill -9 and must survive`);
      assert.equal(block.id.rootHash.toString('base64'), rootHash);
    }
  } finally {
    await chain.stop();
  }

  // Run 2: the chain resumes where it was, and SIGTERM exits 0.
  const second = spawnTongate(args);
  await waitForOutput(second, (out) => out.includes('Faucet mnemonic'));
  const { body } = await getJson(`http://127.0.0.1:${mainPort}/api/v3/masterchainInfo`);
  assert.ok(body.last.seqno >= Math.max(...reported.keys()), 'resumes at or after the last reported block');
  second.kill('SIGTERM');
  const code = await new Promise((resolve) => second.once('close', resolve));
  assert.equal(code, 0, second.output().stderr);
});
