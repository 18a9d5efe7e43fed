/**
 * `npm run bench:dns-reads`: p50/p99 over HTTP (a real gateway, one request at a time after as many warm-ups) of
 * `/dns/records?wallet=`, `/dns/records?domain=` and `/addressBook` of 20 addresses (whose `domain` is the
 * dns_entries lookup every v3 address book now makes), on SQLite and PostgreSQL, with BENCH_DOMAINS (default
 * 100,000) synthetic domains written with the index's own row builder (src/index/dns/rows.ts): two per owner, one of
 * them pointing back at it. Stores are kept between runs (BENCH_DIR, default <tmp>/tongate-bench-dns; PostgreSQL
 * schema tongate_bench_dns). Target (issue 13, as the other token reads): p99 <= 10 ms.
 */
import { mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { openIndex, type Index } from '../src/index/open-index.js';
import type { SqlDriver } from '../src/index/sql/driver.js';
import { PostgresDriver } from '../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';
import { int } from '../src/index/sql/values.js';
import { dnsEntryBatch } from '../src/index/dns/rows.js';
import { NO_RECORDS } from '../src/index/dns/records.js';
import { latency, serve, type Latency } from './support/v3-server.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 100_000);
const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-dns');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_dns';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CHUNK = 2000;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const account = (kind: string, i: number) => `0:${createHash('sha256').update(`${kind}${i}`).digest('hex').toUpperCase()}`;
const owner = (i: number) => account('owner', i);
const domain = (i: number) => `d${(i * 7919).toString(36)}.ton`;

async function seed(driver: SqlDriver): Promise<void> {
  for (let from = 0; from < DOMAINS; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, DOMAINS - from) }, (_, k) => {
      const i = from + k;
      const records = { ...NO_RECORDS, wallet: i % 2 === 0 ? owner(i >> 1) : owner((i * 31) % (DOMAINS >> 1)) };
      return { item: account('item', i), owner: owner(i >> 1), domain: domain(i), records, lastTxLt: BigInt(i + 1) };
    });
    await driver.write([dnsEntryBatch(rows)]);
  }
}

async function stores(): Promise<{ index: Index; driver: SqlDriver }[]> {
  mkdirSync(DIR, { recursive: true });
  const sqlite = await openIndex({ network: 'bench-dns', dataDir: DIR });
  const opened = [{ index: sqlite, driver: (await SqliteDriver.open(join(DIR, 'bench-dns', 'index.sqlite'))) as SqlDriver }];
  try {
    const postgres = await openIndex({ network: 'bench-dns', databaseUrl: DATABASE_URL, schema: SCHEMA });
    opened.push({ index: postgres, driver: await PostgresDriver.open(DATABASE_URL, SCHEMA) });
  } catch (error) {
    console.log(`PostgreSQL skipped: ${(error as Error).message}`);
  }
  return opened;
}

async function main(): Promise<void> {
  console.log(`bench:dns-reads — ${DOMAINS} domains; load ${load()}`);
  for (const { index, driver } of await stores()) {
    const [row] = await driver.all('SELECT COUNT(*) AS n FROM dns_entries');
    if (int(row.n) < DOMAINS) await seed(driver);
    await driver.close();
    const picks = Array.from({ length: 5000 }, (_, i) => (i * 7) % (DOMAINS >> 1));
    const results: Record<string, Latency> = {};
    await serve(index, async (port) => {
      results['/dns/records?wallet=X'] = await latency(
        port,
        picks.map((i) => `/api/v3/dns/records?wallet=${owner(i)}`),
        REQUESTS,
      );
      results['/dns/records?domain=D'] = await latency(
        port,
        picks.map((i) => `/api/v3/dns/records?domain=${domain(i)}`),
        REQUESTS,
      );
      const books = picks.map(
        (p) => `/api/v3/addressBook?${Array.from({ length: 20 }, (_, k) => `address=${owner((p + k * 101) % (DOMAINS >> 1))}`).join('&')}`,
      );
      results['/addressBook (20 addresses)'] = await latency(port, books, REQUESTS);
    });
    console.log(`\n${index.store} (load ${load()}):`);
    for (const [name, l] of Object.entries(results))
      console.log(
        `  ${name.padEnd(32)} p50 ${l.p50.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms  max ${l.max.toFixed(1)} ms (target p99 <= 10)`,
      );
    await index.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
