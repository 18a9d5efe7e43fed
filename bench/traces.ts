/**
 * `npm run bench:traces`: where the time of /api/v3/traces?account=X&limit=10 goes, at bench:v3's scale, on
 * SQLite and PostgreSQL. Reuses bench:v3's seeded stores (same BENCH_DIR, BENCH_SCHEMA, BENCH_DATABASE_URL;
 * run bench:v3 once first). Per store:
 *   1. Opening the index (migrations applied).
 *   2. Per request, through the reads the gateway uses (SQLite's reader threads, PostgreSQL's pool) without
 *      HTTP, each variant on an account no other variant of that request read, the two variants of a pair
 *      taking turns at going first: the page's query (the traces and their transactions in one statement, as
 *      now, vs the two statements of before), the rendering (tracesText: messages, states, address book,
 *      metadata, text), the whole page in both ways, and the account -> trace ids lookup alone; each as ms
 *      and as CPU ms of the process per request (PostgreSQL's server CPU is not in it).
 *   3. Over HTTP (a real gateway, bench:v3's client): p50/p99 of /traces?account=X&limit=10, and the whole
 *      process's CPU per request (server and client thread).
 *   4. /traces?limit=1000 (the newest traces): ms, CPU, bytes, transactions carried.
 * The machine is shared: the load average is printed with every figure; compare variants of one run.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, type Index } from '../src/index/open-index.js';
import { IndexReader } from '../src/index/reader.js';
import type { TracePage } from '../src/index/traces/reader.js';
import type { SqlReads } from '../src/index/sql/driver.js';
import { TRACE_PAGE_LIMITS, tracesText } from '../src/api/v3/format/traces.js';
import { formatRawUpper } from '../src/ton/address.js';
import { syntheticAccount } from '../scripts/seed-index.js';
import { latency, serve } from './support/v3-server.js';

const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-v3');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_v3';
const ACCOUNTS = 10_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const accounts = Array.from({ length: ACCOUNTS }, (_, i) => formatRawUpper(syntheticAccount(i)));

interface Sample {
  ms: number[];
  cpu: number[];
}

/** Runs `work` once, adding its wall and CPU ms (the whole process: this thread and the reader threads) to `into`. */
async function timed<T>(into: Sample, work: () => Promise<T>): Promise<T> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  into.ms.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  into.cpu.push((used.user + used.system) / 1000);
  return result;
}

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)];
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const line = (name: string, s: Sample) =>
  `  ${name.padEnd(36)} p50 ${pct(s.ms, 0.5).toFixed(2)} p99 ${pct(s.ms, 0.99).toFixed(2)} ms; CPU mean ${mean(s.cpu).toFixed(3)} ms`;

/** The account -> trace ids lookup alone, as /traces runs it (the subquery of the page's statement). */
const LOOKUP = 'SELECT trace_id FROM transactions WHERE account = ?';
const LIMITS = TRACE_PAGE_LIMITS;
const PAGE = { limit: 10, offset: 0 };

/** The page as it was read before stage 8: the traces, then their transactions, in two statements. */
async function twoStatementPage(reader: IndexReader, account: string): Promise<TracePage> {
  const traces = await reader.traces({ account }, 'desc', PAGE);
  const transactions = await reader.traceTransactions(traces.map((r) => Buffer.from(r.traceId, 'base64')));
  return { traces: traces.map((trace) => ({ ...trace, withheld: null })), transactions };
}

/** A /traces page as the endpoint writes it: the transactions' messages, states, address book and metadata, then the text. */
async function render(reader: IndexReader, page: TracePage) {
  return tracesText(page, await reader.transactionPage(page.transactions, true), false, false);
}

async function stages(label: string, driver: SqlReads): Promise<void> {
  const reader = new IndexReader(driver);
  const names = [
    'page query (one statement)',
    'page query (two, before)',
    'render (queries + text)',
    'whole page (one statement)',
    'whole page (two, before)',
    'lookup (index only)',
  ];
  const samples = names.map((): Sample => ({ ms: [], cpu: [] }));
  const pick = (i: number, k: number) => accounts[(i * 7919 + k * 3001) % accounts.length];
  for (let round = 0; round < 2; round++) {
    // Round 0 warms the caches; round 1 is measured.
    const into = (i: number): Sample => (round === 1 ? samples[i] : { ms: [], cpu: [] });
    for (let i = 0; i < REQUESTS; i++) {
      // Each variant on an account of its own (pages as cold as a server's), taking turns at going first.
      const one = () => timed(into(0), () => reader.tracePage({ account: pick(i, 0) }, 'desc', PAGE, LIMITS));
      const two = () => timed(into(1), () => twoStatementPage(reader, pick(i, 1)));
      const page = i % 2 === 0 ? await one().then(async (p) => (await two(), p)) : await two().then(one);
      await timed(into(2), () => render(reader, page));
      const wholeNow = () =>
        timed(into(3), async () => render(reader, await reader.tracePage({ account: pick(i, 2) }, 'desc', PAGE, LIMITS)));
      const wholeBefore = () => timed(into(4), async () => render(reader, await twoStatementPage(reader, pick(i, 3))));
      if (i % 2 === 0) await wholeNow().then(wholeBefore);
      else await wholeBefore().then(wholeNow);
      await timed(into(5), () => driver.all(LOOKUP, [pick(i, 4)]));
    }
  }
  console.log(`${label} (${REQUESTS} accounts, load ${load()})`);
  names.forEach((name, i) => console.log(line(name, samples[i])));
}

async function overHttp(index: Index): Promise<void> {
  await serve(index, async (port) => {
    const paths = accounts.map((a) => `/api/v3/traces?account=${a}&limit=10`);
    const cpu = process.cpuUsage();
    const l = await latency(port, paths, REQUESTS);
    const used = process.cpuUsage(cpu);
    // latency() sends as many warm-up requests as measured ones: CPU over both.
    console.log(
      `  HTTP /traces?account=X&limit=10     p50 ${l.p50.toFixed(2)} p99 ${l.p99.toFixed(2)} max ${l.max.toFixed(1)} ms; process CPU ${((used.user + used.system) / 1000 / (2 * REQUESTS)).toFixed(2)} ms/request (load ${load()})`,
    );
  });
  for (let i = 0; i < 3; i++) {
    const page: Sample = { ms: [], cpu: [] };
    const rows = await index.reader.tracePage({}, 'desc', { limit: 1000, offset: 0 }, LIMITS);
    const text = await timed(page, () => render(index.reader, rows));
    const carried = (text.text.match(/"transactions_order"/g) ?? []).length;
    console.log(
      `  /traces?limit=1000 render          ${page.ms[0].toFixed(0)} ms, CPU ${page.cpu[0].toFixed(0)} ms, ${(text.text.length / 2 ** 20).toFixed(1)} MiB, ${carried} of ${rows.traces.length} traces with transactions (${rows.traces.reduce((n, r) => n + r.transactions, 0)} transactions listed)`,
    );
  }
}

async function main(): Promise<void> {
  console.log(`bench:traces — ${DIR}, schema ${SCHEMA}, load ${load()}`);
  for (const store of ['sqlite', 'postgres'] as const) {
    const started = performance.now();
    const index = await openIndex(
      store === 'sqlite' ? { network: 'bench', dataDir: DIR } : { network: 'bench', databaseUrl: DATABASE_URL, schema: SCHEMA },
    );
    console.log(
      `${store}: opened in ${((performance.now() - started) / 1000).toFixed(1)} s (migrations included), ${(await index.reader.counts()).transactions} transactions`,
    );
    await stages(store, index.reads);
    await overHttp(index);
    await index.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
