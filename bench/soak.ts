/**
 * `npm run soak` (not in CI): a real tongate (the built CLI, both networks, keys on, blocks every second) under
 * steady load for ten minutes, to show that it neither fails, slows down, grows, nor stalls over time.
 *
 *   1. capacity: the request mix below at full speed for 10 s on both networks at once;
 *   2. soak: the same mix at 80 % of that rate (SOAK_LOAD) for SOAK_SECONDS (600), in windows of SOAK_WINDOW
 *      (30) seconds. Per window: requests/s, p99 latency, errors, RSS of the process, event-loop delay (p99 and
 *      max, from tongate's /metrics: prom-client's monitor, reset at each scrape), and /healthcheck asked every 20 ms
 *      from a thread of its own (test/support/health-prober.ts): its p99 and slowest answer, against HEALTH_MS.
 *
 * The mix, per network: keyed reads (v2 REST, POST, JSON-RPC, v3, get-methods), keyless clients (over their
 * 1 request/s: 429), unknown keys (401) and bad input (deep JSON, int64 overflow, oversized stacks, exotic
 * BoCs, built-in names, absolute-form targets). An error is a 5xx (but the documented 501), a socket error or a
 * timeout; so is a /healthcheck that fails or answers other than 200 (a chain that stopped sealing). Targets: 0 errors,
 * RSS growth < 10 % from the first window to the last, every /healthcheck answered within HEALTH_MS (printed, met or
 * not, with the load average: a shared machine's load decides it as much as tongate; the fuzz suite only checks that
 * tongate stays responsive).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';
import { freePort } from '../test/support/ports.js';
import { startHealthProber, type ProbeReport } from '../test/support/health-prober.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WINDOW = Number(process.env.SOAK_WINDOW ?? 30);
const LOAD = Number(process.env.SOAK_LOAD ?? 0.8);
const CONNECTIONS = 16;
/** What /healthcheck should answer within, whatever else the process serves. */
const HEALTH_MS = 100;
const ADMIN = 'soak-admin-token';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Request = { method: string; path: string; headers?: Record<string, string>; body?: string };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<AutocannonResult>;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ports = [await freePort(), await freePort()];
const child = spawn(
  process.execPath,
  [
    join(root, 'bin', 'tongate.js'),
    'start',
    '--ephemeral',
    '--admin-token',
    ADMIN,
    '--log-level',
    'error',
    '--network',
    `mainnet=http://127.0.0.1:${ports[0]}`,
    '--network',
    `testnet=http://127.0.0.1:${ports[1]}`,
  ],
  // The banner is on stderr; stdout has the log lines.
  { stdio: ['ignore', 'inherit', 'pipe'] },
);
let banner = '';
await new Promise<void>((resolve, reject) => {
  child.stderr!.on('data', (chunk) => {
    banner += chunk;
    if (/ready in/.test(banner)) resolve();
  });
  child.once('exit', (code) => reject(new Error(`tongate exited (${code}) before it was ready`)));
});
const stop = () => child.exitCode === null && child.kill('SIGTERM');
process.on('exit', stop);

const faucets = [...banner.matchAll(/faucet v4r2\s+(\S+)/g)].map((m) => m[1]);

async function admin(port: number, path: string, body?: object): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.headers.get('content-type')?.includes('json') ? response.json() : response.text();
}
const keys = [
  (await admin(ports[0], '/admin/keys', { network: 'mainnet', rps: 1_000_000 })).result.key as string,
  (await admin(ports[1], '/admin/keys', { network: 'testnet', rps: 1_000_000 })).result.key as string,
];

function mix(n: number): Array<[weight: number, Request]> {
  const key = { 'x-api-key': keys[n] };
  const json = { ...key, 'content-type': 'application/json' };
  const wallet = faucets[n];
  const stack = (count: number) =>
    JSON.stringify({ address: wallet, method: 'seqno', stack: Array.from({ length: count }, () => ['num', 1]) });
  return [
    [10, { method: 'GET', path: '/api/v2/getMasterchainInfo', headers: key }],
    [10, { method: 'GET', path: `/api/v2/getAddressInformation?address=${wallet}`, headers: key }],
    [8, { method: 'GET', path: `/api/v2/getTransactions?address=${wallet}&limit=10`, headers: key }],
    [
      8,
      {
        method: 'POST',
        path: '/api/v2/runGetMethod',
        headers: json,
        body: JSON.stringify({ address: wallet, method: 'seqno', stack: [] }),
      },
    ],
    [
      6,
      {
        method: 'POST',
        path: '/api/v2/jsonRPC',
        headers: json,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAddressBalance', params: { address: wallet } }),
      },
    ],
    [8, { method: 'GET', path: '/api/v3/masterchainInfo', headers: key }],
    [8, { method: 'GET', path: `/api/v3/transactions?account=${wallet}&limit=10`, headers: key }],
    [4, { method: 'GET', path: '/api/v3/blocks?limit=10', headers: key }],
    // keyless clients (1 request/s each: mostly 429) and unknown keys (401)
    [8, { method: 'GET', path: '/api/v2/getMasterchainInfo' }],
    [6, { method: 'GET', path: '/api/v3/masterchainInfo', headers: { 'x-api-key': 'soak-unknown-key' } }],
    // bad input
    [3, { method: 'GET', path: `/api/v2/getTransactions?address=${wallet}&lt=9223372036854775808`, headers: key }],
    [3, { method: 'GET', path: '/api/v3/transactions?lt=99999999999999999999', headers: key }],
    [3, { method: 'POST', path: '/api/v2/runGetMethod', headers: json, body: stack(5_000) }],
    [
      2,
      {
        method: 'POST',
        path: '/api/v2/runGetMethod',
        headers: json,
        body: JSON.stringify({ address: wallet, method: 'seqno', stack: [['constructor', 1], { type: 'toString' }] }),
      },
    ],
    [
      2,
      {
        method: 'POST',
        path: '/api/v2/jsonRPC',
        headers: json,
        body: `{"method":"getMasterchainInfo","params":{},"id":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      },
    ],
    [
      2,
      {
        method: 'POST',
        path: '/api/v2/estimateFee',
        headers: json,
        body: JSON.stringify({ address: wallet, body: 'te6cckEBAQEAIwAIQgIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKfgqqs=' }),
      },
    ],
    [2, { method: 'GET', path: '/api/v2/getAddressInformation?address=__proto__', headers: key }],
    [2, { method: 'GET', path: `http://127.0.0.1/api/v2/getAddressBalance?address=${wallet}`, headers: key }],
    [2, { method: 'GET', path: '/api/v2/docs/constructor' }],
    [1, { method: 'POST', path: '/api/v3/message', headers: json, body: JSON.stringify({ boc: 'AAAA' }) }],
  ];
}

/** autocannon requests that draw each request from the weighted mix (same seed order every run). */
function requests(n: number): object[] {
  const entries = mix(n);
  const total = entries.reduce((sum, [w]) => sum + w, 0);
  let state = 12345 + n;
  const draw = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    let r = state % total;
    for (const [w, request] of entries) if ((r -= w) < 0) return request;
    return entries[0][1];
  };
  return [{ setupRequest: (req: object) => ({ ...req, ...draw() }) }];
}

function run(n: number, seconds: number, rate?: number): Promise<AutocannonResult> {
  return autocannon({
    url: `http://127.0.0.1:${ports[n]}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: requests(n),
    ...(rate ? { overallRate: Math.max(1, Math.round(rate)) } : {}),
  });
}

function errorsOf(r: AutocannonResult): number {
  let bad = r.errors + r.timeouts;
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) if (Number(code) >= 500 && code !== '501') bad += count;
  return bad;
}

const rssMiB = () => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

async function eventLoop(): Promise<{ p99: number; max: number }> {
  const text = String(await admin(ports[0], '/metrics'));
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

console.log(`tongate soak: ${SECONDS} s in windows of ${WINDOW} s at ${Math.round(LOAD * 100)} % of capacity, both networks`);
const capacity = await Promise.all([run(0, 10), run(1, 10)]);
const capacityRps = capacity.map((r) => r.requests.average);
console.log(
  `capacity (mix, full speed, both networks at once): ${capacityRps.map((r) => r.toFixed(0)).join(' + ')} req/s, errors ${capacity.map(errorsOf).join(' + ')}`,
);
await eventLoop(); // reset the event-loop histogram before the soak

console.log(
  '\nwindow  req/s   p50 ms  p99 ms  max ms  errors  2xx     4xx     RSS MiB  loop p99 ms  loop max ms  health p99 ms  health max ms',
);
const rows: Array<{ rps: number; p99: number; errors: number; rss: number; loopMax: number; health: ProbeReport }> = [];
for (let elapsed = 0; elapsed < SECONDS; elapsed += WINDOW) {
  const prober = startHealthProber(ports[0]);
  const results = await Promise.all([0, 1].map((n) => run(n, WINDOW, capacityRps[n] * LOAD)));
  const health = await prober.stop();
  for (const failure of health.failures) console.log(`  /healthcheck: ${failure}`);
  const loop = await eventLoop();
  const count = (lo: number, hi: number) =>
    results.reduce(
      (sum, r) =>
        sum + Object.entries(r.statusCodeStats ?? {}).reduce((s, [c, { count }]) => s + (Number(c) >= lo && Number(c) < hi ? count : 0), 0),
      0,
    );
  const row = {
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    errors: results.reduce((s, r) => s + errorsOf(r), 0) + health.failures.length,
    rss: rssMiB(),
    loopMax: loop.max,
    health,
  };
  rows.push(row);
  console.log(
    [
      `${elapsed + WINDOW}s`.padEnd(7),
      row.rps.toFixed(0).padEnd(7),
      String(row.p50).padEnd(7),
      String(row.p99).padEnd(7),
      String(row.max).padEnd(7),
      String(row.errors).padEnd(7),
      String(count(200, 300)).padEnd(7),
      String(count(400, 500)).padEnd(7),
      row.rss.toFixed(0).padEnd(8),
      loop.p99.toFixed(1).padEnd(12),
      loop.max.toFixed(1).padEnd(12),
      health.p99Ms.toFixed(1).padEnd(14),
      health.slowestMs.toFixed(1),
    ].join(' '),
  );
}

const errors = rows.reduce((s, r) => s + r.errors, 0);
const growth = rows.length > 1 ? rows[rows.length - 1].rss / rows[0].rss - 1 : 0;
const p99s = rows.map((r) => r.p99);
console.log(`\nerrors: ${errors} (target 0)`);
console.log(
  `RSS: ${rows[0].rss.toFixed(0)} MiB after the first window, ${rows[rows.length - 1].rss.toFixed(0)} MiB at the end: growth ${(growth * 100).toFixed(1)} % (target < 10 %)`,
);
console.log(
  `p99 latency by window: first ${p99s[0]} ms, last ${p99s[p99s.length - 1]} ms, worst ${Math.max(...p99s)} ms; ratio last/first ${(p99s[p99s.length - 1] / p99s[0]).toFixed(2)}`,
);
console.log(`event-loop delay: worst max ${Math.max(...rows.map((r) => r.loopMax)).toFixed(1)} ms over the windows`);
const healthSlowest = Math.max(...rows.map((r) => r.health.slowestMs));
console.log(
  `/healthcheck: ${rows.reduce((s, r) => s + r.health.probes, 0)} probes, worst window p99 ${Math.max(...rows.map((r) => r.health.p99Ms)).toFixed(1)} ms, ` +
    `slowest ${healthSlowest.toFixed(1)} ms (target <= ${HEALTH_MS} ms: ${healthSlowest <= HEALTH_MS ? 'met' : 'not met'}); ` +
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
console.log(`tongate alive at the end: ${child.exitCode === null}`);
stop();
process.exit(errors === 0 && growth < 0.1 && child.exitCode === null ? 0 : 1);
