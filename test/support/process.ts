/** Runs the real `tongate` CLI as a child process: through tsx, from the sources, or (`built`) as installed, `bin/tongate.js` on dist/. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ENTRY = join(root, 'src', 'cli', 'entry.ts');
/** The installed command: what `npm start` runs (dist/, compiled by `npm ci`). */
export const BUILT_BIN = join(root, 'bin', 'tongate.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function spawnTongate(
  args: string[],
  env: Record<string, string> = {},
  { built = false }: { built?: boolean } = {},
): ChildProcess & { output: () => { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [...(built ? [BUILT_BIN] : ['--import', 'tsx', ENTRY]), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return Object.assign(child, { output: () => ({ stdout, stderr }) });
}

export function runTongate(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnTongate(args, env);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, ...child.output() })));
}

/**
 * Runs a `tongate start` that is meant to be refused. One that serves instead is killed once its banner shows, and
 * its result says so: the test fails on its assertions at once instead of waiting on a server that never exits.
 */
export function runRefusedStart(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnTongate(args, env);
  let served = false;
  waitForOutput(child, (printed) => printed.includes('toncenter-compatible API on')).then(
    () => {
      served = true;
      child.kill('SIGKILL');
    },
    () => undefined, // it exited: what the test expects
  );
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const { stdout, stderr } = child.output();
      resolve({ code, signal, stdout, stderr: served ? `${stderr}\n(it served instead of refusing: killed)` : stderr });
    }),
  );
}

/**
 * Resolves once `predicate` holds for what the child printed, stderr (where `tongate start` prints its banner)
 * then stdout (log lines), or rejects when the child exits first.
 */
export function waitForOutput(child: ReturnType<typeof spawnTongate>, predicate: (printed: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const { stdout, stderr } = child.output();
      if (predicate(stderr + stdout)) {
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('close', (code) => reject(new Error(`tongate exited (${code}) before it was ready:\n${child.output().stderr}`)));
    check();
  });
}

/**
 * Resolves once a tongate child answers `{url}/healthcheck` (rejects when it exits first). It asks again after each
 * refused connection: it waits for the event, it times no rule.
 */
export async function waitUntilServing(child: ReturnType<typeof spawnTongate>, url: string): Promise<void> {
  let exited = false;
  child.once('close', () => (exited = true));
  for (let i = 0; i < 1200 && !exited; i++) {
    if (
      await fetch(`${url}/healthcheck`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`tongate did not serve ${url}:\n${child.output().stderr}`);
}

/** Stops a tongate child (SIGTERM: it seals and closes its stores) and resolves once it exited. */
export function stopTongate(child: ReturnType<typeof spawnTongate>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}
