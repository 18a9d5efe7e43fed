import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startManualTongate } from './support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = readFileSync(`${root}examples/devnet-time-lock.ts`, 'utf8');

test('the README shows examples/devnet-time-lock.ts as it is', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  assert.ok(readme.includes('```ts\n' + example + '```'), 'README.md holds the example verbatim in a ts block');
});

test('examples/devnet-time-lock.ts runs to the end against a tongate in manual mining', async (t) => {
  const { url } = await startManualTongate(t);
  // Run as a user runs it: its own process, the package's `tongate/devnet` export, the real clients.
  // (asynchronously: the tongate answering it runs in this process)
  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/devnet-time-lock.ts'], {
    cwd: root,
    env: { ...process.env, TONGATE_URL: url, TONGATE_ADMIN_TOKEN: 'devnet-test-admin-token' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.match(run.stdout, /refused before its time, paid out after increaseTime, restored by restoreSnapshot/);
});
