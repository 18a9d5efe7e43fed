/**
 * Synthetic token rows for the read benches (bench:v3 at 1M transactions, bench:token-reads on its own): jetton
 * masters and wallets, jetton transfers, NFT collections, items and transfers, written with the index's own row
 * builders (src/index/tokens/token-rows.ts) in batches, straight into a store's tables (no detection runs).
 *
 * Owners are a given population in rank order (bench:v3: the 10,000 accounts scripts/seed-index.ts pays
 * between, so owner queries meet accounts with real transactions and address-book rows). How many jetton
 * wallets owner rank r holds follows Zipf's law, min(masters, max(1, floor(K / (r + 1)))), K chosen so the
 * total reaches `wallets`: every owner holds at least one, the first ~13 (of 10,000) hold one of every master
 * (1,000), the median owner two. Real holdings are that skewed (exchanges and whales hold hundreds of jettons,
 * most wallets a few), and a uniform spread would only ever ask the index about small owners. An owner holds at
 * most one wallet per master, as on chain (a wallet's address derives from owner and master).
 * Transfers: the sender is a wallet drawn uniformly (so an owner sends in proportion to the wallets it holds),
 * the receiver another wallet of the same master (so receiving is as skewed); 2 % aborted. NFT items follow
 * the same per-owner counts over the collections, NFT transfers move an item to the owner of another item.
 * Events spread over masterchain seqnos 1..blocks with the seeded chain's lt/utime layout (seed-index.ts:
 * lt = seqno * 1,000,000 + ..., utime = 1,700,000,000 + 5 * seqno), after the seeded transactions' lts.
 *
 * A store holds the rows when its counts and the owner of wallet 0 match this plan; otherwise its token tables
 * are emptied and seeded again (a store seeded with another plan, a seed cut off half-way).
 */
import { createHash } from 'node:crypto';
import type { InsertBatch, SqlDriver, SqlValue } from '../../src/index/sql/driver.js';
import { int, optionalText } from '../../src/index/sql/values.js';
import { collectionBatch, eventBatch, itemBatch, masterBatch, nftTransferBatch, walletBatch } from '../../src/index/tokens/token-rows.js';

export interface TokenSeedOptions {
  /** Owners in rank order (raw form, `0:HEX`): owners[0] holds the most. */
  owners: readonly string[];
  /** Jetton wallets (default 100,000); twice as many transfers, as many NFT items and NFT transfers. */
  wallets?: number;
  /** Jetton masters (default 1,000): also the most wallets one owner holds. */
  masters?: number;
  /** NFT collections (default 100). */
  collections?: number;
  /** Masterchain seqnos the rows' lts spread over (default 2,000: the blocks of 1M seeded transactions). */
  blocks?: number;
}

export interface TokenCounts {
  wallets: number;
  transfers: number;
  items: number;
}

const TABLES = ['jetton_masters', 'jetton_wallets', 'jetton_transfers', 'jetton_burns', 'nft_collections', 'nft_items', 'nft_transfers'];
const CHUNK = 2000;
const GENESIS_UTIME = 1_700_000_000;
const LT_PER_BLOCK = 1_000_000n;
/** Token events sit after a seeded block's own transactions (their lts stay below startLt + ~1,000). */
const EVENT_LT_OFFSET = 500_000n;

const contract = (kind: string, i: number) => `0:${createHash('sha256').update(`${kind}${i}`).digest('hex').toUpperCase()}`;
const hash = (kind: string, i: number) => createHash('sha256').update(`${kind}${i}`).digest();
/** Jetton master `i` of the seed (for a bench's `jetton_address` queries). */
export const tokenMasterAddress = (i: number) => contract('jetton-master', i);
/** A deterministic pseudo-random 32-bit number (a multiply-xorshift mix): which wallet sends, which receives. */
function mix(i: number, salt: number): number {
  let x = Math.imul(i ^ salt, 0x9e3779b1);
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  return (x ^ (x >>> 13)) >>> 0;
}

/** Per owner rank, how many wallets (items) it holds: Zipf, capped at `cap`, at least one, summing to >= `total`. */
export function zipfCounts(owners: number, total: number, cap: number): number[] {
  const counts = (k: number) => Array.from({ length: owners }, (_, r) => Math.min(cap, Math.max(1, Math.floor(k / (r + 1)))));
  const sum = (k: number) => counts(k).reduce((a, b) => a + b, 0);
  if (owners * cap < total) throw new Error(`${owners} owners of at most ${cap} each cannot hold ${total}`);
  let low = 0;
  let high = total;
  while (low < high) {
    const k = Math.floor((low + high) / 2);
    if (sum(k) >= total) high = k;
    else low = k + 1;
  }
  return counts(low);
}

/**
 * Holdings in the order rows are written: layer by layer (every owner's first, then every owner's second...),
 * cut at `total`. So a big owner's wallets are spread over time (first_lt), as they would be.
 */
function holdings(counts: number[], total: number): { owner: number; nth: number }[] {
  const out: { owner: number; nth: number }[] = [];
  for (let nth = 0; out.length < total; nth++) {
    for (let owner = 0; owner < counts.length && out.length < total; owner++) if (counts[owner] > nth) out.push({ owner, nth });
  }
  return out;
}

/** What the seed writes, before any row is built. */
export function tokenPlan(options: TokenSeedOptions) {
  const wallets = options.wallets ?? 100_000;
  const masters = options.masters ?? 1000;
  const collections = options.collections ?? 100;
  const blocks = options.blocks ?? 2000;
  const counts = zipfCounts(options.owners.length, wallets, masters);
  // Owner r's n-th wallet is of master (7r + n) mod masters: n < masters, so one wallet per (owner, master).
  const jettonWallets = holdings(counts, wallets).map(({ owner, nth }) => ({ owner, master: (owner * 7 + nth) % masters }));
  const items = holdings(counts, wallets).map(({ owner, nth }) => ({ owner, collection: (owner * 3 + nth) % collections }));
  return { wallets, masters, collections, blocks, counts, jettonWallets, items, transfers: wallets * 2, nftTransfers: wallets };
}

export async function tokenCounts(driver: SqlDriver): Promise<TokenCounts> {
  const count = async (table: string) => int((await driver.all(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  return { wallets: await count('jetton_wallets'), transfers: await count('jetton_transfers'), items: await count('nft_items') };
}

/**
 * Seeds the token rows unless the store holds this plan's already (counted, and wallet 0's owner checked).
 * Returns whether it wrote.
 */
export async function ensureTokenRows(driver: SqlDriver, options: TokenSeedOptions): Promise<boolean> {
  const plan = tokenPlan(options);
  const counts = await tokenCounts(driver);
  const [first] = await driver.all('SELECT owner FROM jetton_wallets WHERE address = ?', [contract('jetton-wallet', 0)]);
  if (
    counts.wallets === plan.wallets &&
    counts.transfers === plan.transfers &&
    counts.items === plan.wallets &&
    optionalText(first?.owner) === options.owners[plan.jettonWallets[0].owner]
  ) {
    return false;
  }
  if (counts.wallets + counts.transfers + counts.items > 0) await driver.exec(TABLES.map((t) => `DELETE FROM ${t}`).join('; '));
  await writeTokenRows(driver, plan, options.owners);
  // After a bulk load, what autovacuum (on by default) does to a live index in a while: statistics for the
  // planner and the visibility map for index-only scans.
  if (driver.dialect === 'postgres') await driver.exec(`VACUUM (ANALYZE) ${TABLES.join(', ')}`);
  return true;
}

async function writeTokenRows(driver: SqlDriver, plan: ReturnType<typeof tokenPlan>, owners: readonly string[]): Promise<void> {
  const write = async (rows: number, batch: (from: number, to: number) => InsertBatch) => {
    for (let from = 0; from < rows; from += CHUNK) await driver.write([batch(from, Math.min(rows, from + CHUNK))]);
  };
  const range = <T>(from: number, to: number, f: (i: number) => T) => Array.from({ length: to - from }, (_, k) => f(from + k));
  /** Row i of n, placed in the seeded chain's block (i * blocks / n) + 1. */
  const at = (i: number, n: number) => {
    const seqno = 1 + Math.floor((i * plan.blocks) / n);
    return { seqno, lt: BigInt(seqno) * LT_PER_BLOCK + EVENT_LT_OFFSET + BigInt(i % 100_000), now: GENESIS_UTIME + seqno * 5 };
  };
  const none = Buffer.alloc(32);
  const wallet = (i: number) => contract('jetton-wallet', i);
  const master = tokenMasterAddress;
  const item = (i: number) => contract('nft-item', i);
  const collection = (i: number) => contract('nft-collection', i);

  await write(plan.masters, (a, b) =>
    masterBatch(
      range(a, b, (i) => ({
        address: master(i),
        totalSupply: 10n ** 15n,
        mintable: true,
        admin: owners[i % owners.length],
        content: { name: `J${i}`, symbol: `J${i}` },
        walletCodeHash: none,
        lastTxLt: at(i, plan.masters).lt,
        codeHash: none,
        dataHash: none,
      })),
    ),
  );
  await write(plan.wallets, (a, b) =>
    walletBatch(
      range(a, b, (i) => {
        const w = plan.jettonWallets[i];
        return {
          address: wallet(i),
          balance: BigInt(mix(i, 1) % 1_000_000),
          owner: owners[w.owner],
          jetton: master(w.master),
          lastTxLt: at(i, plan.wallets).lt,
          codeHash: none,
          dataHash: none,
          mintlessIsClaimed: null,
        };
      }),
    ),
  );
  // The receiving wallet of a transfer: another wallet of the sender's master.
  const byMaster: number[][] = Array.from({ length: plan.masters }, () => []);
  plan.jettonWallets.forEach((w, i) => byMaster[w.master].push(i));
  await write(plan.transfers, (a, b) =>
    eventBatch(
      'jetton_transfers',
      range(a, b, (t): SqlValue[] => {
        const from = mix(t, 2) % plan.wallets;
        const { owner, master: m } = plan.jettonWallets[from];
        const peers = byMaster[m];
        let to = peers[mix(t, 3) % peers.length];
        if (to === from) to = peers[(peers.indexOf(to) + 1) % peers.length];
        const { seqno, lt, now } = at(t, plan.transfers);
        const source = owners[owner];
        const aborted = t % 50 === 0 ? 1 : 0;
        return [
          hash('jetton-tx', t),
          lt,
          now,
          aborted,
          seqno,
          String(t),
          String(1 + (mix(t, 4) % 1000)),
          wallet(from),
          master(m),
          source,
          null,
          hash('trace', t),
          source,
          owners[plan.jettonWallets[to].owner],
          '1',
          null,
        ];
      }),
    ),
  );
  await write(plan.collections, (a, b) =>
    collectionBatch(
      range(a, b, (i) => ({
        address: collection(i),
        nextItemIndex: BigInt(Math.ceil(plan.wallets / plan.collections)),
        owner: owners[i % owners.length],
        content: { name: `C${i}` },
        lastTxLt: at(i, plan.collections).lt,
        codeHash: none,
        dataHash: none,
      })),
    ),
  );
  // An item's index within its collection: the items of that collection written before it.
  const indexes = new Array<number>(plan.wallets);
  const next = new Array<number>(plan.collections).fill(0);
  plan.items.forEach((it, i) => (indexes[i] = next[it.collection]++));
  await write(plan.wallets, (a, b) =>
    itemBatch(
      range(a, b, (i) => {
        const it = plan.items[i];
        return {
          address: item(i),
          init: true,
          index: BigInt(indexes[i]),
          collection: collection(it.collection),
          owner: owners[it.owner],
          content: { uri: `https://x/${i}.json` },
          lastTxLt: at(i, plan.wallets).lt,
          codeHash: none,
          dataHash: none,
        };
      }),
    ),
  );
  await write(plan.nftTransfers, (a, b) =>
    nftTransferBatch(
      range(a, b, (t): SqlValue[] => {
        const i = mix(t, 5) % plan.wallets;
        const it = plan.items[i];
        const { seqno, lt, now } = at(t, plan.nftTransfers);
        const newOwner = owners[plan.items[mix(t, 6) % plan.wallets].owner];
        return [
          hash('nft-tx', t),
          lt,
          now,
          0,
          seqno,
          String(t),
          item(i),
          String(indexes[i]),
          collection(it.collection),
          owners[it.owner],
          newOwner,
          null,
          null,
          '1',
          null,
          hash('nft-trace', t),
        ];
      }),
    ),
  );
}

/** One line saying what the plan holds, for a bench's header. */
export function describeTokenPlan(options: TokenSeedOptions): string {
  const plan = tokenPlan(options);
  const sorted = [...plan.counts].sort((a, b) => a - b);
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(plan.wallets)} jetton wallets of ${n(plan.masters)} masters held by ${n(plan.counts.length)} owners (Zipf: the densest holds ${n(plan.counts[0])}, the median ${sorted[sorted.length >> 1]}), ${n(plan.transfers)} jetton transfers, ${n(plan.wallets)} NFT items of ${n(plan.collections)} collections, ${n(plan.nftTransfers)} NFT transfers`;
}
