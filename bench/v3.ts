/**
 * `npm run bench:v3`: the v3 index at scale, on SQLite and on PostgreSQL.
 *
 *   1. Seeds both stores, once (later runs reuse them: BENCH_DIR, default <tmp>/tongate-bench-v3; PostgreSQL
 *      schema BENCH_SCHEMA, default tongate_bench_v3): BENCH_TRANSACTIONS (default 1,000,000) synthetic
 *      transactions between 10,000 accounts through the index's own writer threads (scripts/seed-index.ts),
 *      then token rows through the index's row builders (bench/support/token-seed.ts, shared with
 *      bench:token-reads): BENCH_WALLETS (default 100,000) jetton wallets of 1,000 masters, twice as many
 *      jetton transfers, as many NFT items of 100 collections and NFT transfers, held by those 10,000 accounts
 *      with Zipf-skewed holdings (the densest account holds a wallet of every master, the median two).
 *      A store seeded before the token rows existed gets them added (counted, not re-seeded from scratch).
 *   2. Ingestion: BENCH_INGEST (default 50,000) more transactions, generated first, then timed through
 *      the index's render and store threads, blocks in flight as the chain's attachment sends them.
 *   3. Index size per million transactions.
 *   4. Latency over HTTP (a real gateway, one request at a time on a keep-alive connection, after as
 *      many warm-up requests; BENCH_REQUESTS, default 2,000): p50/p99 of /transactions?account=X&limit=10
 *      (X among the 10,000 accounts), /blocks?limit=10, /messages?msg_hash=H (H among 1,000 messages),
 *      /masterchainInfo, /traces?account=X&limit=10, and the token reads of issue 13:
 *      /jetton/wallets?owner_address=X, /jetton/transfers?owner_address=X&limit=10,
 *      /nft/items?owner_address=X&limit=10 (X among the same accounts, asked uniformly: with the skewed
 *      holdings the p99 falls on the dense owners), and the same three for the densest owner alone.
 *   5. What indexing costs block production: the local chain producing wallet transfers, with the
 *      index attached (its render and store threads) and without; the main thread's share spent on the index.
 * BENCH_INGEST=0 and BENCH_PRODUCTION_RUNS=0 skip sections 2 and 5 (a run for the latencies only).
 * Targets (issues 5 and 13): p99 <= 10 ms, ingestion >= 5,000 tx/s, index cost <= 10 % of block production.
 * The machine is shared: the load average is printed with the figures.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { LocalChain } from '../src/chain/local/index.js';
import { attachIndexToChain } from '../src/index/attach.js';
import { feedFromIndexed, feedFromSealed } from '../src/index/feed.js';
import { openIndex, type Index } from '../src/index/open-index.js';
import { packBlock } from '../src/index/worker/transfer.js';
import { formatRawUpper } from '../src/ton/address.js';
import { ManualClock } from '../src/util/clock.js';
import { WorkerWriter } from '../src/index/worker/worker-writer.js';
import { seedIndexes, syntheticAccount, syntheticBlocks, writeWindowed } from '../scripts/seed-index.js';
import { storeDriver } from './support/store-driver.js';
import { describeTokenPlan, ensureTokenRows, type TokenSeedOptions } from './support/token-seed.js';
import { FAUCET_MNEMONIC, latency, serve, type Latency } from './support/v3-server.js';

const TARGET = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'tongate-bench-v3');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_SCHEMA ?? 'tongate_bench_v3';
const ACCOUNTS = 10_000;
/** 0 skips the ingestion figures (a run for the latencies only). */
const INGEST_TRANSACTIONS = Number(process.env.BENCH_INGEST ?? 50_000);
/** Alternating runs without and with the index: on a shared machine one run proves little. */
const PRODUCTION_RUNS = Number(process.env.BENCH_PRODUCTION_RUNS ?? 5); // 0 skips section 5
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
/** The seeded accounts, in the order token holdings are ranked (account 0 holds the most). */
const ACCOUNT_ADDRESSES = Array.from({ length: ACCOUNTS }, (_, i) => formatRawUpper(syntheticAccount(i)));
const TOKENS: TokenSeedOptions = {
  owners: ACCOUNT_ADDRESSES,
  wallets: Number(process.env.BENCH_WALLETS ?? 100_000),
  // Token events spread over the seeded blocks (500 transactions each).
  blocks: Math.ceil(TARGET / 500),
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function openStores(): Promise<Index[]> {
  mkdirSync(DIR, { recursive: true });
  const sqlite = await openIndex({ network: 'bench', dataDir: DIR });
  try {
    const postgres = await openIndex({ network: 'bench', databaseUrl: DATABASE_URL, schema: SCHEMA });
    return [sqlite, postgres];
  } catch (error) {
    console.log(`PostgreSQL unavailable (${(error as Error).message}): SQLite only`);
    return [sqlite];
  }
}

async function seed(indexes: Index[]): Promise<void> {
  const counts = await Promise.all(indexes.map((i) => i.reader.counts()));
  const missing = indexes.filter((_, i) => counts[i].transactions < TARGET);
  if (missing.length === 0) {
    console.log(`seeded already: ${indexes.map((index, i) => `${index.store} ${counts[i].transactions} tx`).join(', ')}`);
  } else {
    if (missing.some((index) => counts[indexes.indexOf(index)].transactions > 0)) {
      throw new Error(`a store holds part of a seed: drop ${DIR} and schema ${SCHEMA}, then run again`);
    }
    console.log(`seeding ${TARGET} transactions into ${missing.map((i) => i.store).join(' and ')} (once; ~6 minutes on two cores)...`);
    const started = performance.now();
    const result = await seedIndexes(missing, TARGET, { accounts: ACCOUNTS }, undefined, (done) => {
      if (done % 50_000 < 500) process.stdout.write(`\r  ${done} transactions, ${fmt((performance.now() - started) / 1000, 0)} s`);
    });
    console.log(
      `\n  seed: ${fmt(result.transactions / (result.wallMs / 1000), 0)} tx/s into ${missing.map((i) => i.store).join(' and ')} at once, generation included (${fmt(result.generateMs / 1000)} s of ${fmt(result.wallMs / 1000)} s)`,
    );
  }
  for (const index of indexes) {
    const driver = await storeDriver(index);
    try {
      const started = performance.now();
      const seeded = await ensureTokenRows(driver, TOKENS);
      if (seeded) console.log(`  ${index.store}: token rows seeded in ${fmt((performance.now() - started) / 1000, 0)} s`);
      // After a bulk load, what autovacuum (on by default) does to a live index in a while: table statistics
      // for the planner, and the visibility map without which an index-only scan (the account index carries
      // trace_id for /traces) visits every heap page anyway. ensureTokenRows does the same for its tables.
      if (index.location.kind === 'postgres' && missing.includes(index)) await driver.exec(`VACUUM (ANALYZE) ${ANALYZED.join(', ')}`);
    } finally {
      await driver.close();
    }
  }
}

const ANALYZED = ['blocks', 'shard_state', 'transactions', 'messages', 'account_states', 'latest_account_states', 'traces'];

/**
 * INGEST_TRANSACTIONS more transactions, generated and packed first, then timed through the index's
 * render and store threads as a chain's blocks go (WRITE_WINDOW blocks in flight): transactions per
 * wall second, and CPU seconds per transaction of the whole process (every thread; on PostgreSQL the
 * server's own work is not in it).
 */
async function ingestion(index: Index): Promise<{ wall: number; cpuUsPerTx: number }> {
  const first = Math.max(1, (await index.reader.lastMasterchainSeqno()) + 1);
  const blocks = [...syntheticBlocks(INGEST_TRANSACTIONS / 500, { accounts: ACCOUNTS, firstSeqno: first })].map((b) =>
    packBlock(feedFromIndexed(b)),
  );
  const writer = new WorkerWriter(index.location);
  try {
    // Warm-up: the threads start, compile, and open their connection before the clock starts.
    await writer.writePacked(blocks.shift()!);
    const timed = blocks.reduce((n, b) => n + b.transactions.length, 0);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await writeWindowed([writer], blocks);
    const used = process.cpuUsage(cpu);
    return { wall: timed / ((performance.now() - started) / 1000), cpuUsPerTx: (used.user + used.system) / timed };
  } finally {
    await writer.close();
  }
}

function du(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + du(join(path, name)), 0) : stat.size;
}

async function sizeBytes(index: Index): Promise<number> {
  if (index.location.kind === 'sqlite') {
    const db = new (await import('better-sqlite3')).default(index.location.file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return du(index.location.file) + (existsSync(`${index.location.file}-wal`) ? du(`${index.location.file}-wal`) : 0);
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [SCHEMA],
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

async function endpointLatencies(index: Index): Promise<Record<string, Latency>> {
  const messages = await index.reader.messages({}, 'desc', { limit: 1000, offset: 0 });
  const hashes = messages.map((m) => encodeURIComponent(m.hash.toString('base64')));
  const accounts = ACCOUNT_ADDRESSES;
  const densest = accounts[0];
  const results: Record<string, Latency> = {};
  await serve(index, async (port) => {
    results['/transactions?account=X&limit=10'] = await latency(
      port,
      accounts.map((a) => `/api/v3/transactions?account=${a}&limit=10`),
      REQUESTS,
    );
    results['/blocks?limit=10'] = await latency(port, ['/api/v3/blocks?limit=10'], REQUESTS);
    results['/messages?msg_hash=H'] = await latency(
      port,
      hashes.map((h) => `/api/v3/messages?msg_hash=${h}`),
      REQUESTS,
    );
    results['/masterchainInfo'] = await latency(port, ['/api/v3/masterchainInfo'], REQUESTS);
    results['/traces?account=X&limit=10'] = await latency(
      port,
      accounts.map((a) => `/api/v3/traces?account=${a}&limit=10`),
      REQUESTS,
    );
    results['/jetton/wallets?owner_address=X'] = await latency(
      port,
      accounts.map((a) => `/api/v3/jetton/wallets?owner_address=${a}`),
      REQUESTS,
    );
    results['/jetton/transfers?owner_address=X&limit=10'] = await latency(
      port,
      accounts.map((a) => `/api/v3/jetton/transfers?owner_address=${a}&limit=10`),
      REQUESTS,
    );
    results['/nft/items?owner_address=X&limit=10'] = await latency(
      port,
      accounts.map((a) => `/api/v3/nft/items?owner_address=${a}&limit=10`),
      REQUESTS,
    );
    // The densest owner alone: the worst case of the skew, not a realistic mix (a quarter as many requests).
    const few = Math.max(100, REQUESTS >> 2);
    results['  densest owner: /jetton/wallets'] = await latency(port, [`/api/v3/jetton/wallets?owner_address=${densest}`], few);
    results['  densest owner: /jetton/transfers'] = await latency(
      port,
      [`/api/v3/jetton/transfers?owner_address=${densest}&limit=10`],
      few,
    );
    results['  densest owner: /nft/items'] = await latency(port, [`/api/v3/nft/items?owner_address=${densest}&limit=10`], few);
  });
  return results;
}

/** What the densest owner holds in this store (counted, not taken from the plan). */
async function densestHoldings(index: Index): Promise<string> {
  const owner = ACCOUNT_ADDRESSES[0];
  const count = async (sql: string, params: string[]) => Number((await index.reads.all(sql, params))[0].n);
  const wallets = await count('SELECT COUNT(*) AS n FROM jetton_wallets WHERE owner = ?', [owner]);
  const transfers = await count('SELECT COUNT(*) AS n FROM jetton_transfers WHERE source = ? OR destination = ?', [owner, owner]);
  const items = await count('SELECT COUNT(*) AS n FROM nft_items WHERE owner_address = ?', [owner]);
  return `densest owner: ${wallets} jetton wallets, ${transfers} jetton transfers, ${items} NFT items`;
}

interface ProductionRun {
  transactions: number;
  /** Until the last block was sealed. */
  wallMs: number;
  /** Until the index held it too (the index runs below production's CPU priority and may lag). */
  indexedMs: number;
  /** CPU time of the whole process (every thread: producer, emulator threads, the index's threads), until indexed. */
  cpuMs: number;
  /** Time the producing thread spent handing blocks to the index (packing them). */
  handOffMs: number;
}

/** The local chain producing wallet transfers for a few rounds, with or without an index attached. */
async function produce(withIndex: boolean): Promise<ProductionRun> {
  const WALLETS = 40;
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
  const clock = new ManualClock();
  const chain = await LocalChain.open({ network: 'testnet', globalId: -3, faucetMnemonic: FAUCET_MNEMONIC, clock });
  const wallets = Array.from({ length: WALLETS }, (_, i) => {
    const keys = keyPairFromSeed(Buffer.alloc(32, 100 + i));
    return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys, seqno: 0 };
  });
  await Promise.all([...wallets.map((w) => chain.fund(w.wallet.address, toNano('100'))), chain.produceBlock()]);
  const send = async (i: number) => {
    const w = wallets[i];
    const body = w.wallet.createTransfer({
      seqno: w.seqno,
      secretKey: w.keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: wallets[(i + 1) % WALLETS].wallet.address, value: toNano('0.01'), body: 'bench' })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: w.wallet.address, body, init: w.seqno === 0 ? w.wallet.init : undefined })))
      .endCell()
      .toBoc();
    w.seqno++;
    await chain.sendExternal(boc);
  };
  for (let i = 0; i < WALLETS; i++) await send(i);
  await chain.produceBlock();
  await chain.produceBlock();
  const index = withIndex ? await openIndex({ network: 'testnet' }) : undefined;
  const attachment = index ? await attachIndexToChain(index, chain) : undefined;
  await attachment?.synced();
  // The attachment's own work on this thread per block: take the sealed block and pack it. Timed here
  // by doing it once more (and taken out of the totals below).
  let handOffMs = 0;
  if (withIndex) {
    chain.onBlock((sealed) => {
      const t0 = performance.now();
      packBlock(feedFromSealed(sealed));
      handOffMs += performance.now() - t0;
    });
  }
  const before = chain.masterchainInfo().last.id.seqno;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    clock.advance(1000);
    for (let i = 0; i < WALLETS; i++) await send(i);
    await chain.produceBlock();
    await chain.produceBlock();
  }
  const wallMs = performance.now() - started - handOffMs;
  await attachment?.synced();
  const indexedMs = performance.now() - started - handOffMs;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 - handOffMs;
  let transactions = 0;
  for (let s = before + 1; s <= chain.masterchainInfo().last.id.seqno; s++) {
    for (const id of await chain.shardsAt(s)) transactions += (await chain.getBlock(id))!.txCount;
  }
  await attachment?.detach();
  await chain.stop();
  await index?.close();
  return { transactions, wallMs, indexedMs, cpuMs, handOffMs };
}

/** Median over alternating runs without and with the index (the machine is shared: one run proves little). */
async function productionCost() {
  const runs: { without: ProductionRun[]; with: ProductionRun[] } = { without: [], with: [] };
  for (let i = 0; i < PRODUCTION_RUNS; i++) {
    runs.without.push(await produce(false));
    runs.with.push(await produce(true));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const perTx = (list: ProductionRun[], key: 'wallMs' | 'indexedMs' | 'cpuMs' | 'handOffMs') =>
    median(list.map((r) => r[key] / r.transactions));
  return {
    wallWithout: perTx(runs.without, 'wallMs'),
    wallWith: perTx(runs.with, 'wallMs'),
    indexedWith: perTx(runs.with, 'indexedMs'),
    cpuWithout: perTx(runs.without, 'cpuMs'),
    cpuWith: perTx(runs.with, 'cpuMs'),
    handOff: perTx(runs.with, 'handOffMs'),
  };
}

async function main(): Promise<void> {
  console.log(`bench:v3 — ${TARGET} transactions; ${describeTokenPlan(TOKENS)}; load average ${load()}`);
  const indexes = await openStores();
  await seed(indexes);
  for (const index of indexes) {
    const rate = INGEST_TRANSACTIONS > 0 ? await ingestion(index) : undefined;
    const counts = await index.reader.counts();
    const bytes = await sizeBytes(index);
    const latencies = await endpointLatencies(index);
    console.log(
      `\n${index.store}: ${counts.transactions} transactions, ${counts.messages} messages, ${counts.blocks} blocks, ${counts.accounts} accounts; ${await densestHoldings(index)} (load ${load()})`,
    );
    if (rate)
      console.log(
        `  ingestion            ${fmt(rate.wall, 0)} tx/s wall (target >= 5000), ${fmt(rate.cpuUsPerTx, 0)} us CPU per transaction (all threads)`,
      );
    console.log(
      `  size                 ${fmt(bytes / 2 ** 20)} MiB, ${fmt(((bytes / counts.transactions) * 1e6) / 2 ** 30, 2)} GiB per million transactions`,
    );
    for (const [name, l] of Object.entries(latencies)) {
      console.log(`  ${name.padEnd(44)} p50 ${fmt(l.p50, 2)} ms  p99 ${fmt(l.p99, 2)} ms  max ${fmt(l.max, 1)} ms (target p99 <= 10)`);
    }
  }
  for (const index of indexes) await index.close();
  if (INGEST_TRANSACTIONS > 0) {
    // The writer's own speed, before an index's size makes every insert a page read and write.
    const fresh = await openIndex({ network: 'bench-fresh' });
    const small = await ingestion(fresh);
    await fresh.close();
    console.log(
      `\nsqlite, empty index: ingestion ${fmt(small.wall, 0)} tx/s wall, ${fmt(small.cpuUsPerTx, 0)} us CPU per transaction (${INGEST_TRANSACTIONS} transactions into an empty index)`,
    );
  }
  if (PRODUCTION_RUNS > 0) {
    const cost = await productionCost();
    console.log(`\nblock production (local chain, wallet transfers, medians of ${PRODUCTION_RUNS} runs each; load ${load()}):`);
    console.log(
      `  wall  without index ${fmt(cost.wallWithout, 2)} ms/tx (${fmt(1000 / cost.wallWithout, 0)} tx/s), with index ${fmt(cost.wallWith, 2)} ms/tx (${fmt(1000 / cost.wallWith, 0)} tx/s): ${fmt((cost.wallWith / cost.wallWithout - 1) * 100)} % (target <= 10 %)`,
    );
    console.log(
      `        with index, until the index held every block: ${fmt(cost.indexedWith, 2)} ms/tx (${fmt((cost.indexedWith / cost.wallWithout - 1) * 100)} %)`,
    );
    console.log(
      `  CPU   without index ${fmt(cost.cpuWithout, 2)} ms/tx, with index ${fmt(cost.cpuWith, 2)} ms/tx (all threads): the index adds ${fmt((cost.cpuWith / cost.cpuWithout - 1) * 100)} % CPU`,
    );
    console.log(
      `  the producing thread hands blocks to the index in ${fmt(cost.handOff, 3)} ms/tx = ${fmt((cost.handOff / cost.wallWithout) * 100)} % of production time`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
