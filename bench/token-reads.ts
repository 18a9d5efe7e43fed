/**
 * `npm run bench:token-reads`: p50/p99 of the token endpoints over HTTP (a real gateway, one request at a time
 * on a keep-alive connection, after as many warm-up requests), on SQLite and on PostgreSQL, with token tables
 * only (no transactions): BENCH_WALLETS (default 100,000) jetton wallets of 1,000 masters, twice as many
 * transfers, as many NFT items of 100 collections and NFT transfers, held by the 10,000 accounts of
 * scripts/seed-index.ts with Zipf-skewed holdings (bench/support/token-seed.ts, shared with bench:v3, which
 * measures the same reads beside 1M transactions). Owners are asked uniformly, so the p99 falls on the dense
 * ones. Stores kept between runs (BENCH_DIR, default <tmp>/tongate-bench-tokens; PostgreSQL schema
 * tongate_bench_tokens); rows of another plan are replaced. Target (issue 13): p99 <= 10 ms. Then the
 * owner-transfers query alone, the former OR form against the merged scans (BENCH_FORM_ROUNDS, default 300).
 */
import { mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex, type Index } from '../src/index/open-index.js';
import { formatRawUpper } from '../src/ton/address.js';
import { syntheticAccount } from '../scripts/seed-index.js';
import { describeTokenPlan, ensureTokenRows, tokenMasterAddress, type TokenSeedOptions } from './support/token-seed.js';
import { ownerTransferForms } from './support/owner-transfer-queries.js';
import { storeDriver } from './support/store-driver.js';
import { latency, serve, type Latency } from './support/v3-server.js';

const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-tokens');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_tokens';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const FORM_ROUNDS = Number(process.env.BENCH_FORM_ROUNDS ?? 300);
const OPTIONS: TokenSeedOptions = {
  owners: Array.from({ length: 10_000 }, (_, i) => formatRawUpper(syntheticAccount(i))),
  wallets: Number(process.env.BENCH_WALLETS ?? 100_000),
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function stores(): Promise<Index[]> {
  mkdirSync(DIR, { recursive: true });
  const opened = [await openIndex({ network: 'bench-tokens', dataDir: DIR })];
  try {
    opened.push(await openIndex({ network: 'bench-tokens', databaseUrl: DATABASE_URL, schema: SCHEMA }));
  } catch (error) {
    console.log(`PostgreSQL skipped: ${(error as Error).message}`);
  }
  return opened;
}

async function main(): Promise<void> {
  console.log(`bench:token-reads — ${describeTokenPlan(OPTIONS)}; load ${load()}`);
  for (const index of await stores()) {
    const driver = await storeDriver(index);
    const started = performance.now();
    if (await ensureTokenRows(driver, OPTIONS))
      console.log(`${index.store}: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await driver.close();
    const owners = OPTIONS.owners;
    const results: Record<string, Latency> = {};
    await serve(index, async (port) => {
      results['/jetton/wallets?owner_address=X'] = await latency(
        port,
        owners.map((o) => `/api/v3/jetton/wallets?owner_address=${o}`),
        REQUESTS,
      );
      results['/jetton/transfers?owner_address=X&limit=10'] = await latency(
        port,
        owners.map((o) => `/api/v3/jetton/transfers?owner_address=${o}&limit=10`),
        REQUESTS,
      );
      results['/nft/items?owner_address=X&limit=10'] = await latency(
        port,
        owners.map((o) => `/api/v3/nft/items?owner_address=${o}&limit=10`),
        REQUESTS,
      );
      results['/jetton/wallets?jetton_address=M&limit=10'] = await latency(
        port,
        Array.from({ length: 100 }, (_, i) => `/api/v3/jetton/wallets?jetton_address=${tokenMasterAddress(i)}&limit=10`),
        REQUESTS,
      );
    });
    console.log(`\n${index.store} (load ${load()}):`);
    for (const [name, l] of Object.entries(results))
      console.log(
        `  ${name.padEnd(44)} p50 ${l.p50.toFixed(2)} ms  p99 ${l.p99.toFixed(2)} ms  max ${l.max.toFixed(1)} ms (target p99 <= 10)`,
      );
    console.log(`  the query of /jetton/transfers?owner_address=X&limit=10 alone, OR form vs two merged index scans (load ${load()}):`);
    for (const f of await ownerTransferForms(index, owners, [0, 100, 5000], FORM_ROUNDS)) {
      const ms = (x: { p50: number; p99: number }) => `p50 ${x.p50.toFixed(2)} / p99 ${x.p99.toFixed(2)} ms`;
      console.log(
        `    owner rank ${String(f.rank).padEnd(5)} (${f.rows} transfers): OR ${ms(f.or)}, merged ${ms(f.merged)}, ratio of p50s ${(f.or.p50 / f.merged.p50).toFixed(1)}`,
      );
    }
    await index.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
