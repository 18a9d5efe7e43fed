/**
 * `npm run bench:v2`: what an account read and a get-method cost, relative to the cheapest method, on the
 * same server in the same run (issue 4).
 *
 * One tongate is started in this process as `tongate start` wires it (local chain, gateway; access off,
 * no block timer, so only the API is measured). autocannon, in this process too, loads it with each of:
 *   getMasterchainInfo      GET  (the baseline: no account, no emulator)
 *   getAddressInformation   GET  of the v4r2 faucet wallet
 *   runGetMethod            POST {"method":"seqno"} on the same wallet: a real TVM run in the emulator once
 *                           per block, then the kept result (src/api/v2/get-method-cache.ts), as a wallet's
 *                           "wait for the seqno" polls meet it
 *   runGetMethod, no cache  the same call with one (ignored) stack argument, which is never kept: every
 *                           request runs the emulator
 * in interleaved rounds (so load from other processes hits all three alike), and prints requests/s and
 * p99 latency of each, and each as a ratio to getMasterchainInfo: req/s ratio (higher is better) and
 * p99 ratio (lower is better).
 *
 * Flags: --duration S (per run, default 5), --rounds R (default 3), --connections C (default 10).
 */
import { createRequire } from 'node:module';
import pino from 'pino';
import { loadConfig } from '../src/config/load.js';
import { startTongate } from '../src/cli/start.js';
import type { DevnetChain } from '../src/chain/devnet-chain.js';
import { freePort } from '../test/support/ports.js';
import { numberArg } from './support/args.js';

const seconds = numberArg('duration', 5);
const rounds = numberArg('rounds', 3);
const connections = numberArg('connections', 10);

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<AutocannonResult>;

const port = await freePort();
const config = loadConfig({
  flags: { ephemeral: true, logLevel: 'silent', blockInterval: '3600000', access: 'off', network: [`mainnet=http://127.0.0.1:${port}`] },
  env: {},
});
const running = await startTongate(config, { logger: pino({ level: 'silent' }) });
const base = `http://127.0.0.1:${port}`;
// The local chain's v4r2 faucet: a deployed wallet with a seqno.
const wallet = (running.networks[0].chain as DevnetChain)
  .faucets()
  .find((f) => f.kind === 'v4r2')!
  .address.toString();

interface Target {
  name: string;
  request: { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };
}

const targets: Target[] = [
  { name: 'getMasterchainInfo', request: { method: 'GET', path: '/api/v2/getMasterchainInfo' } },
  { name: 'getAddressInformation', request: { method: 'GET', path: `/api/v2/getAddressInformation?address=${wallet}` } },
  {
    name: 'runGetMethod seqno',
    request: {
      method: 'POST',
      path: '/api/v2/runGetMethod',
      body: JSON.stringify({ address: wallet, method: 'seqno', stack: [] }),
      headers: { 'content-type': 'application/json' },
    },
  },
  {
    name: 'runGetMethod no cache',
    request: {
      method: 'POST',
      path: '/api/v2/runGetMethod',
      body: JSON.stringify({ address: wallet, method: 'seqno', stack: [['num', '1']] }),
      headers: { 'content-type': 'application/json' },
    },
  },
];

// Each answer is checked once before load: a benchmark of errors would measure nothing.
for (const target of targets) {
  const { method, path, body, headers } = target.request;
  const response = await fetch(`${base}${path}`, { method, body, headers });
  const json = (await response.json()) as { ok: boolean };
  if (response.status !== 200 || !json.ok) throw new Error(`${target.name}: ${response.status} ${JSON.stringify(json)}`);
}

const runs = new Map<string, AutocannonResult[]>(targets.map((t) => [t.name, []]));
await autocannon({ url: `${base}/api/v2/getMasterchainInfo`, connections, duration: 1 }); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const target of targets) {
    const result = await autocannon({ url: base, connections, duration: seconds, requests: [target.request] });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors under load`);
    runs.get(target.name)!.push(result);
  }
}
await running.stop();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const summary = targets.map((t) => {
  const results = runs.get(t.name)!;
  return { name: t.name, rps: mean(results.map((r) => r.requests.average)), p99: mean(results.map((r) => r.latency.p99)) };
});
const baseline = summary[0];
console.log(
  `v2 under load: ${connections} connections, ${seconds} s per run, ${rounds} interleaved rounds, server and autocannon in one process, access off`,
);
for (const s of summary) {
  // autocannon measures latency in whole milliseconds: a baseline p99 of 0 has no ratio.
  const p99Ratio = baseline.p99 > 0 ? (s.p99 / baseline.p99).toFixed(2) : `n/a (baseline p99 under autocannon's 1 ms resolution)`;
  const ratio = s === baseline ? '' : `   req/s ratio ${(s.rps / baseline.rps).toFixed(2)}, p99 ratio ${p99Ratio}`;
  console.log(`  ${s.name.padEnd(22)} ${s.rps.toFixed(0).padStart(7)} req/s   p99 ${s.p99.toFixed(1).padStart(6)} ms${ratio}`);
}
