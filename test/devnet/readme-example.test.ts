import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { spawnTongate, stopTongate, waitUntilServing } from '../support/process.js';
import { freePort } from '../support/ports.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = readFileSync(`${root}examples/devnet-time-lock.ts`, 'utf8');

test('docs/local-chains.md shows examples/devnet-time-lock.ts as it is', () => {
  const readme = readFileSync(`${root}docs/local-chains.md`, 'utf8');
  assert.ok(readme.includes('```ts\n' + example + '```'), 'docs/local-chains.md holds the example verbatim in a ts block');
});

/** The `tongate start ...` line of the example's header, as a user would copy it. */
function headerStartArgs(): string[] {
  const line = example.split('\n').find((l) => l.includes('npx tongate start'));
  assert.ok(line, 'the header says how to start tongate');
  return line
    .replace(/#.*$/, '')
    .replace(/^.*npx tongate /, '')
    .trim()
    .split(/\s+/);
}

test('examples/devnet-time-lock.ts runs to the end against a tongate started as its header says, on the real clock', async (t) => {
  // The header's command in its own process, on the machine's clock (nothing injected): what a user runs. Only the
  // place differs: a port of its own and nothing on disk, so it never meets another tongate of this machine.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [...headerStartArgs(), '--ephemeral', '--network', `testnet=${url}`];
  assert.deepEqual(args.slice(0, 4), ['start', '--mining', 'manual', '--access']);
  const server = spawnTongate(args);
  t.after(() => stopTongate(server));
  await waitUntilServing(server, url);

  // Run as a user runs it: its own process, the package's `tongate/devnet` export, the real clients, the real clock;
  // twice, as a user runs it again against the same tongate.
  for (const round of [1, 2]) {
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/devnet-time-lock.ts'], {
      cwd: root,
      env: { ...process.env, TONGATE_URL: url },
      encoding: 'utf8',
      timeout: 120_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(
        `run ${round} of the example failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}\nserver: ${server.output().stderr}`,
      );
    });
    assert.match(run.stdout, /refused before its time, paid out after increaseTime, restored by restoreSnapshot/, `run ${round}`);
  }
});
