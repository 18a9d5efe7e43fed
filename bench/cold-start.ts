/**
 * Cold start, as `npm start` does it (two local networks, a fresh data directory, the default log output), from
 * spawning the compiled `tongate start` to:
 *  - listening: both networks' sockets answer (a 503 `starting` counts);
 *  - healthy: both networks' /healthcheck answer 200 (v2 served; a local chain's v3 index may still be opening,
 *    `status: starting`);
 *  - all up: both say `status: ok` (every v3 index open too);
 * and the banner's own "ready in" (from the start call to serving). Target: healthy within 1.0 s.
 *
 * With TONGATE_BASELINE=<dir> (a checkout of the base commit, built: its `bin/tongate.js` is run), the two are
 * started alternately, round after round, so both meet the same load; each figure is printed for both, with the
 * ratio this/base of the medians. TONGATE_COLD_ROUNDS sets the rounds (default 5).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Run {
  listeningMs: number;
  healthyMs: number;
  allUpMs: number;
  readyInMs: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls /healthcheck every 5 ms; resolves the times (since `started`) of the first answer, first 200 and first `ok`. */
async function follow(port: number, started: number): Promise<{ listening: number; healthy: number; allUp: number }> {
  let listening = 0;
  let healthy = 0;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthcheck`);
      const body = (await response.json()) as { status?: string };
      const now = performance.now() - started;
      listening ||= now;
      if (response.status === 200) healthy ||= now;
      if (response.status === 200 && body.status === 'ok') return { listening, healthy, allUp: now };
    } catch {
      /* not listening yet */
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 5));
  }
}

async function once(bin: string): Promise<Run> {
  const ports = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-cold-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      bin,
      'start',
      '--data-dir',
      dataDir,
      '--network',
      `mainnet=http://127.0.0.1:${ports[0]}`,
      '--network',
      `testnet=http://127.0.0.1:${ports[1]}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [a, b] = await Promise.all(ports.map((port) => follow(port, started)));
  // The banner follows the last index up by a moment.
  for (let i = 0; i < 400 && !/ready in \d+ ms/.test(stderr); i++) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGTERM');
  await new Promise((resolveClose) => child.once('close', resolveClose));
  rmSync(dataDir, { recursive: true, force: true });
  return {
    listeningMs: Math.max(a.listening, b.listening),
    healthyMs: Math.max(a.healthy, b.healthy),
    allUpMs: Math.max(a.allUp, b.allUp),
    readyInMs: Number(/ready in (\d+) ms/.exec(stderr)?.[1] ?? NaN),
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const FIGURES: Array<[keyof Run, string]> = [
  ['listeningMs', 'listening'],
  ['healthyMs', 'healthy'],
  ['allUpMs', 'all up'],
  ['readyInMs', '"ready in"'],
];

const rounds = Number(process.env.TONGATE_COLD_ROUNDS ?? 5);
const variants: Array<{ name: string; bin: string }> = [{ name: 'this', bin: resolve('bin/tongate.js') }];
if (process.env.TONGATE_BASELINE) variants.push({ name: 'base', bin: resolve(process.env.TONGATE_BASELINE, 'bin/tongate.js') });
const runs = new Map<string, Run[]>(variants.map((v) => [v.name, []]));
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so neither always follows the other's exit.
  const order = round % 2 === 0 ? variants : [...variants].reverse();
  for (const variant of order) runs.get(variant.name)!.push(await once(variant.bin));
}

console.log(`cold start, ${rounds} rounds${variants.length > 1 ? ', this and base alternately' : ''} (ms, median and range):`);
for (const [key, label] of FIGURES) {
  const cells = variants.map(({ name }) => {
    const values = runs.get(name)!.map((run) => run[key]);
    return `${name} ${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  });
  const ratio =
    variants.length > 1
      ? `; this/base ${(median(runs.get('this')!.map((r) => r[key])) / median(runs.get('base')!.map((r) => r[key]))).toFixed(2)}`
      : '';
  console.log(`  ${label.padEnd(11)} ${cells.join('   ')}${ratio}`);
}
const healthy = median(runs.get('this')!.map((r) => r.healthyMs));
console.log(`start to both networks healthy: ${healthy.toFixed(0)} ms (target <= 1000 ms: ${healthy <= 1000 ? 'met' : 'NOT met'})`);
