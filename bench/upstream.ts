/**
 * `npm run bench:upstream`: what a tongate in upstream mode adds in front of a toncenter-compatible API
 * (issue 12), every figure a ratio or a difference measured in this run.
 *
 * Three processes on one machine, all running the compiled code (dist/, as `tongate` runs; the npm script
 * builds it first): the upstream (`tongate start`, a local chain with its index), the front (`tongate start
 * --backend mainnet=upstream` forwarding to it, as an operator runs it: keys and limits on, every request
 * with a key far above the load; --upstream-cache 0, so every request is forwarded), and this one (the load). Each figure compares the same load sent straight to the upstream and
 * through the front, in interleaved rounds (so other processes' load hits both alike):
 *
 *  1. Throughput: autocannon, --connections connections, on GET getAddressInformation (distinct accounts,
 *     so single flight does not help) and GET /api/v3/transactions (distinct pages); req/s through the
 *     front / req/s direct (target >= 0.80), in two arms:
 *       shared  the three processes on the machine's two cores as the scheduler likes: the ratio is then the
 *               split of two cores between load (L), front (F) and upstream (U) CPU per request,
 *               about (L + U) / (L + F + U), whatever the proxy's design;
 *       pinned  (taskset) the upstream alone on CPU 1 in both arms, the load and the front on CPU 0: the
 *               upstream has the same CPU direct and through the front, so the ratio says whether the
 *               front (with the load beside it) can feed an upstream that has a core of its own.
 *  2. CPU per request: the front's and the upstream's CPU time (/proc/<pid>/task/<tid>/schedstat, ns) per request during the
 *     shared throughput runs: what the proxy costs next to what answering costs (median and spread); and in
 *     the same rounds the same load through the reference hops (below), each one's CPU per forwarded request:
 *     tongate / the minimal proxy, round by round, and nginx's, how far a C front is.
 *  2b. The target figure, tongate's CPU per forwarded request over the minimal proxy's (target <= 1.15): --cpu-pairs
 *     pairs of --cpu-seconds runs of the same saturating load, one through each, in ABBA order, each side warmed
 *     first; the ratio of all pairs' CPU per request and the median of the pairs' ratios. Short runs side by side
 *     keep the machine's other load alike for both (5 s rounds minutes apart spread 0.7x-2.2x on a busy machine).
 *  3. Added latency: a paced client (µs timing) at a fixed, unsaturated rate, sending its requests in turn
 *     straight, through the front, and through the reference hops (request by request, so the upstream's
 *     own pauses, a block sealed every second and its index updated, fall on all alike), --rate req/s in
 *     all (200 by default), shared between the arms; p50 and p99 of each minus direct, and tongate's p50
 *     minus the minimal proxy's (target <= 0.1 ms). The reference hops tell the machine's share from
 *     tongate's: a TCP relay (one more loopback hop, no HTTP), a minimal fastify + undici proxy (what a Node
 *     proxy of any design pays; bench/support/reference-hop.mjs) and nginx (bench/support/nginx-hop.ts:
 *     `proxy_pass` with keep-alive, one process; its row is skipped, saying why, when nginx is absent). Also the front's event-loop delay p99
 *     in that run (its own /metrics; prom-client samples it with a 10 ms timer, so ~10 ms is the floor).
 *  4. Single flight: 100 concurrent identical getMasterchainInfo through a front (target 1 upstream call):
 *     the upstream's calls counted by the upstream's own /metrics, minus the front's health checks in the
 *     same window (tongate_upstream_health_checks_total), printed apart. With the cache off (single flight
 *     alone) against the local upstream (it answers in ~0.2 ms, less than the 100 requests take to leave
 *     this process: the late ones find the flight landed and start another) and against the same upstream
 *     20 ms away (a TCP relay that delays requests by --remote-ms, as a remote API's round trip does: all
 *     100 arrive within the flight); and with the defaults (cache on: a round may find the answer kept).
 *
 * Diagnostics: BENCH_FRONT_NODE_ARGS (e.g. `--trace-gc`) is given to the front's node (BENCH_PROXY_NODE_ARGS to the
 * minimal proxy's: `--cpu-prof` profiles both; --loads v2 or v3 takes one load only), BENCH_FRONT_ENTRY runs the
 * front from another build (another checkout's dist/cli/entry.js: two builds compared on one machine), and the front's output
 * is written to the file BENCH_FRONT_OUT with the bench's phases marked on stderr (front's ms since start).
 *
 * Flags: --figures throughput,cpu,latency,single-flight (all by default), --cpu-pairs P (default 8), --cpu-seconds S
 * (default 2), --duration S (per throughput run, default 5), --rounds R (default 3), --connections C (default 10),
 * --rate R (default 200), --samples N (per latency run and arm, default 1000), --remote-ms (default 20).
 */
import { createRequire } from 'node:module';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { freePort } from '../test/support/ports.js';
import { waitForOutput } from '../test/support/process.js';
import { numberArg, stringArg } from './support/args.js';
import { startNginxHop } from './support/nginx-hop.js';

const argv = process.argv.slice(2);
const seconds = numberArg('duration', 5);
const rounds = numberArg('rounds', 3);
const connections = numberArg('connections', 10);
const rate = numberArg('rate', 200);
const samples = numberArg('samples', 1000);
const remoteMs = numberArg('remote-ms', 20);
const cpuPairs = numberArg('cpu-pairs', 8);
const cpuSeconds = numberArg('cpu-seconds', 2);
/** Which figures to take: throughput (with CPU), cpu (tongate against the minimal proxy), latency, single-flight (all by default). */
const figures = new Set(
  (argv.includes('--figures') ? argv[argv.indexOf('--figures') + 1] : 'throughput,cpu,latency,single-flight').split(','),
);
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
const ENTRY = fileURLToPath(new URL('../dist/cli/entry.js', import.meta.url));
/** `tongate` as installed runs it: the compiled code. */
function spawnTongate(args: string[], nodeArgs: string[] = [], entry = ENTRY) {
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return Object.assign(child, { output: () => ({ stdout, stderr }) });
}
const upstream = spawnTongate([
  'start',
  ...common,
  '--network',
  `mainnet=${upstreamBase}`,
  '--network',
  `testnet=http://127.0.0.1:${upstreamTestnetPort}`,
]);
// Not left running when the bench stops before its end (stopAll below, once everything is made, stops the rest).
process.on('exit', () => upstream.kill('SIGTERM'));
await waitForOutput(upstream, (out) => out.includes('ready in'));
const frontSpawnedAt = Date.now();
const mark = (what: string) => process.env.BENCH_FRONT_OUT && console.error(`[front +${Date.now() - frontSpawnedAt} ms] ${what}`);
// The front as an operator runs it: keys and limits on (embedded: keys in memory, limits in memory), every
// request with a key whose limit is far above the load, so each is a full access decision and none is refused.
const front = spawnTongate(
  [
    'start',
    ...common.map((arg) => (arg === 'off' ? 'on' : arg)),
    '--network',
    `mainnet=${frontBase}`,
    '--backend',
    'mainnet=upstream',
    '--upstream-v2',
    `mainnet=${upstreamBase}/api/v2`,
    '--upstream-v3',
    `mainnet=${upstreamBase}/api/v3`,
    '--upstream-cache',
    'mainnet=0',
    '--upstream-key',
    'mainnet=bench-upstream-key',
    '--network',
    `testnet=http://127.0.0.1:${frontTestnetPort}`,
    '--backend',
    'testnet=upstream',
    '--upstream-v2',
    `testnet=http://127.0.0.1:${upstreamTestnetPort}/api/v2`,
  ],
  (process.env.BENCH_FRONT_NODE_ARGS ?? '').split(' ').filter(Boolean),
  process.env.BENCH_FRONT_ENTRY,
);
await waitForOutput(front, (out) => out.includes('ready in'));
async function createKey(port: number, network: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ network, rps: 1_000_000 }),
  });
  if (response.status !== 201) throw new Error(`creating a ${network} key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { result: { key: string } }).result.key;
}
const frontKeys = { mainnet: await createKey(frontPort, 'mainnet'), testnet: await createKey(frontTestnetPort, 'testnet') };
/** The headers a request to `base` carries: the front's key where the front asks for one. */
function headersFor(base: string): Record<string, string> {
  if (base === frontBase) return { 'x-api-key': frontKeys.mainnet };
  if (base === `http://127.0.0.1:${frontTestnetPort}`) return { 'x-api-key': frontKeys.testnet };
  if (base === `http://127.0.0.1:${proxyHopPort}`) return { 'x-api-key': proxyKey };
  return {};
}

// The same upstream 20 ms away, for the single flight figure: a TCP relay that holds each request chunk --remote-ms
// (and names the upstream's own port in the Host header, which the upstream routes by).
const relayPort = await freePort();
const relay = createServer((client: Socket) => {
  const server = connect(upstreamPort, '127.0.0.1');
  const host = new RegExp(`^host: 127\\.0\\.0\\.1:${relayPort}\r$`, 'gim');
  client.on('data', (chunk: Buffer) => {
    const request = Buffer.from(chunk.toString('latin1').replace(host, `host: 127.0.0.1:${upstreamPort}\r`), 'latin1');
    setTimeout(() => server.write(request), remoteMs);
  });
  server.on('data', (chunk) => client.write(chunk));
  const close = () => {
    client.destroy();
    server.destroy();
  };
  client.on('close', close).on('error', close);
  server.on('close', close).on('error', close);
});
await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
const remoteFrontPort = await freePort();
const remoteFront = spawnTongate([
  'start',
  ...common,
  '--network',
  `mainnet=http://127.0.0.1:${remoteFrontPort}`,
  '--backend',
  'mainnet=upstream',
  '--upstream-v2',
  `mainnet=http://127.0.0.1:${relayPort}/api/v2`,
  '--upstream-cache',
  'mainnet=0',
]);
await waitForOutput(remoteFront, (out) => out.includes('ready in'));
// The reference hops of the latency figure, before the same upstream.
const REFERENCE_HOP = fileURLToPath(new URL('./support/reference-hop.mjs', import.meta.url));
const relayHopPort = await freePort();
const proxyHopPort = await freePort();
function spawnHop(args: string[]) {
  const nodeArgs = args[0] === 'proxy' ? (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean) : [];
  const child = spawn(process.execPath, [...nodeArgs, REFERENCE_HOP, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return Object.assign(child, { output: () => ({ stdout, stderr: '' }) });
}
const relayHop = spawnHop(['relay', String(relayHopPort), String(upstreamPort)]);
// The minimal proxy with keys and limits on too (in their least form: a Map lookup and a fixed window), as the front.
const proxyKey = 'bench-reference-proxy-key';
const proxyHop = spawnHop(['proxy', String(proxyHopPort), upstreamBase, proxyKey]);
await Promise.all([waitForOutput(relayHop, (out) => out.includes('ready in')), waitForOutput(proxyHop, (out) => out.includes('ready in'))]);
const nginxHopPort = await freePort();
const nginxStarted = await startNginxHop(nginxHopPort, upstreamPort);
const nginxHop = 'pid' in nginxStarted ? nginxStarted : undefined;
if (!nginxHop) console.log(`(no nginx row: ${'missing' in nginxStarted ? nginxStarted.missing : ''})`);
const stopAll = () => {
  relayHop.kill('SIGTERM');
  proxyHop.kill('SIGTERM');
  nginxHop?.stop();
  if (process.env.BENCH_FRONT_OUT) writeFileSync(process.env.BENCH_FRONT_OUT, front.output().stdout + front.output().stderr);
  front.kill('SIGTERM');
  remoteFront.kill('SIGTERM');
  upstream.kill('SIGTERM');
  relay.close();
};
process.on('exit', stopAll);
/** Stops every process and waits (10 s at most) for the front and the minimal proxy to exit, so a --cpu-prof given to them is written. */
async function finish(): Promise<never> {
  const exited = [front, proxyHop].map(
    (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(0) : child.once('exit', resolve))),
  );
  stopAll();
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  process.exit(0);
}

// Some transactions for v3 to page through: faucet transfers to 40 accounts (blocks every second).
const accounts = Array.from({ length: 1000 }, (_, i) => `0:${i.toString(16).padStart(4, '0').repeat(16)}`);
await Promise.all(
  accounts.slice(0, 40).map((address) =>
    fetch(`${upstreamBase}/devnet/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ address, amount: '1000000000' }),
    }).then(async (r) => {
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
const loads = (
  [
    { name: 'v2 getAddressInformation', path: (i) => `/api/v2/getAddressInformation?address=${accounts[i % accounts.length]}` },
    { name: 'v3 transactions', path: (i) => `/api/v3/transactions?limit=10&sort=desc&offset=${i % 50}` },
  ] as Load[]
).filter((load) => (stringArg('loads') ?? 'v2,v3').split(',').includes(load.name.slice(0, 2)));
for (const load of loads) {
  for (const base of [upstreamBase, frontBase]) {
    const response = await fetch(base + load.path(1), { headers: headersFor(base) });
    if (response.status !== 200) throw new Error(`${load.name} at ${base}: ${response.status} ${await response.text()}`);
  }
}

/**
 * CPU time of a process in µs, all its threads: /proc/<pid>/task/<tid>/schedstat, the ns each thread ran (the
 * figure stat's utime + stime round to 10 ms ticks). A thread that ends between two readings takes its time
 * with it; Node's threads (main, V8's and libuv's pools) live as long as the process.
 */
function cpuMicros(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1000;
}

/** Pins a process (all its threads) to the given CPUs ('0', '1', '0,1'). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
const ALL_CPUS = '0-1';
/** The pinned arm: the upstream alone on CPU 1; this process (the load) and the front on CPU 0. */
function pinned<T>(run: () => Promise<T>): Promise<T> {
  pin(upstream.pid!, '1');
  pin(front.pid!, '0');
  pin(process.pid, '0');
  return run().finally(() => {
    for (const pid of [upstream.pid!, front.pid!, process.pid]) pin(pid, ALL_CPUS);
  });
}

/** A load run against `base`; `hopPid` is the process in the middle whose CPU is counted (the front by default). */
async function throughput(
  base: string,
  load: Load,
  hopPid = front.pid!,
): Promise<{ rps: number; total: number; frontCpuMs: number; upstreamCpuMs: number }> {
  let i = 0;
  const frontCpu = cpuMicros(hopPid) / 1000;
  const upstreamCpu = cpuMicros(upstream.pid!) / 1000;
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: headersFor(base),
    requests: [{ method: 'GET', setupRequest: (request: { path: string }) => ({ ...request, path: load.path(i++) }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${load.name} at ${base}: ${result.non2xx} non-2xx, ${result.errors} errors under load`);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    frontCpuMs: cpuMicros(hopPid) / 1000 - frontCpu,
    upstreamCpuMs: cpuMicros(upstream.pid!) / 1000 - upstreamCpu,
  };
}

const ALL_ARMS = ['direct', 'via', 'proxy', 'nginx', 'relay'] as const;
type Arm = (typeof ALL_ARMS)[number];
const ARMS: Arm[] = ALL_ARMS.filter((arm) => arm !== 'nginx' || nginxHop !== undefined);
const proxyBase = `http://127.0.0.1:${proxyHopPort}`;
const nginxBase = `http://127.0.0.1:${nginxHopPort}`;
/**
 * Latencies (ms, µs precision) of `samples` requests per arm, `rate` per second in all whatever the
 * answers' pace, the arms in turn (straight, through the front, through the minimal proxy, through the TCP
 * relay), so all meet the same moments. The relay passes the Host header on as it is: the upstream's own.
 */
async function paced(load: Load): Promise<Record<Arm, number[]>> {
  const origins: Record<Arm, string> = {
    direct: upstreamBase,
    via: frontBase,
    proxy: proxyBase,
    nginx: nginxBase,
    relay: `http://127.0.0.1:${relayHopPort}`,
  };
  const pools = Object.fromEntries(ARMS.map((arm) => [arm, new Pool(origins[arm], { connections: 16 })])) as Record<Arm, Pool>;
  const headers: Record<Arm, Record<string, string>> = {
    direct: {},
    via: headersFor(frontBase),
    proxy: headersFor(proxyBase),
    nginx: {},
    relay: { host: `127.0.0.1:${upstreamPort}` },
  };
  const latencies = Object.fromEntries(ARMS.map((arm) => [arm, [] as number[]])) as Record<Arm, number[]>;
  const failures: string[] = [];
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let n = 0; n < ARMS.length * samples; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const arm = ARMS[n % ARMS.length];
    pending.push(
      (async () => {
        const t0 = performance.now();
        const { statusCode, body } = await pools[arm].request({
          path: load.path(Math.floor(n / ARMS.length)),
          method: 'GET',
          headers: headers[arm],
        });
        await body.arrayBuffer();
        // An overloaded machine makes a hop time out (504): counted and printed, not timed, not fatal.
        if (statusCode !== 200) failures.push(`${arm} ${statusCode}`);
        else latencies[arm].push(performance.now() - t0);
      })(),
    );
  }
  await Promise.all(pending);
  if (failures.length > 0)
    console.log(`    (${load.name}: ${failures.length} answers were not 200 and are left out: ${[...new Set(failures)].join(', ')})`);
  await Promise.all(ARMS.map((arm) => pools[arm].close()));
  for (const arm of ARMS) latencies[arm].sort((a, b) => a - b);
  return latencies;
}

async function metricsOf(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
}
/** The front's event-loop delay p99 (ms) since its previous scrape (prom-client resets it on each). */
async function frontLoopP99(): Promise<number> {
  const match = /^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(await metricsOf(frontPort));
  return match ? Number(match[1]) * 1000 : NaN;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const spread = (xs: number[], digits = 2) => `${Math.min(...xs).toFixed(digits)}..${Math.max(...xs).toFixed(digits)}`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

// warm-up of every hop
for (const base of [upstreamBase, frontBase, proxyBase, ...(nginxHop ? [nginxBase] : [])])
  await autocannon({ url: `${base}/api/v2/getMasterchainInfo`, connections, duration: 2, headers: headersFor(base) });
console.log(
  `bench:upstream: upstream, front and load in three processes on one machine (${execFileSync('nproc').toString().trim()} CPUs, load average ${loadAverage()}); ${connections} connections, ${seconds} s per run, ${rounds} interleaved rounds`,
);

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

for (const load of loads) {
  const ratios: number[] = [];
  const pinnedRatios: number[] = [];
  const frontCpu: number[] = [];
  const upstreamCpu: number[] = [];
  const directRps: number[] = [];
  const viaRps: number[] = [];
  const pinnedDirectRps: number[] = [];
  const pinnedViaRps: number[] = [];
  /** CPU per forwarded request of the reference hops in the same rounds, and tongate's over the minimal proxy's. */
  const proxyCpu: number[] = [];
  const nginxCpu: number[] = [];
  const overProxyCpu: number[] = [];
  if (figures.has('throughput') || figures.has('cpu') || figures.has('latency'))
    console.log(`\n${load.name} (load average ${loadAverage()})`);
  for (let round = 0; round < rounds && figures.has('throughput'); round++) {
    mark(`${load.name} throughput round ${round}`);
    const direct = await throughput(upstreamBase, load);
    const via = await throughput(frontBase, load);
    directRps.push(direct.rps);
    viaRps.push(via.rps);
    ratios.push(via.rps / direct.rps);
    frontCpu.push((via.frontCpuMs * 1000) / via.total);
    upstreamCpu.push((via.upstreamCpuMs * 1000) / via.total);
    const viaProxy = await throughput(proxyBase, load, proxyHop.pid!);
    proxyCpu.push((viaProxy.frontCpuMs * 1000) / viaProxy.total);
    overProxyCpu.push(frontCpu[round] / proxyCpu[round]);
    if (nginxHop) {
      const viaNginx = await throughput(nginxBase, load, nginxHop.pid);
      nginxCpu.push((viaNginx.frontCpuMs * 1000) / viaNginx.total);
    }
    const [pinnedDirect, pinnedVia] = await pinned(async () => [await throughput(upstreamBase, load), await throughput(frontBase, load)]);
    pinnedDirectRps.push(pinnedDirect.rps);
    pinnedViaRps.push(pinnedVia.rps);
    pinnedRatios.push(pinnedVia.rps / pinnedDirect.rps);
  }
  if (figures.has('throughput')) {
    console.log(
      `  shared: req/s direct ${median(directRps).toFixed(0)}, through tongate ${median(viaRps).toFixed(0)}: ratio ${median(ratios).toFixed(2)} (rounds ${list(ratios)}; target >= 0.80)`,
    );
    console.log(
      `  pinned: req/s direct ${median(pinnedDirectRps).toFixed(0)}, through tongate ${median(pinnedViaRps).toFixed(0)}: ratio ${median(pinnedRatios).toFixed(2)} (rounds ${list(pinnedRatios)}; upstream alone on CPU 1, load and front on CPU 0)`,
    );
    const f = median(frontCpu);
    const u = median(upstreamCpu);
    console.log(
      `  CPU per request: front ${f.toFixed(0)} µs (${spread(frontCpu, 0)}), upstream ${u.toFixed(0)} µs (${spread(upstreamCpu, 0)}): the proxy costs ${(f / u).toFixed(2)}x the upstream's answer`,
    );
    console.log(
      `  CPU per forwarded request of each hop: tongate (keys and limits on) ${f.toFixed(0)} µs, minimal fastify + undici proxy ${median(proxyCpu).toFixed(0)} µs (${spread(proxyCpu, 0)})` +
        (nginxHop ? `, nginx ${median(nginxCpu).toFixed(0)} µs (${spread(nginxCpu, 0)})` : ', nginx: absent'),
    );
    console.log(
      `  tongate / minimal proxy CPU in these rounds: ${median(overProxyCpu).toFixed(2)}x (rounds ${list(overProxyCpu)}; the target figure is the ABBA pairs' below)`,
    );
  }

  // The target figure: tongate's CPU per forwarded request over the minimal proxy's, from pairs of short runs of the
  // same load, in ABBA order (tongate first in even pairs, the proxy first in odd ones) so a drift of the machine's
  // load during a pair falls on both alike; each side warmed first with the same load; CPU from schedstat (ns).
  if (figures.has('cpu')) {
    mark(`${load.name} cpu pairs`);
    const slice = async (base: string, pid: number) => {
      let i = 0;
      const before = cpuMicros(pid);
      const result = await autocannon({
        url: base,
        connections,
        duration: cpuSeconds,
        headers: headersFor(base),
        requests: [{ method: 'GET', setupRequest: (request: { path: string }) => ({ ...request, path: load.path(i++) }) }],
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${load.name} at ${base}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return { micros: cpuMicros(pid) - before, requests: result.requests.total };
    };
    await slice(frontBase, front.pid!);
    await slice(proxyBase, proxyHop.pid!);
    const pairRatios: number[] = [];
    const sides = {
      tongate: { micros: 0, requests: 0, perRequest: [] as number[] },
      proxy: { micros: 0, requests: 0, perRequest: [] as number[] },
    };
    const loadBefore = loadAverage();
    for (let pair = 0; pair < cpuPairs; pair++) {
      const order = pair % 2 === 0 ? (['tongate', 'proxy'] as const) : (['proxy', 'tongate'] as const);
      const perRequest = { tongate: 0, proxy: 0 };
      for (const side of order) {
        const run = side === 'tongate' ? await slice(frontBase, front.pid!) : await slice(proxyBase, proxyHop.pid!);
        sides[side].micros += run.micros;
        sides[side].requests += run.requests;
        sides[side].perRequest.push(run.micros / run.requests);
        perRequest[side] = run.micros / run.requests;
      }
      pairRatios.push(perRequest.tongate / perRequest.proxy);
    }
    const t = sides.tongate.micros / sides.tongate.requests;
    const p = sides.proxy.micros / sides.proxy.requests;
    console.log(
      `  CPU per forwarded request, ${cpuPairs} ABBA pairs of ${cpuSeconds} s (load average ${loadBefore} .. ${loadAverage()}): tongate ${t.toFixed(1)} µs (${spread(sides.tongate.perRequest, 0)}; ${sides.tongate.requests} requests), minimal proxy ${p.toFixed(1)} µs (${spread(sides.proxy.perRequest, 0)}; ${sides.proxy.requests} requests)`,
    );
    console.log(
      `  tongate / minimal proxy CPU: ${(t / p).toFixed(2)}x over all pairs, median pair ${median(pairRatios).toFixed(2)}x (pairs ${list(pairRatios)}; target <= 1.15)`,
    );
  }

  type Hop = Exclude<Arm, 'direct'>;
  const hops = ARMS.filter((arm): arm is Hop => arm !== 'direct');
  const added = Object.fromEntries(hops.map((hop) => [hop, { p50: [] as number[], p99: [] as number[] }])) as Record<
    Hop,
    { p50: number[]; p99: number[] }
  >;
  const overProxy50: number[] = [];
  const overProxy99: number[] = [];
  const loopP99: number[] = [];
  for (let round = 0; round < rounds && figures.has('latency'); round++) {
    mark(`${load.name} latency round ${round}`);
    await frontLoopP99(); // resets the front's event-loop histogram
    const arms = await paced(load);
    loopP99.push(await frontLoopP99());
    for (const arm of hops) {
      added[arm].p50.push(quantile(arms[arm], 0.5) - quantile(arms.direct, 0.5));
      added[arm].p99.push(quantile(arms[arm], 0.99) - quantile(arms.direct, 0.99));
    }
    overProxy50.push(quantile(arms.via, 0.5) - quantile(arms.proxy, 0.5));
    overProxy99.push(quantile(arms.via, 0.99) - quantile(arms.proxy, 0.99));
  }
  if (figures.has('latency')) {
    const figure = (arm: Hop) =>
      `added p50 ${median(added[arm].p50).toFixed(3)} ms (${spread(added[arm].p50, 3)}), p99 ${median(added[arm].p99).toFixed(3)} ms (${spread(added[arm].p99, 3)})`;
    console.log(`  at ${rate} req/s in all, ${rate / ARMS.length} per arm (${ARMS.join(', ')} in turn; load average ${loadAverage()}):`);
    console.log(`    through tongate (keys and limits on): ${figure('via')}`);
    console.log(`    through a minimal fastify + undici proxy: ${figure('proxy')}`);
    if (nginxHop) console.log(`    through nginx (proxy_pass, keep-alive): ${figure('nginx')}`);
    console.log(`    through a TCP relay:   ${figure('relay')}`);
    console.log(
      `    tongate minus the minimal proxy: p50 ${median(overProxy50).toFixed(3)} ms (${spread(overProxy50, 3)}; target <= 0.1 ms), p99 ${median(overProxy99).toFixed(3)} ms (${spread(overProxy99, 3)}); the front's event-loop delay p99 ${median(loopP99).toFixed(1)} ms (${spread(loopP99, 1)})`,
    );
  }
}

// --- single flight -----------------------------------------------------------------------------
/** getMasterchainInfo calls the upstream answered for a network (its own request metrics). */
async function upstreamCalls(network: string): Promise<number> {
  const line = new RegExp(
    `tongate_http_requests_total\\{network="${network}",version="v2",method="getMasterchainInfo",status="200"\\} (\\d+)`,
  ).exec(await metricsOf(upstreamPort));
  return line ? Number(line[1]) : 0;
}
/** v2 health checks (getMasterchainInfo) sent by the fronts to a network of the upstream. */
async function healthChecks(network: string): Promise<number> {
  let sum = 0;
  for (const port of [frontPort, frontTestnetPort, remoteFrontPort]) {
    for (const match of (await metricsOf(port)).matchAll(
      /tongate_upstream_health_checks_total\{network="[^"]+",upstream="([^"]+)"\} (\d+)/g,
    )) {
      const url = new URL(match[1]);
      const target = Number(url.port) === relayPort ? upstreamPort : Number(url.port);
      const served = target === upstreamPort ? 'mainnet' : 'testnet'; // the upstream serves testnet on its own port
      if (served === network && url.pathname.endsWith('/api/v2')) sum += Number(match[2]);
    }
  }
  return sum;
}
// 100 keep-alive connections opened first, so the 100 requests leave together (as 100 clients' would).
async function singleFlight(network: string, frontPortOf: number): Promise<{ calls: number[]; checks: number[] }> {
  const burstPool = new Pool(`http://127.0.0.1:${frontPortOf}`, { connections: 100 });
  const burst = (path: string) =>
    Promise.all(
      Array.from({ length: 100 }, async () => {
        const { statusCode, body } = await burstPool.request({
          path,
          method: 'GET',
          headers: headersFor(`http://127.0.0.1:${frontPortOf}`),
        });
        const text = await body.text();
        if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
        return text;
      }),
    );
  await burst('/api/v2/detectAddress?address=0:0000000000000000000000000000000000000000000000000000000000000000');
  const calls: number[] = [];
  const checks: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const [callsBefore, checksBefore] = [await upstreamCalls(network), await healthChecks(network)];
    const answers = await burst('/api/v2/getMasterchainInfo');
    // One flight answers one head; a burst that straddles a new block (one a second) may see two.
    const heads = new Set(answers.map((a) => a.replace(/"@extra":"[^"]*"/, ''))).size;
    if (heads > 2) throw new Error(`coalesced answers differ: ${heads} distinct answers in one burst`);
    const [callsAfter, checksAfter] = [await upstreamCalls(network), await healthChecks(network)];
    checks.push(checksAfter - checksBefore);
    calls.push(callsAfter - callsBefore - (checksAfter - checksBefore));
  }
  await burstPool.close();
  return { calls, checks };
}
if (!figures.has('single-flight')) await finish();
const alone = await singleFlight('mainnet', frontPort);
const remote = await singleFlight('mainnet', remoteFrontPort);
const withCache = await singleFlight('testnet', frontTestnetPort);
const checked = (r: { checks: number[] }) =>
  r.checks.some((n) => n > 0) ? ` (health checks in the same windows, not counted: ${r.checks.join(', ')})` : '';
console.log(`\n100 concurrent identical getMasterchainInfo through tongate, upstream calls made for the clients per round (target 1):`);
console.log(`  cache off, local upstream:             ${alone.calls.join(', ')}${checked(alone)}`);
console.log(`  cache off, upstream ${remoteMs} ms away:         ${remote.calls.join(', ')}${checked(remote)}`);
console.log(`  defaults (cache on, 1000 ms):           ${withCache.calls.join(', ')}${checked(withCache)}`);
await finish();
