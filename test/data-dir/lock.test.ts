/**
 * One tongate per data directory: the second start on a directory in use exits 2 naming the directory and the
 * pid holding it, and a `kill -9` of the holder frees the directory (the lock is the OS's, not a file left behind).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { DataDirInUse, lockDataDir } from '../../src/data-dir/lock.js';
import { runTongate, spawnTongate, waitForOutput } from '../support/process.js';
import { freePort } from '../support/ports.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("a held directory is refused with the holder's pid, in this process too, and taken again once released", (t) => {
  const dir = tempDir(t);
  const first = lockDataDir(dir);
  assert.throws(
    () => lockDataDir(dir),
    (err: unknown) =>
      err instanceof DataDirInUse && err.pid === process.pid && err.dir === dir && err.message.includes(`pid ${process.pid}`),
  );
  first.release();
  const again = lockDataDir(dir);
  again.release();
});

test('two processes taking one directory at the same moment: exactly one has it, every time', async (t) => {
  const fixture = fileURLToPath(new URL('./fixtures/take-lock.ts', import.meta.url));
  // Each process says WON or LOST, and a winner holds the directory until its stdin closes: however slowly a loaded
  // machine starts the second one, the first still holds it then.
  const take = (dir: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const said = new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('close', () => resolve(out.trim()));
    });
    return {
      said,
      release: async () => {
        child.stdin.end();
        if (child.exitCode === null) await once(child, 'close');
      },
    };
  };
  for (let round = 0; round < 4; round++) {
    const dir = tempDir(t);
    const takers = [take(dir), take(dir)];
    const outcomes = await Promise.all(takers.map((taker) => taker.said));
    await Promise.all(takers.map((taker) => taker.release()));
    assert.equal(outcomes.filter((o) => o === 'WON').length, 1, `round ${round}: ${outcomes.join(' | ')}`);
    assert.equal(
      outcomes.filter((o) => o.startsWith(`LOST ${dir} is in use by another tongate`)).length,
      1,
      `round ${round}: ${outcomes.join(' | ')}`,
    );
  }
});

test("tongate start: a second start on the same data directory exits 2 naming it and the first one's pid; kill -9 of the first frees it", async (t) => {
  const dir = tempDir(t);
  const start = async () => [
    'start',
    '--network',
    `mainnet=http://127.0.0.1:${await freePort()}`,
    '--data-dir',
    dir,
    '--block-interval',
    '3600000',
    '--log-level',
    'warn',
  ];
  const first = spawnTongate(await start());
  t.after(() => first.kill('SIGKILL'));
  await waitForOutput(first, (out) => out.includes('toncenter-compatible API on'));

  const second = await runTongate(await start());
  assert.equal(second.code, 2, second.stderr);
  const lines = second.stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, 1, second.stderr);
  assert.equal(
    lines[0],
    `tongate: data directory ${dir} is in use by another tongate (pid ${first.pid}); stop it, or give this one another --data-dir`,
  );
  assert.doesNotMatch(second.stderr, /delete|drop/i, 'no advice to delete what the first one holds');
  assert.doesNotMatch(second.stdout, /toncenter-compatible API on/, 'it never served');

  const exited = new Promise((resolve) => first.once('close', resolve));
  first.kill('SIGKILL');
  await exited;
  const third = spawnTongate(await start());
  t.after(() => third.kill('SIGKILL'));
  await waitForOutput(third, (out) => out.includes('toncenter-compatible API on'));
  const stopped = new Promise<number | null>((resolve) => third.once('close', resolve));
  third.kill('SIGTERM');
  assert.equal(await stopped, 0, 'the chain the first one left is served and closed cleanly');
});
