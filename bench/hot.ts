/**
 * `npm run bench:hot`: the hot reads against a bare `node:http` server sending the same bytes, in the same run.
 *
 * Three server processes: tongate with the access layer on (a key with a limit far above the load, so every request
 * is a full decision that allows it), tongate with `--access off`, and a bare `node:http` server that answers each
 * route with the exact status, headers and body tongate gave it (captured once at the start). Both tongates are
 * `startTongate` as `tongate start` wires them: one local chain (mainnet), SQLite index and keys, memory limiter,
 * blocks every --block-interval ms (default: the default, 1 s, so the per-block answers really turn over). They run
 * the built code (dist/, which `npm run bench:hot` builds first), as `npm start` does: run from the sources through
 * tsx, the request path cost ~10-25 % more CPU per request (tsx's transform wraps functions).
 *
 * For each route class: rounds of autocannon (--connections, --duration) against the three in turn, the order
 * rotating each round; the ratio tongate/bare is taken round by round (each against the bare run next to it), then
 * the median and the spread. Besides req/s, each server's CPU time per request (its own user + system, asked over
 * IPC): on a shared machine req/s swings with other processes' load, CPU per request much less. Then p99 latency at
 * 50 % of tongate's measured capacity (hrtime per request, bench/support/latency-at-rate.ts), tongate vs bare, in two
 * passes of the three servers, the second in reverse order (what the rounds before leave lands on the first measured).
 *
 * --pinned: the three servers (all their threads) on one CPU (--server-cpu, 1) and this process with autocannon on
 * another (--client-cpu, 0), pinned as `bench:access --pinned` pins them (support/pinning.ts), so the load generator
 * never takes a server's CPU; each run then also prints how busy the server kept its CPU (near 1: the server set the
 * pace; well below: the client or another process did).
 *
 * Goals: GET /api/v3/masterchainInfo with a key >= 0.50 of bare; with --access off >= 0.55.
 * Flags: --routes a,b (names below; default all), --rounds R (3), --duration S (4), --connections C (32),
 * --block-interval MS (1000), --latency-seconds S (3), --pinned [--server-cpu N --client-cpu N].
 */
import { createRequire } from 'node:module';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { hasFlag, numberArg, stringArg } from './support/args.js';
import { latencyAtRate } from './support/latency-at-rate.js';
import { autogroupNote } from './support/autogroup.js';
import { answerCpuOverIpc, spawnBenchChild } from './support/bench-child.js';
import { pinning } from './support/pinning.js';

interface RouteClass {
  name: string;
  method: 'GET' | 'POST';
  /** The path, `{addr}` standing for a faucet wallet's address. */
  path: string;
  body?: string;
}

const ROUTES: RouteClass[] = [
  { name: 'v3.masterchainInfo', method: 'GET', path: '/api/v3/masterchainInfo' },
  { name: 'v3.transactions', method: 'GET', path: '/api/v3/transactions?limit=1' },
  { name: 'v3.accountStates', method: 'GET', path: '/api/v3/accountStates?address={addr}' },
  { name: 'v2.getMasterchainInfo', method: 'GET', path: '/api/v2/getMasterchainInfo' },
  { name: 'v2.getAddressBalance', method: 'GET', path: '/api/v2/getAddressBalance?address={addr}' },
  { name: 'v2.getAddressInformation', method: 'GET', path: '/api/v2/getAddressInformation?address={addr}' },
  {
    name: 'v2.runGetMethod',
    method: 'POST',
    path: '/api/v2/runGetMethod',
    body: JSON.stringify({ address: '{addr}', method: 'seqno', stack: [] }),
  },
  {
    name: 'jsonRPC.getMasterchainInfo',
    method: 'POST',
    path: '/api/v2/jsonRPC',
    body: JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} }),
  },
];

type ServerKind = 'key' | 'off' | 'bare';

/** The tongates run the built code, as `npm start` does (support/built-tongate.mjs). */
const BUILT_TONGATE = new URL('./support/built-tongate.mjs', import.meta.url).pathname;

// ---------------------------------------------------------------------------------------------
// Children
// ---------------------------------------------------------------------------------------------
interface Captured {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

/** The bare server: `node:http`, a Map lookup by method and URL, the captured bytes written back. */
async function serveBare(file: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  for (const [route, c] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Captured>))
    answers.set(route, { status: c.status, headers: c.headers, body: Buffer.from(c.body, 'base64') });
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  answerCpuOverIpc();
  process.stdout.write(JSON.stringify({ port, key: 'unused', address: '' }) + '\n');
  process.once('SIGTERM', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// Parent
// ---------------------------------------------------------------------------------------------
interface BenchServer {
  kind: ServerKind;
  port: number;
  key: string;
  address: string;
  pid: number;
  cpuUs(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(kind: ServerKind, args: string[]): Promise<BenchServer> {
  const child =
    kind === 'bare'
      ? await spawnBenchChild<{ port: number; key: string; address: string }>(new URL(import.meta.url).pathname, ['--serve', kind, ...args])
      : await spawnBenchChild<{ port: number; key: string; address: string }>(BUILT_TONGATE, args, { tsx: false });
  return { kind, ...child.ready, pid: child.pid, cpuUs: child.cpuUs, stop: child.stop };
}

const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<{
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}>;

interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

function requestFor(route: RouteClass, server: BenchServer, address: string): Request {
  const headers: Record<string, string> = server.key === 'unused' ? {} : { 'x-api-key': server.key };
  if (route.body !== undefined) headers['content-type'] = 'application/json';
  return {
    method: route.method,
    path: route.path.replace('{addr}', encodeURIComponent(address)),
    body: route.body?.replace('{addr}', address),
    headers,
  };
}

interface Run {
  rps: number;
  cpuPerRequest: number;
  /** The server's CPU time over the run's wall time. */
  busy: number;
  non2xx: number;
}

async function load(server: BenchServer, request: Request, seconds: number, connections: number): Promise<Run> {
  const cpu0 = await server.cpuUs();
  const t0 = process.hrtime.bigint();
  const r = await autocannon({
    url: `http://127.0.0.1:${server.port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
  });
  const cpu1 = await server.cpuUs();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  return {
    rps: r.requests.average,
    cpuPerRequest: (cpu1 - cpu0) / Math.max(1, r.requests.total),
    busy: (cpu1 - cpu0) / 1e6 / wall,
    non2xx: r.non2xx + r.errors,
  };
}

async function capture(server: BenchServer, request: Request): Promise<Captured> {
  const res = await fetch(`http://127.0.0.1:${server.port}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value;
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${request.method} ${request.path}: ${res.status} ${body.toString()}`);
  return { status: res.status, headers, body: body.toString('base64') };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[], digits = 3) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
const load1 = () => loadavg()[0].toFixed(1);

async function main(): Promise<void> {
  const rounds = numberArg('rounds', 3);
  const seconds = numberArg('duration', 4);
  const connections = numberArg('connections', 32);
  const blockInterval = numberArg('block-interval', 1000);
  const latencySeconds = numberArg('latency-seconds', 3);
  const only = stringArg('routes')?.split(',');
  const routes = only ? ROUTES.filter((r) => only.some((o) => r.name === o || r.name.endsWith(`.${o}`))) : ROUTES;
  console.log(
    `tongate hot reads vs a bare node:http server sending the same bytes (node ${process.version}, ${new Date().toISOString()}; load average ${load1()}; ${autogroupNote()})\n` +
      `autocannon ${connections} connections, ${seconds} s per run, ${rounds} rounds (order rotating); one local chain, a block every ${blockInterval} ms`,
  );
  const key = await startServer('key', ['on', String(blockInterval)]);
  const off = await startServer('off', ['off', String(blockInterval)]);
  const address = key.address;
  // The bytes the bare server sends: tongate's own answer to each request (the access-on server's, rate headers included).
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'tongate-bench-hot-')), 'answers.json');
  const answers: Record<string, Captured> = {};
  for (const route of routes) {
    const request = requestFor(route, key, address);
    const captured = await capture(key, request);
    answers[`${request.method} ${request.path}`] = captured;
  }
  writeFileSync(file, JSON.stringify(answers));
  const bare = await startServer('bare', [file]);
  const pinned = hasFlag('pinned') ? pinning() : undefined;
  if (pinned) {
    pinned.pin([key.pid, off.pid, bare.pid]);
    console.log(
      `pinned: the three servers (all their threads) on CPU ${pinned.serverCpu}, autocannon (this process) on CPU ${pinned.clientCpu} of ${pinned.cpus}`,
    );
  }
  const busy = (rs: Run[]) =>
    pinned
      ? `  server busy ${spread(
          rs.map((r) => r.busy),
          2,
        )} of its CPU`
      : '';
  try {
    for (const route of routes) {
      const servers = [key, off, bare];
      const runs = new Map<ServerKind, Run[]>(servers.map((s) => [s.kind, []]));
      const loads: string[] = [];
      for (const server of servers) await load(server, requestFor(route, server, address), 1, connections); // warm-up
      for (let round = 0; round < rounds; round++) {
        loads.push(load1());
        for (let i = 0; i < servers.length; i++) {
          const server = servers[(i + round) % servers.length];
          const run = await load(server, requestFor(route, server, address), seconds, connections);
          if (run.non2xx > 0) console.log(`   warning: ${route.name} on ${server.kind}: ${run.non2xx} non-2xx or errors`);
          runs.get(server.kind)!.push(run);
        }
      }
      const bareRuns = runs.get('bare')!;
      console.log(`\n${route.name}: ${route.method} ${route.path}  (load average per round: ${loads.join(', ')})`);
      console.log(
        `   bare      ${median(bareRuns.map((r) => r.rps))
          .toFixed(0)
          .padStart(6)} req/s  ${median(bareRuns.map((r) => r.cpuPerRequest)).toFixed(1)} µs CPU/request${busy(bareRuns)}`,
      );
      const capacity = new Map<ServerKind, number>();
      for (const kind of ['key', 'off'] as const) {
        const rs = runs.get(kind)!;
        const ratios = rs.map((r, i) => r.rps / bareRuns[i].rps);
        const cpuRatios = rs.map((r, i) => bareRuns[i].cpuPerRequest / r.cpuPerRequest);
        capacity.set(kind, median(rs.map((r) => r.rps)));
        console.log(
          `   ${kind === 'key' ? 'with a key' : 'access off'} ${median(rs.map((r) => r.rps))
            .toFixed(0)
            .padStart(
              6,
            )} req/s  ${median(rs.map((r) => r.cpuPerRequest)).toFixed(1)} µs CPU/request   req/s vs bare: median ${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(3)).join(', ')})   CPU capacity vs bare: median ${median(cpuRatios).toFixed(3)} (${spread(cpuRatios)})${busy(rs)}`,
        );
      }
      const keyOff = runs.get('key')!.map((r, i) => r.rps / runs.get('off')![i].rps);
      console.log(`   access on/off req/s: median ${median(keyOff).toFixed(3)} (rounds ${keyOff.map((x) => x.toFixed(3)).join(', ')})`);
      // p99 at half of tongate's (with a key) measured capacity, the same rate offered to each.
      const rate = Math.max(50, Math.round(capacity.get('key')! / 2));
      const latency = new Map<ServerKind, { p50: number; p99: number }[]>(servers.map((s) => [s.kind, []]));
      // The client (node:http in this process) warmed first against bare, so the server measured first does not
      // carry the client's own warm-up in its figures. Two passes in opposite orders: what the autocannon rounds
      // left behind (a collection, the index catching up) lands on the server measured first, once each way.
      await latencyAtRate({ port: bare.port, ...requestFor(route, bare, address) }, 1, rate);
      for (const order of [servers, [...servers].reverse()]) {
        for (const server of order) {
          const request = requestFor(route, server, address);
          latency.get(server.kind)!.push(await latencyAtRate({ port: server.port, ...request }, latencySeconds, rate));
        }
      }
      const passes = (kind: ServerKind, p: 'p50' | 'p99') =>
        latency
          .get(kind)!
          .map((l) => l[p].toFixed(3))
          .join(' / ');
      const fmt = (kind: ServerKind) => `p50 ${passes(kind, 'p50')} p99 ${passes(kind, 'p99')} ms`;
      const worst = (kind: ServerKind) => Math.max(...latency.get(kind)!.map((l) => l.p99));
      console.log(
        `   at ${rate} req/s (50 % of capacity, load average ${load1()}; two passes, the second in reverse order): bare ${fmt('bare')}; with a key ${fmt('key')} (worse p99 ${(worst('key') / worst('bare')).toFixed(2)}x bare's); access off ${fmt('off')}`,
      );
    }
  } finally {
    pinned?.release();
    await Promise.all([key.stop(), off.stop(), bare.stop()]);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

if (hasFlag('serve')) {
  const argv = process.argv.slice(2);
  await serveBare(argv[argv.indexOf('--serve') + 2]);
} else {
  await main();
}
