/**
 * `npm run bench:upstream`: what a tongate in upstream mode adds in front of a toncenter-compatible API
 * (issue 12), every figure a ratio or a difference measured in this run.
 *
 * Three processes on one machine: the upstream (`tongate start`, a local chain with its index), the front
 * (`tongate start --backend mainnet=upstream` forwarding to it; access off and --upstream-cache 0, so only
 * the forwarding is measured), and this one (the load). Each figure compares the same load sent straight
 * to the upstream and through the front, in interleaved rounds (so other processes' load hits both alike):
 *
 *  1. Throughput: autocannon, --connections connections, on GET getAddressInformation (distinct accounts,
 *     so single flight does not help) and GET /api/v3/transactions (distinct pages); req/s through the
 *     front / req/s direct (target >= 0.80).
 *  2. CPU per request: the front's and the upstream's CPU time (/proc/<pid>/stat) per request during the
 *     throughput runs: what the proxy costs next to what answering costs.
 *  3. Added latency: a paced client (--rate req/s, µs timing) at a fixed, unsaturated rate; p50 and p99
 *     through the front minus direct (target p99 <= 1 ms).
 *  4. Single flight: 100 concurrent identical getMasterchainInfo through the front; upstream calls counted
 *     by the upstream's own /metrics (target 1): on mainnet with the cache off (single flight alone), and on
 *     testnet with the defaults (cache on: a round may find the answer kept and make no call).
 *
 * Flags: --duration S (per throughput run, default 5), --rounds R (default 3), --connections C (default 10),
 * --rate R (default 200), --samples N (per latency run, default 1000).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { freePort } from '../test/support/ports.js';
import { spawnTongate, waitForOutput } from '../test/support/process.js';

const argv = process.argv.slice(2);
const value = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const seconds = value('duration', 5);
const rounds = value('rounds', 3);
const connections = value('connections', 10);
const rate = value('rate', 200);
const samples = value('samples', 1000);
const ADMIN = 'bench-upstream-admin';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<AutocannonResult>;

// --- the two servers -------------------------------------------------------------------------
const upstreamPort = await freePort();
const frontPort = await freePort();
const upstreamTestnetPort = await freePort();
const frontTestnetPort = await freePort();
const upstreamBase = `http://127.0.0.1:${upstreamPort}`;
const frontBase = `http://127.0.0.1:${frontPort}`;
const common = ['--ephemeral', '--access', 'off', '--log-level', 'warn', '--admin-token', ADMIN];
const upstream = spawnTongate(['start', ...common, '--network', `mainnet=${upstreamBase}`, '--network', `testnet=http://127.0.0.1:${upstreamTestnetPort}`]);
await waitForOutput(upstream, (out) => out.includes('ready in'));
const front = spawnTongate([
  'start', ...common, '--network', `mainnet=${frontBase}`, '--backend', 'mainnet=upstream',
  '--upstream-v2', `mainnet=${upstreamBase}/api/v2`, '--upstream-v3', `mainnet=${upstreamBase}/api/v3`,
  '--upstream-cache', 'mainnet=0', '--upstream-key', 'mainnet=bench-upstream-key',
  '--network', `testnet=http://127.0.0.1:${frontTestnetPort}`, '--backend', 'testnet=upstream',
  '--upstream-v2', `testnet=http://127.0.0.1:${upstreamTestnetPort}/api/v2`,
]);
await waitForOutput(front, (out) => out.includes('ready in'));
const stopAll = () => {
  front.kill('SIGTERM');
  upstream.kill('SIGTERM');
};
process.on('exit', stopAll);

// Some transactions for v3 to page through: faucet transfers to 40 accounts (blocks every second).
const accounts = Array.from({ length: 1000 }, (_, i) => `0:${i.toString(16).padStart(4, '0').repeat(16)}`);
await Promise.all(
  accounts.slice(0, 40).map((address) =>
    fetch(`${upstreamBase}/devnet/fund`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ address, amount: '1000000000' }) }).then(async (r) => {
      if (r.status !== 200) throw new Error(`fund: ${r.status} ${await r.text()}`);
    }),
  ),
);
await new Promise((resolve) => setTimeout(resolve, 2500)); // let the index catch up with the last block

// --- the loads ---------------------------------------------------------------------------------
interface Load {
  name: string;
  /** The i-th request's path. */
  path(i: number): string;
}
const loads: Load[] = [
  { name: 'v2 getAddressInformation', path: (i) => `/api/v2/getAddressInformation?address=${accounts[i % accounts.length]}` },
  { name: 'v3 transactions', path: (i) => `/api/v3/transactions?limit=10&sort=desc&offset=${i % 50}` },
];
for (const load of loads) {
  for (const base of [upstreamBase, frontBase]) {
    const response = await fetch(base + load.path(1));
    if (response.status !== 200) throw new Error(`${load.name} at ${base}: ${response.status} ${await response.text()}`);
  }
}

/** utime + stime of a process, in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

async function throughput(base: string, load: Load): Promise<{ rps: number; total: number; frontCpuMs: number; upstreamCpuMs: number }> {
  let i = 0;
  const frontCpu = cpuMs(front.pid!);
  const upstreamCpu = cpuMs(upstream.pid!);
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request: { path: string }) => ({ ...request, path: load.path(i++) }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${load.name} at ${base}: ${result.non2xx} non-2xx, ${result.errors} errors under load`);
  return { rps: result.requests.average, total: result.requests.total, frontCpuMs: cpuMs(front.pid!) - frontCpu, upstreamCpuMs: cpuMs(upstream.pid!) - upstreamCpu };
}

/** Latencies (ms, µs precision) of `samples` requests sent at `rate` per second, whatever the answers' pace. */
async function paced(base: string, load: Load): Promise<number[]> {
  const pool = new Pool(base, { connections: 16 });
  const latencies: number[] = [];
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let n = 0; n < samples; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      (async () => {
        const t0 = performance.now();
        const { statusCode, body } = await pool.request({ path: load.path(n), method: 'GET' });
        await body.arrayBuffer();
        if (statusCode !== 200) throw new Error(`${load.name}: ${statusCode}`);
        latencies.push(performance.now() - t0);
      })(),
    );
  }
  await Promise.all(pending);
  await pool.close();
  return latencies.sort((a, b) => a - b);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;

await autocannon({ url: `${frontBase}/api/v2/getMasterchainInfo`, connections, duration: 1 }); // warm-up both
console.log(`bench:upstream: upstream, front and load in three processes on one machine; ${connections} connections, ${seconds} s per run, ${rounds} interleaved rounds`);

for (const load of loads) {
  const ratios: number[] = [];
  const frontCpu: number[] = [];
  const upstreamCpu: number[] = [];
  const directRps: number[] = [];
  const viaRps: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const direct = await throughput(upstreamBase, load);
    const via = await throughput(frontBase, load);
    directRps.push(direct.rps);
    viaRps.push(via.rps);
    ratios.push(via.rps / direct.rps);
    frontCpu.push((via.frontCpuMs * 1000) / via.total);
    upstreamCpu.push((via.upstreamCpuMs * 1000) / via.total);
  }
  console.log(`\n${load.name}`);
  console.log(`  req/s direct ${mean(directRps).toFixed(0)}, through tongate ${mean(viaRps).toFixed(0)}: ratio ${mean(ratios).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= 0.80)`);
  console.log(`  CPU per request: front ${mean(frontCpu).toFixed(0)} µs (${spread(frontCpu)}), upstream ${mean(upstreamCpu).toFixed(0)} µs (${spread(upstreamCpu)}): the proxy adds ${(mean(frontCpu) / mean(upstreamCpu)).toFixed(2)}x the upstream's own cost`);

  const added50: number[] = [];
  const added99: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const direct = await paced(upstreamBase, load);
    const via = await paced(frontBase, load);
    added50.push(quantile(via, 0.5) - quantile(direct, 0.5));
    added99.push(quantile(via, 0.99) - quantile(direct, 0.99));
  }
  console.log(`  at ${rate} req/s: added p50 ${mean(added50).toFixed(3)} ms (${spread(added50)}), added p99 ${mean(added99).toFixed(3)} ms (${spread(added99)}; target <= 1 ms)`);
}

// --- single flight -----------------------------------------------------------------------------
async function upstreamCalls(network: string, port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
  const line = new RegExp(`tongate_http_requests_total\\{network="${network}",version="v2",method="getMasterchainInfo",status="200"\\} (\\d+)`).exec(text);
  return line ? Number(line[1]) : 0;
}
// 100 keep-alive connections opened first, so the 100 requests leave together (as 100 clients' would).
async function singleFlight(network: string, frontPortOf: number, upstreamPortOf: number): Promise<number[]> {
  const burstPool = new Pool(`http://127.0.0.1:${frontPortOf}`, { connections: 100 });
  const burst = (path: string) =>
    Promise.all(
      Array.from({ length: 100 }, async () => {
        const { statusCode, body } = await burstPool.request({ path, method: 'GET' });
        const text = await body.text();
        if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
        return text;
      }),
    );
  await burst('/api/v2/detectAddress?address=0:0000000000000000000000000000000000000000000000000000000000000000');
  const calls: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = await upstreamCalls(network, upstreamPortOf);
    const answers = await burst('/api/v2/getMasterchainInfo');
    if (new Set(answers.map((a) => a.replace(/"@extra":"[^"]*"/, ''))).size !== 1) throw new Error('coalesced answers differ');
    calls.push((await upstreamCalls(network, upstreamPortOf)) - before);
  }
  await burstPool.close();
  return calls;
}
const alone = await singleFlight('mainnet', frontPort, upstreamPort);
const withCache = await singleFlight('testnet', frontTestnetPort, upstreamPort);
console.log(`\n100 concurrent identical getMasterchainInfo through tongate, upstream calls per round (target 1; a health check landing in the window adds one):`);
console.log(`  cache off (single flight alone): ${alone.join(', ')}`);
console.log(`  defaults (cache on, 1000 ms):    ${withCache.join(', ')}`);
stopAll();
process.exit(0);
