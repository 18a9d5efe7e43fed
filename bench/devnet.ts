/**
 * `npm run bench:devnet`: what one `POST /devnet/mine {"blocks":1}` with nothing pending costs end to end over
 * HTTP (issue 14's goal: p50 <= 5 ms), next to the cheapest request of the same server as a floor.
 *
 * One tongate is started in this process as `tongate start` wires it (one local network, manual mining, its v3
 * index attached and following, access off). One client (fetch, keep-alive) sends, one after another, in
 * interleaved rounds (so load from other processes hits both alike):
 *   healthcheck   GET  /healthcheck (the floor: routing, no chain work)
 *   mine          POST /devnet/mine {"blocks":1}: seals an empty basechain + masterchain block pair, writes it to
 *                 SQLite, hands it to the index, answers the seqno
 * and prints p50 / p99 of each and the ratio mine / healthcheck.
 *
 * Flags: --requests N (per round and target, default 300), --rounds R (default 3).
 */
import { loadavg } from 'node:os';
import pino from 'pino';
import { loadConfig } from '../src/config/load.js';
import { startTongate } from '../src/cli/start.js';
import { freePort } from '../test/support/ports.js';
import { numberArg } from './support/args.js';

const requests = numberArg('requests', 300);
const rounds = numberArg('rounds', 3);

const port = await freePort();
const config = loadConfig({
  flags: { ephemeral: true, logLevel: 'silent', mining: 'manual', access: 'off', network: [`mainnet=http://127.0.0.1:${port}`] },
  env: {},
});
const running = await startTongate(config, { logger: pino({ level: 'silent' }) });
const base = `http://127.0.0.1:${port}`;

const targets = {
  healthcheck: () => fetch(`${base}/healthcheck`),
  mine: () => fetch(`${base}/devnet/mine`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"blocks":1}' }),
};
type Name = keyof typeof targets;
const samples: Record<Name, number[]> = { healthcheck: [], mine: [] };

async function run(name: Name, count: number, keep: boolean): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await targets[name]();
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
    if (keep) samples[name].push(ms);
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

// Warm up: connections, JIT, the first SQLite pages.
await run('healthcheck', 50, false);
await run('mine', 50, false);
for (let round = 0; round < rounds; round++) {
  await run('healthcheck', requests, true);
  await run('mine', requests, true);
}
const seqno = running.networks[0].chain.masterchainInfo().last.id.seqno;
await running.stop();

const row = (name: Name) =>
  `${name.padEnd(12)} p50 ${quantile(samples[name], 0.5).toFixed(2).padStart(6)} ms   p99 ${quantile(samples[name], 0.99).toFixed(2).padStart(6)} ms   (${samples[name].length} requests)`;
console.log(
  `bench:devnet — ${rounds} rounds x ${requests} sequential requests per target, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(row('healthcheck'));
console.log(row('mine'));
console.log(
  `mine / healthcheck: p50 ${(quantile(samples.mine, 0.5) / quantile(samples.healthcheck, 0.5)).toFixed(1)}x, p99 ${(quantile(samples.mine, 0.99) / quantile(samples.healthcheck, 0.99)).toFixed(1)}x`,
);
console.log(`goal: mine p50 <= 5 ms: ${quantile(samples.mine, 0.5) <= 5 ? 'met' : 'NOT met'} (last seqno ${seqno})`);
