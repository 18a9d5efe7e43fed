/**
 * Cold start: from spawning `tongate start` (compiled, ephemeral, both default networks) to the first 200 of
 * getMasterchainInfo on every network. Target: at most 2 s. Prints the figure of each run and the median.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function firstOk(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function once(): Promise<number> {
  const ports = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      'bin/tongate.js',
      'start',
      '--ephemeral',
      '--log-level',
      'warn',
      '--network',
      `mainnet=http://127.0.0.1:${ports[0]}`,
      '--network',
      `testnet=http://127.0.0.1:${ports[1]}`,
    ],
    { stdio: 'ignore' },
  );
  await Promise.all(ports.map((port) => firstOk(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`)));
  const elapsed = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
  return elapsed;
}

const runs: number[] = [];
for (let i = 0; i < 5; i++) runs.push(await once());
runs.sort((a, b) => a - b);
const median = runs[Math.floor(runs.length / 2)];
console.log(
  `cold start to the first 200 on both networks: runs ${runs.map((r) => r.toFixed(0)).join(', ')} ms; median ${median.toFixed(0)} ms (target <= 2000 ms: ${median <= 2000 ? 'met' : 'NOT met'}; ratio to target ${(median / 2000).toFixed(2)})`,
);
