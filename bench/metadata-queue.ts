/**
 * `npm run bench:metadata-queue`: what migration 9 (src/index/tokens/metadata-queue-schema.ts) costs and saves,
 * on SQLite and PostgreSQL, in one run.
 *  - Cost: writing NFT items whose content names a uri (BENCH_ITEMS, default 100,000, in batches of 500 like a
 *    busy block) with their uris enqueued (metadataQueueBatch, as detector.ts writes them) vs the items alone;
 *    then the same items written again with a newer lt (transfers: the enqueue finds the uri and does nothing).
 *    3 alternating runs each, fresh rows per run, two indexes; the ratio with / without.
 *  - Saving: a round's listing of due uris when all but 10 are fetched, before migration 9 (every content parsed,
 *    anti-join with token_metadata) and after (the due index): median of 5.
 * Fresh stores each run (a temporary directory; PostgreSQL schemas tongate_bench_metaq_*, dropped at the end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openIndex, type Index } from '../src/index/open-index.js';
import { itemBatch, type NftItemRow } from '../src/index/tokens/token-rows.js';
import { metadataQueueBatch } from '../src/index/tokens/metadata-store.js';
import type { SqlDriver, SqlValue } from '../src/index/sql/driver.js';
import { PostgresDriver } from '../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 500;
const RUNS = 3;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const address = (i: number) => `0:${i.toString(16).toUpperCase().padStart(64, '0')}`;

function items(from: number, count: number, lt: bigint): NftItemRow[] {
  return Array.from({ length: count }, (_, k) => ({
    address: address(from + k),
    init: true,
    index: BigInt(from + k),
    collection: address(0),
    owner: address(1),
    content: { uri: `https://x.example/${from + k}.json` },
    lastTxLt: lt,
    codeHash: Buffer.alloc(32, 1),
    dataHash: Buffer.alloc(32, 2),
  }));
}

async function writeAll(index: Index, from: number, lt: bigint, enqueue: boolean): Promise<number> {
  const started = performance.now();
  for (let at = from; at < from + ITEMS; at += BATCH) {
    const rows = items(at, BATCH, lt);
    await index.writer.writeRows(enqueue ? [itemBatch(rows), metadataQueueBatch(rows.map((r) => r.content))!] : [itemBatch(rows)]);
  }
  return performance.now() - started;
}

async function bench(store: 'sqlite' | 'postgres'): Promise<void> {
  const dirs: string[] = [];
  const schemas: string[] = [];
  const drivers: SqlDriver[] = [];
  // An index, and a driver of the bench's own on it for DDL and bulk updates.
  const open = async (): Promise<[Index, SqlDriver]> => {
    let index: Index;
    let driver: SqlDriver;
    if (store === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'tongate-bench-metaq-'));
      dirs.push(dir);
      index = await openIndex({ network: 'testnet', dataDir: dir });
      driver = SqliteDriver.open(join(dir, 'testnet', 'index.sqlite'));
    } else {
      const schema = `tongate_bench_metaq_${process.pid}_${schemas.length}`;
      schemas.push(schema);
      index = await openIndex({ network: 'testnet', databaseUrl: DATABASE_URL, schema });
      driver = await PostgresDriver.open(DATABASE_URL, schema);
    }
    drivers.push(driver);
    return [index, driver];
  };
  const [withQueue, driver] = await open();
  const [without] = await open();
  try {
    const inserts: Record<string, number[]> = { with: [], without: [] };
    const updates: Record<string, number[]> = { with: [], without: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const [name, index] of [
        ['with', withQueue],
        ['without', without],
      ] as const)
        inserts[name].push(await writeAll(index, run * ITEMS, 1n, name === 'with'));
    }
    for (let run = 0; run < RUNS; run++) {
      for (const [name, index] of [
        ['with', withQueue],
        ['without', without],
      ] as const)
        updates[name].push(await writeAll(index, run * ITEMS, BigInt(run + 2), name === 'with'));
    }
    const ratio = (xs: number[], ys: number[]) => xs.map((x, i) => (x / ys[i]).toFixed(2)).join(', ');
    console.log(
      `${store}: writing ${ITEMS} items with a uri, ms with the enqueue [${inserts.with.map(Math.round)}] without [${inserts.without.map(Math.round)}], ratio per run ${ratio(inserts.with, inserts.without)}`,
    );
    console.log(
      `${store}: the same items again (newer lt, same content), ms with [${updates.with.map(Math.round)}] without [${updates.without.map(Math.round)}], ratio per run ${ratio(updates.with, updates.without)}`,
    );

    // The listing: all fetched but 10.
    const pending = Array.from({ length: 10 }, (_, i) => `https://x.example/${Math.floor((i * ITEMS) / 10)}.json`);
    await driver.write(
      [],
      [],
      [
        `UPDATE token_metadata_queue SET next_attempt_at = NULL WHERE uri NOT IN (${pending.map((uri) => `'${uri}'`).join(', ')})`,
        `INSERT INTO token_metadata (uri, ok, json, fetched_at) SELECT uri, 1, '{}', 0 FROM token_metadata_queue WHERE next_attempt_at IS NULL`,
        ...(store === 'postgres' ? ['ANALYZE token_metadata_queue', 'ANALYZE nft_items', 'ANALYZE token_metadata'] : []),
      ],
    );
    const uriOf = store === 'postgres' ? `TRIM((content)::jsonb ->> 'uri')` : `TRIM(json_extract(content, '$.uri'))`;
    const listings: Array<[string, string, SqlValue[]]> = [
      [
        'before',
        `SELECT DISTINCT u.uri FROM (SELECT ${uriOf} AS uri FROM nft_items WHERE content LIKE '%"uri"%') u
        WHERE u.uri IS NOT NULL AND NOT EXISTS (SELECT 1 FROM token_metadata m WHERE m.uri = u.uri) LIMIT ?`,
        [32],
      ],
      [
        'after',
        'SELECT uri, failures FROM token_metadata_queue WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?',
        [Date.now(), 32],
      ],
    ];
    const contents = RUNS * ITEMS;
    for (const [name, sql, params] of listings) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        rows = (await withQueue.reads.all(sql, params)).length;
        times.push(performance.now() - started);
      }
      console.log(
        `${store}: a round's listing at ${contents} contents, ${name} migration 9: ${rows} uris, median ${median(times).toFixed(2)} ms (runs ${times.map((t) => t.toFixed(2)).join(', ')})`,
      );
    }
  } finally {
    for (const d of drivers) await d.close();
    await withQueue.close();
    await without.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (schemas.length) {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
}

console.log(`bench:metadata-queue, ${ITEMS} items per run, load average ${load()}`);
for (const store of ['sqlite', 'postgres'] as const) await bench(store);
console.log(`load average ${load()}`);
