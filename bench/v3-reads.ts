/**
 * `npm run bench:v3-reads`: what moving the v3 index's SQLite reads off the HTTP thread costs and buys,
 * measured in one run on one index, the two ways of reading alternating round by round:
 *   sync    the reads on the HTTP thread (a better-sqlite3 connection of the main thread: how tongate read before)
 *   pool    the reads on reader threads (worker/reader-pool.ts: what tongate does now)
 *
 *   0. The thread hop alone, without HTTP: IndexReader.transactions({account X}, limit 10) called in this
 *      thread, one at a time, through each path (p50/p99 per call).
 *   1. Per-query cost of the thread hop over HTTP: p50/p99 of /transactions?account=X&limit=10, /blocks?limit=10 and
 *      /masterchainInfo, one request at a time on a keep-alive connection (after as many warm-up requests).
 *   2. What an expensive question does to everybody else: /healthcheck, one at a time, while another client
 *      asks /transactions?offset=<deep>&limit=10 (a deep offset scans that many index entries) back to back;
 *      /healthcheck's p50/p99/max and the HTTP thread's longest event-loop stall (perf_hooks).
 *
 * The index: BENCH_READS_FILE (default /tmp/seed200k/bench/index.sqlite, 200,000 transactions from
 * `scripts/seed-index.ts --transactions 200000`), copied to a scratch directory first (opening an index writes
 * to it). Rounds: BENCH_ROUNDS (default 3); the machine is shared, so each round's figures are printed and
 * the ratios' spread given.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { createAccessLayer } from '../src/access/index.js';
import { LocalChain } from '../src/chain/local/index.js';
import { accessOptionsFrom } from '../src/cli/access-options.js';
import { loadConfig } from '../src/config/load.js';
import { createGateway } from '../src/gateway/gateway.js';
import { openIndex, type Index } from '../src/index/open-index.js';
import { IndexReader } from '../src/index/reader.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';
import { text } from '../src/index/sql/values.js';
import { SqliteReaderPool } from '../src/index/worker/reader-pool.js';
import { systemClock } from '../src/util/clock.js';
import { freePort } from '../test/support/ports.js';

const SOURCE = process.env.BENCH_READS_FILE ?? '/tmp/seed200k/bench/index.sqlite';
const DIR = join(tmpdir(), 'tongate-bench-v3-reads');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
/** How long /healthcheck is probed while the deep-offset client runs. */
const STALL_MS = Number(process.env.BENCH_STALL_MS ?? 5000);
const FAUCET_MNEMONIC =
  'region sniff brass cake cave thank still hero chronic father maze leader eagle need surface orchard earn excite gravity forest seed auto polar hurt'.split(
    ' ',
  );

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number, digits = 2) => n.toFixed(digits);

interface Latency {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

function summary(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: sorted[Math.floor(sorted.length * 0.5)],
    p99: sorted[Math.floor(sorted.length * 0.99)],
    max: sorted[sorted.length - 1],
    count: sorted.length,
  };
}

/**
 * An HTTP client in a thread of its own (its pauses are not the server's): `count` requests one at a time
 * (after as many warm-up ones), or, with `forMs`, requests until that much time has passed. ms per request.
 */
function client(
  port: number,
  paths: string[],
  options: { count?: number; forMs?: number; warm?: boolean },
): { done: Promise<number[]>; stop(): void } {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Agent, request } = require('node:http');
    const { port, paths, count, forMs, warm } = workerData;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let stopped = false;
    parentPort.on('message', () => (stopped = true));
    const once = (path) => new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(path + ': HTTP ' + res.statusCode))));
      });
      req.on('error', reject);
      req.end();
    });
    (async () => {
      if (warm) for (let i = 0; i < count; i++) await once(paths[(i * 104729 + 7) % paths.length]);
      const times = [];
      const until = forMs ? performance.now() + forMs : Infinity;
      for (let i = 0; forMs ? performance.now() < until && !stopped : i < count; i++) times.push(await once(paths[(i * 7919) % paths.length]));
      agent.destroy();
      parentPort.postMessage(times);
    })().catch((error) => parentPort.postMessage({ error: error.message }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { port, paths, ...options } });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (reply: number[] | { error: string }) =>
      Array.isArray(reply) ? resolve(reply) : reject(new Error(reply.error)),
    );
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
  return { done, stop: () => worker.postMessage('stop') };
}

/** A gateway serving `reader` as mainnet's index, for the time of `work`. */
async function serve(reader: IndexReader, work: (port: number) => Promise<void>): Promise<void> {
  const port = await freePort();
  const config = loadConfig({
    flags: { ephemeral: true, blockInterval: '3600000', logLevel: 'silent', access: 'off', network: [`mainnet=http://127.0.0.1:${port}`] },
    env: {},
  });
  const chain = await LocalChain.open({ network: 'mainnet', globalId: -239, faucetMnemonic: FAUCET_MNEMONIC });
  const logger = pino({ level: 'silent' });
  const access = await createAccessLayer(accessOptionsFrom(config), { logger });
  const gateway = createGateway({
    config,
    networks: [{ ...config.networks[0], testOnly: false, chain, index: reader }],
    clock: systemClock,
    logger,
    access,
  });
  await gateway.listen();
  try {
    await work(port);
  } finally {
    await gateway.close();
    await access.close();
    await chain.stop();
  }
}

const ENDPOINTS = ['/transactions?account=X&limit=10', '/blocks?limit=10', '/masterchainInfo'] as const;

interface Round {
  latency: Record<string, Latency>;
  health: Latency;
  deep: Latency;
  /** The HTTP thread's event-loop delay while the deep offsets ran: longest, and p99 of 1 ms samples. */
  stallMs: number;
  loopP99Ms: number;
}

/** IndexReader calls one at a time (after as many warm-up calls): ms per call. */
async function direct(reader: IndexReader, accounts: string[]): Promise<Latency> {
  const call = (i: number) => reader.transactions({ accounts: [accounts[i % accounts.length]] }, 'desc', { limit: 10, offset: 0 });
  for (let i = 0; i < REQUESTS; i++) await call(i * 104729 + 7);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    await call(i * 7919);
    times.push(performance.now() - started);
  }
  return summary(times);
}

async function round(reader: IndexReader, accounts: string[], deepOffset: number): Promise<Round> {
  const latency: Record<string, Latency> = {};
  let health!: Latency;
  let deep!: Latency;
  let stallMs = 0;
  let loopP99Ms = 0;
  await serve(reader, async (port) => {
    const paths: Record<(typeof ENDPOINTS)[number], string[]> = {
      '/transactions?account=X&limit=10': accounts.map((a) => `/api/v3/transactions?account=${a}&limit=10`),
      '/blocks?limit=10': ['/api/v3/blocks?limit=10'],
      '/masterchainInfo': ['/api/v3/masterchainInfo'],
    };
    for (const name of ENDPOINTS) latency[name] = summary(await client(port, paths[name], { count: REQUESTS, warm: true }).done);
    // One deep-offset request first, so the pages it reads are as warm in both rounds.
    await client(port, [`/api/v3/transactions?offset=${deepOffset}&limit=10`], { count: 1 }).done;
    const loop = monitorEventLoopDelay({ resolution: 1 });
    const heavy = client(port, [`/api/v3/transactions?offset=${deepOffset}&limit=10`], { forMs: STALL_MS + 2000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    loop.enable();
    health = summary(await client(port, ['/healthcheck'], { forMs: STALL_MS }).done);
    loop.disable();
    heavy.stop();
    deep = summary(await heavy.done);
    stallMs = loop.max / 1e6;
    loopP99Ms = loop.percentile(99) / 1e6;
  });
  return { latency, health, deep, stallMs, loopP99Ms };
}

function print(label: string, r: Round): void {
  for (const name of ENDPOINTS) {
    const l = r.latency[name];
    console.log(`  ${label}  ${name.padEnd(34)} p50 ${fmt(l.p50)} ms  p99 ${fmt(l.p99)} ms  max ${fmt(l.max, 1)} ms`);
  }
  console.log(
    `  ${label}  /healthcheck during deep offsets   p50 ${fmt(r.health.p50)} ms  p99 ${fmt(r.health.p99)} ms  max ${fmt(r.health.max, 1)} ms  (${r.health.count} requests; ${r.deep.count} deep-offset requests, p50 ${fmt(r.deep.p50, 1)} ms; event-loop delay p99 ${fmt(r.loopP99Ms, 1)} ms, longest ${fmt(r.stallMs, 1)} ms)`,
  );
}

async function main(): Promise<void> {
  if (!existsSync(SOURCE))
    throw new Error(
      `no seeded index at ${SOURCE}: node --import tsx scripts/seed-index.ts --transactions 200000 --data-dir /tmp/seed200k --network bench`,
    );
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(join(DIR, 'bench'), { recursive: true });
  copyFileSync(SOURCE, join(DIR, 'bench', 'index.sqlite'));
  const index: Index = await openIndex({ network: 'bench', dataDir: DIR, queryTimeoutMs: 60_000 });
  const pool = index.reads as SqliteReaderPool;
  await pool.ready();
  const counts = await index.reader.counts();
  // The old path: a connection of this thread with the writer's settings, reading where it is called.
  if (index.location.kind !== 'sqlite') throw new Error('a SQLite index was expected');
  const sync = new IndexReader(SqliteDriver.open(index.location.file, index.location.synchronous));
  const accountRows = await pool.all('SELECT account FROM latest_account_states ORDER BY account LIMIT 2000');
  const accounts = accountRows.map((row) => text(row.account));
  const deepOffset = Math.max(0, counts.transactions - 1000);
  console.log(
    `bench:v3-reads: ${counts.transactions} transactions, ${counts.accounts} accounts; ${REQUESTS} requests per endpoint, deep offset ${deepOffset}, ${ROUNDS} rounds; load ${load()}`,
  );
  const ratios: Record<string, number[]> = {};
  const stalls: { sync: number[]; pool: number[] } = { sync: [], pool: [] };
  const loopP99: { sync: number[]; pool: number[] } = { sync: [], pool: [] };
  for (let i = 1; i <= ROUNDS; i++) {
    const directSync = await direct(sync, accounts);
    const directPool = await direct(index.reader, accounts);
    const before = await round(sync, accounts, deepOffset);
    const after = await round(index.reader, accounts, deepOffset);
    console.log(`round ${i} (load ${load()})`);
    console.log(`  sync  reader.transactions(account X, 10), no HTTP  p50 ${fmt(directSync.p50, 3)} ms  p99 ${fmt(directSync.p99, 3)} ms`);
    console.log(
      `  pool  reader.transactions(account X, 10), no HTTP  p50 ${fmt(directPool.p50, 3)} ms  p99 ${fmt(directPool.p99, 3)} ms  (hop: +${fmt((directPool.p50 - directSync.p50) * 1000, 0)} us at p50)`,
    );
    (ratios['reader call, no HTTP, p50'] ??= []).push(directPool.p50 / directSync.p50);
    (ratios['reader call, no HTTP, p99'] ??= []).push(directPool.p99 / directSync.p99);
    print('sync', before);
    print('pool', after);
    for (const name of ENDPOINTS) {
      (ratios[`${name} p50`] ??= []).push(after.latency[name].p50 / before.latency[name].p50);
      (ratios[`${name} p99`] ??= []).push(after.latency[name].p99 / before.latency[name].p99);
    }
    (ratios['/healthcheck p99 during deep offsets'] ??= []).push(after.health.p99 / before.health.p99);
    stalls.sync.push(before.stallMs);
    stalls.pool.push(after.stallMs);
    loopP99.sync.push(before.loopP99Ms);
    loopP99.pool.push(after.loopP99Ms);
  }
  console.log(`\npool / sync, per round (< 1: the pool is faster):`);
  for (const [name, values] of Object.entries(ratios)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`  ${name.padEnd(48)} ${values.map((v) => fmt(v)).join('  ')}   (median ${fmt(sorted[Math.floor(sorted.length / 2)])})`);
  }
  console.log(
    `  longest event-loop stall during deep offsets: sync ${stalls.sync.map((v) => fmt(v, 1)).join(' / ')} ms, pool ${stalls.pool.map((v) => fmt(v, 1)).join(' / ')} ms`,
  );
  console.log(
    `  event-loop delay p99 during deep offsets: sync ${loopP99.sync.map((v) => fmt(v, 1)).join(' / ')} ms, pool ${loopP99.pool.map((v) => fmt(v, 1)).join(' / ')} ms`,
  );
  await index.close();
  rmSync(DIR, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
