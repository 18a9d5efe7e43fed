/**
 * `npm run bench:traces`: where the time of /api/v3/traces?account=X&limit=10 goes, at bench:v3's scale, on
 * SQLite and PostgreSQL. Reuses bench:v3's seeded stores (same BENCH_DIR, BENCH_SCHEMA, BENCH_DATABASE_URL;
 * run bench:v3 once first). Per store:
 *   1. Opening the index (migrations applied: on a store seeded before migration 10, the time of its upgrade).
 *   2. Per request, through the reads the gateway uses (SQLite's reader threads, PostgreSQL's pool) without
 *      HTTP, interleaved so the machine's load weighs on each alike, each stage on an account no earlier stage
 *      read: the traces query, the traces' transactions, the rendering, the whole page now and as it was built
 *      (its metadata a round trip after the domains), and the account -> trace ids lookup alone as it is now
 *      (index only) and as it was (`AND now >= 0` makes it read each transaction's row, as before migration
 *      10); each as ms and as CPU ms of the process per request (PostgreSQL's server CPU is not in it). Run on
 *      a store opened before migration 10 ("as found"), then after it.
 *   3. Over HTTP (a real gateway, bench:v3's client): p50/p99 of /traces?account=X&limit=10, and the whole
 *      process's CPU per request (server and client thread).
 *   4. /traces?limit=1000 (the newest traces): ms, CPU, bytes, transactions carried.
 * The machine is shared: the load average is printed with every figure; compare variants of one run.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, type Index } from '../src/index/open-index.js';
import { IndexReader } from '../src/index/reader.js';
import type { SqlReads } from '../src/index/sql/driver.js';
import { PostgresDriver } from '../src/index/sql/postgres-driver.js';
import { SqliteReaderPool } from '../src/index/worker/reader-pool.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';
import { MIGRATIONS, migrate } from '../src/index/schema.js';
import { ACCOUNT_TRACE_INDEX_MIGRATION } from '../src/index/traces/account-index-migration.js';
import { renderTransactions } from '../src/api/v3/format/transactions.js';
import { tracesText } from '../src/api/v3/format/traces.js';
import { metadataOf } from '../src/api/v3/format/metadata.js';
import { formatRawUpper } from '../src/ton/address.js';
import { syntheticAccount } from '../scripts/seed-index.js';
import { latency, serve } from './support/v3-server.js';

const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-v3');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_v3';
const ACCOUNTS = 10_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
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

/** The account -> trace ids lookup alone, as /traces runs it (the subquery of reader.traces) and as it ran before migration 10. */
const LOOKUP_NOW = 'SELECT trace_id FROM transactions WHERE account = ?';
const LOOKUP_ROW_READ = 'SELECT trace_id FROM transactions WHERE account = ? AND now >= 0';

async function stages(label: string, driver: SqlReads): Promise<void> {
  const reader = new IndexReader(driver);
  const names = ['traces query', 'traces\' transactions', 'render (queries + text)', 'whole page (tracesText)', 'whole page, metadata after (before)', 'lookup (index only)', 'lookup (row read, as before)'];
  const samples = names.map((): Sample => ({ ms: [], cpu: [] }));
  const pick = (i: number, k: number) => accounts[(i * 7919 + k * 3001) % accounts.length];
  for (let round = 0; round < 2; round++) {
    // Round 0 warms the caches; round 1 is measured.
    const into = (i: number): Sample => (round === 1 ? samples[i] : { ms: [], cpu: [] });
    for (let i = 0; i < REQUESTS; i++) {
      // The page's stages in request order, on an account no earlier stage of this round read (pages as cold as a server's).
      const account = pick(i, 0);
      const rows = await timed(into(0), () => reader.traces({ account }, 'desc', { limit: 10, offset: 0 }));
      const records = await timed(into(1), () => reader.traceTransactions(rows.map((r) => Buffer.from(r.traceId, 'base64'))));
      await timed(into(2), () => renderTransactions(reader, records, false));
      // The whole page now and as it was built (the page's queries in sequence, the metadata lookup a round trip
      // after the domains), taking turns at going first on warm pages.
      const now = () => timed(into(3), () => tracesText(reader, rows, false, false));
      const before = () =>
        timed(into(4), async () => {
          const page = await reader.traceTransactions(rows.map((r) => Buffer.from(r.traceId, 'base64')));
          const rendered = await renderTransactions(reader, page, false);
          return metadataOf(reader, Object.keys(rendered.addressBook));
        });
      if (i % 2 === 0) await now().then(before);
      else await before().then(now);
      // The account -> trace ids lookup alone, each variant on an account of its own (neither warms the other's pages).
      await timed(into(5), () => driver.all(LOOKUP_NOW, [pick(i, 1)]));
      await timed(into(6), () => driver.all(LOOKUP_ROW_READ, [pick(i, 2)]));
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
    console.log(`  HTTP /traces?account=X&limit=10     p50 ${l.p50.toFixed(2)} p99 ${l.p99.toFixed(2)} max ${l.max.toFixed(1)} ms; process CPU ${((used.user + used.system) / 1000 / (2 * REQUESTS)).toFixed(2)} ms/request (load ${load()})`);
  });
  for (let i = 0; i < 3; i++) {
    const page: Sample = { ms: [], cpu: [] };
    const rows = await index.reader.traces({}, 'desc', { limit: 1000, offset: 0 });
    const text = await timed(page, () => tracesText(index.reader, rows, false, false));
    const carried = (text.text.match(/"transactions_order"/g) ?? []).length;
    console.log(`  /traces?limit=1000 render          ${page.ms[0].toFixed(0)} ms, CPU ${page.cpu[0].toFixed(0)} ms, ${(text.text.length / 2 ** 20).toFixed(1)} MiB, ${carried} of ${rows.length} traces with transactions (${rows.reduce((n, r) => n + r.transactions, 0)} transactions listed)`);
  }
}

async function main(): Promise<void> {
  console.log(`bench:traces — ${DIR}, schema ${SCHEMA}, load ${load()}`);
  const file = join(DIR, 'bench', 'index.sqlite');
  for (const store of ['sqlite', 'postgres'] as const) {
    // Every migration but 10 first (the tables later ones add are read by a page too), then the page read as
    // the gateway reads (SQLite: reader threads) before migration 10, if the store has not had it yet.
    const writer = store === 'sqlite' ? SqliteDriver.open(file) : await PostgresDriver.open(DATABASE_URL, SCHEMA);
    await migrate(writer, MIGRATIONS.filter((m) => m !== ACCOUNT_TRACE_INDEX_MIGRATION));
    await writer.close();
    const raw = store === 'sqlite' ? new SqliteReaderPool(file) : await PostgresDriver.open(DATABASE_URL, SCHEMA);
    await stages(`${store}, as found`, raw);
    await raw.close();
    const started = performance.now();
    const index = await openIndex(store === 'sqlite' ? { network: 'bench', dataDir: DIR } : { network: 'bench', databaseUrl: DATABASE_URL, schema: SCHEMA });
    console.log(`${store}: opened in ${((performance.now() - started) / 1000).toFixed(1)} s (migrations included), ${(await index.reader.counts()).transactions} transactions`);
    await stages(`${store}, migrated`, index.reads);
    await overHttp(index);
    await index.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
