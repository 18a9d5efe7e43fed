/**
 * Every way a lite network's start-up can fail ends the process with a non-zero exit and one line on stderr that
 * says why (a supervisor's Restart=on-failure depends on it): a closed port, a server that sends garbage, a
 * liteserver of another network, a config without liteservers. The real CLI, as a child process.
 *
 * The first three wait for start-up's 15 s for a first answer (docs/lite.md), so they run side by side.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTongate, spawnTongate, waitForOutput, type CliResult } from '../../support/process.js';
import { privateDatabase, requireService } from '../../support/services.js';
import { freePort } from '../../support/ports.js';
import { requireTonNode, startTonNode, type TonNode } from '../../support/ton-node.js';
import { SHIPPED_GLOBAL_CONFIGS } from '../../../src/config/lite.js';

const dir = mkdtempSync(join(tmpdir(), 'tongate-lite-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The shipped testnet config with its liteservers replaced (loopback only: nothing here reaches a public server). */
function configWith(name: string, liteservers: Array<{ port: number; key?: string }>, edit: (config: any) => void = () => {}): string {
  const config = JSON.parse(readFileSync(SHIPPED_GLOBAL_CONFIGS.testnet, 'utf8'));
  // A key that is a real ed25519 point (the shipped config's first server's), at an address of ours.
  const shippedKey = config.liteservers[0].id.key;
  config.liteservers = liteservers.map(({ port, key }) => ({
    ip: 0x7f000001,
    port,
    id: { '@type': 'pub.ed25519', key: key ?? shippedKey },
  }));
  edit(config);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

async function startLite(configFile: string): Promise<CliResult> {
  return runTongate([
    'start',
    '--network',
    `testnet=http://127.0.0.1:${await freePort()}`,
    '--backend',
    'testnet=lite',
    '--lite-config',
    `testnet=${configFile}`,
    '--ephemeral',
    '--log-level',
    'silent',
  ]);
}

/** The process failed, and said why in one line on stderr. */
function assertOneLineFailure(result: CliResult, why: RegExp): void {
  assert.notEqual(result.code, 0, `exit code ${result.code}; stderr: ${result.stderr}`);
  assert.equal(result.signal, null);
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0]!, /^tongate: /);
  assert.match(lines[0]!, why);
  assert.doesNotMatch(result.stdout, /toncenter-compatible API on/, 'no banner: it never served');
}

describe('a lite start that reaches no liteserver of its network fails, in one line', { concurrency: true }, () => {
  let garbage: Server;
  let garbagePort: number;

  before(async () => {
    // Answers every chunk of the ADNL handshake with random bytes.
    garbage = createServer((socket) => {
      socket.on('data', () => socket.write(randomBytes(300)));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    garbagePort = (garbage.address() as { port: number }).port;
  });
  after(() => garbage.close());

  test('a closed port: exit 1 after the 15 s wait, naming the server and the refused connection', async () => {
    const result = await startLite(configWith('closed', [{ port: await freePort() }]));
    assertOneLineFailure(result, /no liteserver answered within 15000 ms \(127\.0\.0\.1:\d+ not connected: connect ECONNREFUSED/);
    assert.equal(result.code, 1);
  });

  test('a server sending garbage: exit 1 after the wait, naming what was wrong with it', async () => {
    const result = await startLite(configWith('garbage', [{ port: garbagePort }]));
    assertOneLineFailure(result, new RegExp(`no liteserver answered within 15000 ms \\(127\\.0\\.0\\.1:${garbagePort} not connected: \\S`));
    assert.equal(result.code, 1);
  });

  test('a config without liteservers: exit 2 at once, naming the file and the field', async () => {
    const file = configWith('empty', []);
    const result = await startLite(file);
    assertOneLineFailure(
      result,
      /bad configuration: --lite-config: .*empty\.json is not a TON global config: liteservers: expected a non-empty list/,
    );
    assert.equal(result.code, 2);
  });
});

const nodeAvailable = requireTonNode();

describe('with a real liteserver', { skip: !nodeAvailable }, () => {
  let node: TonNode;
  before(async () => {
    node = await startTonNode();
  });
  after(() => node?.stop());

  test("a liteserver of another network is refused as soon as it answers (its zero state is not the config's): exit 1, naming both zero states", async () => {
    const real = JSON.parse(readFileSync(node.globalConfigFile, 'utf8'));
    const otherZeroState = randomBytes(32).toString('base64');
    const file = configWith('other-network', [{ port: node.liteserver.port, key: real.liteservers[0].id.key }], (config) => {
      config.validator = { ...real.validator, zero_state: { ...real.validator.zero_state, root_hash: otherZeroState } };
      delete config.validator.init_block;
    });
    const result = await startLite(file);
    const theirs = Buffer.from(real.validator.zero_state.root_hash, 'base64').toString('hex').toUpperCase();
    const ours = Buffer.from(otherZeroState, 'base64').toString('hex').toUpperCase();
    assertOneLineFailure(
      result,
      new RegExp(
        `every liteserver of the config serves another network: 127\\.0\\.0\\.1:${node.liteserver.port} starts from zero state ${theirs}, the config's is ${ours}`,
      ),
    );
    assert.equal(result.code, 1);
  });

  test('scaling out: two lite instances share one --database-url; a local chain on it is refused, exit 2, naming both', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const url = await privateDatabase(t, 'tongate_scale');
    const bases: string[] = [];
    const args = async (name: string, backend: string[]) => [
      'start',
      '--network',
      `mainnet=${bases[bases.push(`http://127.0.0.1:${await freePort()}`) - 1]}`,
      ...backend,
      '--data-dir',
      join(dir, name),
      '--database-url',
      url.href,
      '--log-level',
      'warn',
    ];
    const lite = ['--backend', 'mainnet=lite', '--lite-config', `mainnet=${node.globalConfigFile}`];
    const instances = [spawnTongate(await args('scale-a', lite)), spawnTongate(await args('scale-b', lite))];
    t.after(() => instances.forEach((child) => child.kill('SIGKILL')));
    await Promise.all(instances.map((child) => waitForOutput(child, (out) => out.includes('toncenter-compatible API on'))));

    const local = await runTongate(await args('scale-local', ['--block-interval', '3600000']));
    assert.equal(local.code, 2, local.stderr);
    const lines = local.stderr.split('\n').filter((line) => line.trim() !== '');
    assert.equal(lines.length, 1, local.stderr);
    assert.match(
      lines[0]!,
      /--database-url: the mainnet index in PostgreSQL \(schema tongate_mainnet\) is shared by tongates serving mainnet as a lite network: /,
    );
    for (const child of instances) assert.ok(lines[0]!.includes(`tongate mainnet lite network, pid ${child.pid}`), lines[0]);
    assert.doesNotMatch(lines[0]!, /drop|delete/i);

    // Both index the network into the one schema: each one's v3 moves on, and no write was refused.
    for (const base of bases.slice(0, 2)) {
      const info = async () =>
        ((await (await fetch(`${base}/api/v3/masterchainInfo`)).json()) as { last?: { seqno: number } }).last?.seqno ?? -1;
      const before = await info();
      for (let tries = 0; (await info()) < before + 2; tries++) {
        assert.ok(tries < 120, `${base}: v3 stays at ${before}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    for (const child of instances)
      assert.doesNotMatch(child.output().stdout + child.output().stderr, /indexing a block failed|UNIQUE|duplicate key/);
  });
});
