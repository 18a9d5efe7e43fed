/**
 * `npm run bench:token-reads`: p50/p99 of the token endpoints over HTTP (a real gateway, one request at a time
 * on a keep-alive connection, after as many warm-up requests), on SQLite and on PostgreSQL, with token tables
 * of BENCH_WALLETS (default 100,000) jetton wallets of 1,000 masters (two per owner), twice as many transfers,
 * and as many NFT items of 100 collections (four per owner). Rows are synthetic, written with the index's own
 * row builders (src/index/tokens/token-rows.ts) into stores kept between runs (BENCH_DIR, default
 * <tmp>/tongate-bench-tokens; PostgreSQL schema tongate_bench_tokens). Target (issue 13): p99 <= 10 ms.
 */
import { mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { openIndex, type Index } from '../src/index/open-index.js';
import type { InsertBatch, SqlDriver, SqlValue } from '../src/index/sql/driver.js';
import { PostgresDriver } from '../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../src/index/sql/sqlite-driver.js';
import { int } from '../src/index/sql/values.js';
import { eventBatch, itemBatch, masterBatch, walletBatch, collectionBatch, nftTransferBatch } from '../src/index/tokens/token-rows.js';
import { latency, serve, type Latency } from './support/v3-server.js';

const WALLETS = Number(process.env.BENCH_WALLETS ?? 100_000);
const MASTERS = 1000;
const COLLECTIONS = 100;
const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-tokens');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_tokens';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CHUNK = 2000;

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const account = (kind: string, i: number) => `0:${createHash('sha256').update(`${kind}${i}`).digest('hex').toUpperCase()}`;
const hash = (kind: string, i: number) => createHash('sha256').update(`${kind}${i}`).digest();
const owner = (i: number) => account('owner', i);

async function seed(driver: SqlDriver): Promise<void> {
  const write = async (rows: number, batch: (from: number, to: number) => InsertBatch) => {
    for (let from = 0; from < rows; from += CHUNK) await driver.write([batch(from, Math.min(rows, from + CHUNK))]);
  };
  const range = <T>(from: number, to: number, f: (i: number) => T) => Array.from({ length: to - from }, (_, k) => f(from + k));
  const none = Buffer.alloc(32);
  await write(MASTERS, (a, b) =>
    masterBatch(range(a, b, (i) => ({ address: account('master', i), totalSupply: 10n ** 15n, mintable: true, admin: owner(i), content: { name: `J${i}`, symbol: `J${i}` }, walletCodeHash: none, lastTxLt: BigInt(i + 1), codeHash: none, dataHash: none }))),
  );
  await write(WALLETS, (a, b) =>
    walletBatch(range(a, b, (i) => ({ address: account('wallet', i), balance: BigInt(i * 7919 % 1_000_000), owner: owner(i >> 1), jetton: account('master', i % MASTERS), lastTxLt: BigInt(i + 1), codeHash: none, dataHash: none, mintlessIsClaimed: null }))),
  );
  await write(WALLETS * 2, (a, b) =>
    eventBatch('jetton_transfers', range(a, b, (i): SqlValue[] => {
      const from = i % WALLETS;
      return [hash('tx', i), BigInt(i + 1) * 10n, 1_700_000_000 + i, 0, i >> 6, String(i), '100', account('wallet', from), account('master', from % MASTERS), owner(from >> 1), null, hash('trace', i), owner(from >> 1), owner((i * 31) % (WALLETS >> 1)), '1', null];
    })),
  );
  await write(COLLECTIONS, (a, b) =>
    collectionBatch(range(a, b, (i) => ({ address: account('collection', i), nextItemIndex: BigInt(WALLETS / COLLECTIONS), owner: owner(i), content: { name: `C${i}` }, lastTxLt: BigInt(i + 1), codeHash: none, dataHash: none }))),
  );
  await write(WALLETS, (a, b) =>
    itemBatch(range(a, b, (i) => ({ address: account('item', i), init: true, index: BigInt(Math.floor(i / COLLECTIONS)), collection: account('collection', i % COLLECTIONS), owner: owner(i >> 2), content: { uri: `https://x/${i}.json` }, lastTxLt: BigInt(i + 1), codeHash: none, dataHash: none }))),
  );
  await write(WALLETS, (a, b) =>
    nftTransferBatch(range(a, b, (i): SqlValue[] => [hash('ntx', i), BigInt(i + 1) * 10n, 1_700_000_000 + i, 0, i >> 6, String(i), account('item', i), String(Math.floor(i / COLLECTIONS)), account('collection', i % COLLECTIONS), owner(i >> 2), owner((i * 31) % (WALLETS >> 2)), null, null, '1', null, hash('trace', i)])),
  );
}

async function stores(): Promise<{ index: Index; driver: SqlDriver }[]> {
  mkdirSync(DIR, { recursive: true });
  const sqlite = await openIndex({ network: 'bench-tokens', dataDir: DIR });
  const opened = [{ index: sqlite, driver: await SqliteDriver.open(join(DIR, 'bench-tokens', 'index.sqlite')) as SqlDriver }];
  try {
    const postgres = await openIndex({ network: 'bench-tokens', databaseUrl: DATABASE_URL, schema: SCHEMA });
    opened.push({ index: postgres, driver: await PostgresDriver.open(DATABASE_URL, SCHEMA) });
  } catch (error) {
    console.log(`PostgreSQL skipped: ${(error as Error).message}`);
  }
  return opened;
}

async function main(): Promise<void> {
  console.log(`bench:token-reads — ${WALLETS} jetton wallets, ${WALLETS * 2} transfers, ${WALLETS} NFT items; load ${load()}`);
  for (const { index, driver } of await stores()) {
    const [row] = await driver.all('SELECT COUNT(*) AS n FROM jetton_wallets');
    if (int(row.n) < WALLETS) {
      const started = performance.now();
      await seed(driver);
      console.log(`${index.store}: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await driver.close();
    const owners = Array.from({ length: 5000 }, (_, i) => owner((i * 7) % (WALLETS >> 2)));
    const results: Record<string, Latency> = {};
    await serve(index, async (port) => {
      results['/jetton/wallets?owner_address=X'] = await latency(port, owners.map((o) => `/api/v3/jetton/wallets?owner_address=${o}`), REQUESTS);
      results['/jetton/transfers?owner_address=X&limit=10'] = await latency(port, owners.map((o) => `/api/v3/jetton/transfers?owner_address=${o}&limit=10`), REQUESTS);
      results['/nft/items?owner_address=X&limit=10'] = await latency(port, owners.map((o) => `/api/v3/nft/items?owner_address=${o}&limit=10`), REQUESTS);
      results['/jetton/wallets?jetton_address=M&limit=10'] = await latency(port, Array.from({ length: 100 }, (_, i) => `/api/v3/jetton/wallets?jetton_address=${account('master', i)}&limit=10`), REQUESTS);
    });
    console.log(`\n${index.store} (load ${load()}):`);
    for (const [name, l] of Object.entries(results)) console.log(`  ${name.padEnd(44)} p50 ${l.p50.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms  max ${l.max.toFixed(1)} ms (target p99 <= 10)`);
    await index.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
