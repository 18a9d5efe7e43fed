/**
 * Complete traces as the classifier reads them (trace-input.ts), gathered from where their rows are: the group of
 * blocks the store thread is about to commit (the trace's last transactions, the token contracts detected in it)
 * and the store (its earlier transactions and messages, the contracts detected before). The back-fill reads the
 * store alone. Lookups go by primary key or the trace_id index, a few hundred keys per statement.
 */
import { placeholders } from '../sql/where.js';
import type { InsertBatch, SqlReads, SqlValue } from '../sql/driver.js';
import { bytes, optionalText, text } from '../sql/values.js';
import type { TraceRow } from '../traces/trace-row.js';
import { NOMINATOR_POOL_CODE_HASH } from './nominator-pools.js';
import { poolLockWallet, stakeWalletData, type JvaultStakeWalletInfo } from './jvault.js';
import { Cell } from '@ton/core';
import { FRAGMENT_URI, telemintFlags } from './telemint.js';
import {
  transactionOf,
  type DexPoolInfo,
  type JettonWalletInfo,
  type KnownContracts,
  type MultisigOrderInfo,
  type NftItemInfo,
  type NftAuctionInfo,
  type NftSaleInfo,
  type StoredMessageDoc,
  type StoredTransactionDoc,
  type TraceInput,
} from './trace-input.js';

const CHUNK = 500;

/** What a group of blocks holds before it is committed: transactions by trace, message documents, detected contracts. */
export interface GroupRows {
  transactions: Map<string, StoredTransactionDoc[]>;
  messages: Map<string, string>;
  jettonWallets: Map<string, JettonWalletInfo>;
  nftItems: Map<string, NftItemInfo>;
  multisigOrders: Map<string, MultisigOrderInfo>;
  nftSales: Map<string, NftSaleInfo>;
  nftAuctions: Map<string, NftAuctionInfo>;
  dexPools: Map<string, DexPoolInfo>;
  /** The code hash (base64, null: no code) of each account whose latest state the group writes. */
  codeHashes: Map<string, string | null>;
  /** The data (a BoC, null: none) of each account whose latest state the group writes (JVault's stake wallets and pools). */
  dataBocs: Map<string, Buffer | null>;
}

const emptyGroupRows = (): GroupRows => ({
  transactions: new Map(),
  messages: new Map(),
  jettonWallets: new Map(),
  nftItems: new Map(),
  multisigOrders: new Map(),
  nftSales: new Map(),
  nftAuctions: new Map(),
  dexPools: new Map(),
  codeHashes: new Map(),
  dataBocs: new Map(),
});

/** A pool's row (dex_pools) as the classifier reads it. */
const poolInfo = (get: (column: string) => SqlValue): DexPoolInfo => ({
  dex: 'dedust',
  assets: [get('asset_1') === null ? null : text(get('asset_1')), get('asset_2') === null ? null : text(get('asset_2'))],
});

/** A sale's row (nft_sales) as the classifier reads it. */
const saleInfo = (get: (column: string) => SqlValue): NftSaleInfo => ({
  nft: text(get('nft_address')),
  owner: get('nft_owner_address') === null ? null : text(get('nft_owner_address')),
  marketplace: get('marketplace_address') === null ? null : text(get('marketplace_address')),
  fullPrice: text(get('full_price')),
  codeHash: bytes(get('code_hash')).toString('base64'),
});

/** An auction's row (nft_auctions) as the classifier reads it. */
const auctionInfo = (get: (column: string) => SqlValue): NftAuctionInfo => ({
  nft: text(get('nft_addr')),
  owner: get('nft_owner') === null ? null : text(get('nft_owner')),
  marketplace: text(get('mp_addr')),
  lastBid: text(get('last_bid')),
  codeHash: bytes(get('code_hash')).toString('base64'),
});

/** An NFT item's row (nft_items) as the classifier reads it: with the flags of a Telegram or .ton DNS item. */
const itemInfo = (get: (column: string) => SqlValue): NftItemInfo => {
  const collection = get('collection_address') === null ? null : text(get('collection_address'));
  const code = get('code_hash');
  const codeHash = code === null || code === undefined ? null : bytes(code).toString('base64');
  return { index: text(get('item_index')), collection, ...telemintFlags(optionalText(get('content')), codeHash, collection) };
};
/**
 * The content only where it may name Fragment (an item's content can hold a whole image): the flag itself is
 * decided in telemintFlags (SQLite's LIKE ignores case, PostgreSQL's does not).
 */
const ITEM_COLUMNS = `address, item_index, collection_address, CASE WHEN content LIKE '%${FRAGMENT_URI}%' THEN content END AS content, code_hash`;

export const NO_GROUP_ROWS: GroupRows = emptyGroupRows();

/** Each row of `batch` as a column -> value lookup. */
function* rowsOf(batch: InsertBatch): Generator<(column: string) => SqlValue> {
  const index = new Map(batch.columns.map((c, i) => [c, i]));
  for (const row of batch.rows) yield (column) => row[index.get(column)!];
}

/** The group's rows of the traces in `traceIds` (their transactions), every message, and the token contracts. */
export function groupRowsOf(batches: readonly InsertBatch[], traceIds: ReadonlySet<string>): GroupRows {
  const rows = emptyGroupRows();
  const seen = new Set<string>();
  for (const batch of batches) {
    if (batch.table === 'transactions') {
      for (const get of rowsOf(batch)) {
        const trace = get('trace_id');
        if (!Buffer.isBuffer(trace)) continue;
        const id = trace.toString('base64');
        if (!traceIds.has(id)) continue;
        const doc = JSON.parse(get('doc') as string) as StoredTransactionDoc;
        if (seen.has(doc.hash)) continue;
        seen.add(doc.hash);
        const list = rows.transactions.get(id);
        if (list) list.push(doc);
        else rows.transactions.set(id, [doc]);
      }
    } else if (batch.table === 'messages') {
      for (const get of rowsOf(batch)) rows.messages.set((get('msg_hash') as Buffer).toString('base64'), get('doc') as string);
    } else if (batch.table === 'jetton_wallets') {
      for (const get of rowsOf(batch))
        rows.jettonWallets.set(get('address') as string, { owner: get('owner') as string, jetton: get('jetton') as string });
    } else if (batch.table === 'nft_items') {
      for (const get of rowsOf(batch)) rows.nftItems.set(get('address') as string, itemInfo(get));
    } else if (batch.table === 'multisig_orders') {
      for (const get of rowsOf(batch))
        rows.multisigOrders.set(get('address') as string, { signers: JSON.parse(get('signers') as string) as string[] });
    } else if (batch.table === 'nft_sales') {
      for (const get of rowsOf(batch)) rows.nftSales.set(get('address') as string, saleInfo(get));
    } else if (batch.table === 'nft_auctions') {
      for (const get of rowsOf(batch)) rows.nftAuctions.set(get('address') as string, auctionInfo(get));
    } else if (batch.table === 'dex_pools') {
      for (const get of rowsOf(batch)) rows.dexPools.set(get('address') as string, poolInfo(get));
    } else if (batch.table === 'latest_account_states') {
      for (const get of rowsOf(batch)) {
        const code = get('code_hash');
        rows.codeHashes.set(get('account') as string, code === null ? null : bytes(code).toString('base64'));
        const data = get('data_boc');
        rows.dataBocs.set(get('account') as string, data === null ? null : bytes(data));
      }
    }
  }
  return rows;
}

async function chunked<T>(keys: T[], read: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < keys.length; i += CHUNK) await read(keys.slice(i, i + CHUNK));
}

/** The inputs of `traces` (complete), their transactions from the group first, then the store. */
export async function traceInputs(store: SqlReads, traces: readonly TraceRow[], group: GroupRows = NO_GROUP_ROWS): Promise<TraceInput[]> {
  const docs = new Map<string, StoredTransactionDoc[]>();
  const missing: string[] = [];
  for (const trace of traces) {
    const held = group.transactions.get(trace.traceId) ?? [];
    docs.set(trace.traceId, [...held]);
    if (held.length < trace.transactions) missing.push(trace.traceId);
  }
  await chunked(missing, async (chunk) => {
    const rows = await store.all(
      `SELECT trace_id, doc FROM transactions WHERE trace_id IN (${placeholders(chunk)})`,
      chunk.map((id) => Buffer.from(id, 'base64')),
    );
    for (const row of rows) {
      const list = docs.get(bytes(row.trace_id).toString('base64'))!;
      const doc = JSON.parse(text(row.doc)) as StoredTransactionDoc;
      if (!list.some((d) => d.hash === doc.hash)) list.push(doc);
    }
  });

  const messages = new Map<string, string>();
  const wanted: string[] = [];
  for (const list of docs.values()) {
    for (const doc of list) {
      for (const hash of [...(doc.in_msg ? [doc.in_msg] : []), ...doc.out_msgs]) {
        const held = group.messages.get(hash);
        if (held !== undefined) messages.set(hash, held);
        else if (!messages.has(hash)) wanted.push(hash);
      }
    }
  }
  await chunked([...new Set(wanted)], async (chunk) => {
    const rows = await store.all(
      `SELECT msg_hash, doc FROM messages WHERE msg_hash IN (${placeholders(chunk)})`,
      chunk.map((h) => Buffer.from(h, 'base64')),
    );
    for (const row of rows) messages.set(bytes(row.msg_hash).toString('base64'), text(row.doc));
  });
  const parsed = new Map<string, StoredMessageDoc>();
  const message = (hash: string): StoredMessageDoc | undefined => {
    let doc = parsed.get(hash);
    if (!doc) {
      const raw = messages.get(hash);
      if (raw === undefined) return undefined;
      parsed.set(hash, (doc = JSON.parse(raw) as StoredMessageDoc));
    }
    return doc;
  };

  return traces.map((trace) => ({
    traceId: trace.traceId,
    externalHash: trace.externalHash,
    externalHashNorm: trace.externalHashNorm,
    startLt: trace.startLt,
    startUtime: trace.startUtime,
    endLt: trace.endLt,
    endUtime: trace.endUtime,
    mcSeqnoEnd: trace.mcSeqnoEnd,
    transactions: docs.get(trace.traceId)!.map((doc) => transactionOf(doc, message)),
  }));
}

/**
 * The jetton wallets, NFT items, NFT sales and auctions, multisig orders and DEX pools among `accounts`: detected in
 * the group, else in the store. An auction's NFT item comes too (a bid names it, though the trace never touches it).
 * And the nominator pools among them (toncenter's rule: the latest state has the standard pool's code), from the
 * latest state the group writes, else the stored one.
 */
export async function knownContracts(
  store: SqlReads,
  accounts: Iterable<string>,
  group: GroupRows = NO_GROUP_ROWS,
): Promise<KnownContracts> {
  const jettonWallets = new Map<string, JettonWalletInfo>();
  const nftItems = new Map<string, NftItemInfo>();
  const multisigOrders = new Map<string, MultisigOrderInfo>();
  const nftSales = new Map<string, NftSaleInfo>();
  const nftAuctions = new Map<string, NftAuctionInfo>();
  const dexPools = new Map<string, DexPoolInfo>();
  const nominatorPools = new Set<string>();
  const asked: string[] = [];
  const statesAsked: string[] = [];
  for (const account of new Set(accounts)) {
    const code = group.codeHashes.get(account);
    if (code === undefined) statesAsked.push(account);
    else if (code === NOMINATOR_POOL_CODE_HASH) nominatorPools.add(account);
    const wallet = group.jettonWallets.get(account);
    const item = group.nftItems.get(account);
    const order = group.multisigOrders.get(account);
    const sale = group.nftSales.get(account);
    const auction = group.nftAuctions.get(account);
    const pool = group.dexPools.get(account);
    if (wallet) jettonWallets.set(account, wallet);
    if (item) nftItems.set(account, item);
    if (order) multisigOrders.set(account, order);
    if (sale) nftSales.set(account, sale);
    if (auction) nftAuctions.set(account, auction);
    if (pool) dexPools.set(account, pool);
    if (!wallet && !item && !order && !sale && !auction && !pool) asked.push(account);
  }
  await chunked(asked, async (chunk) => {
    const [wallets, items, orders, sales, auctions, pools] = await Promise.all([
      store.all(`SELECT address, owner, jetton FROM jetton_wallets WHERE address IN (${placeholders(chunk)})`, chunk),
      store.all(`SELECT ${ITEM_COLUMNS} FROM nft_items WHERE address IN (${placeholders(chunk)})`, chunk),
      store.all(`SELECT address, signers FROM multisig_orders WHERE address IN (${placeholders(chunk)})`, chunk),
      store.all(
        `SELECT address, nft_address, nft_owner_address, marketplace_address, full_price, code_hash FROM nft_sales WHERE address IN (${placeholders(chunk)})`,
        chunk,
      ),
      store.all(
        `SELECT address, nft_addr, nft_owner, mp_addr, last_bid, code_hash FROM nft_auctions WHERE address IN (${placeholders(chunk)})`,
        chunk,
      ),
      store.all(`SELECT address, asset_1, asset_2 FROM dex_pools WHERE address IN (${placeholders(chunk)})`, chunk),
    ]);
    for (const row of pools)
      dexPools.set(
        text(row.address),
        poolInfo((column) => row[column] as SqlValue),
      );
    for (const row of sales)
      nftSales.set(
        text(row.address),
        saleInfo((column) => row[column] as SqlValue),
      );
    for (const row of auctions)
      nftAuctions.set(
        text(row.address),
        auctionInfo((column) => row[column] as SqlValue),
      );
    for (const row of orders) multisigOrders.set(text(row.address), { signers: JSON.parse(text(row.signers)) as string[] });
    for (const row of wallets) jettonWallets.set(text(row.address), { owner: text(row.owner), jetton: text(row.jetton) });
    for (const row of items)
      nftItems.set(
        text(row.address),
        itemInfo((column) => row[column] as SqlValue),
      );
  });
  await chunked(statesAsked, async (chunk) => {
    const rows = await store.all(`SELECT account FROM latest_account_states WHERE account IN (${placeholders(chunk)}) AND code_hash = ?`, [
      ...chunk,
      Buffer.from(NOMINATOR_POOL_CODE_HASH, 'base64'),
    ]);
    for (const row of rows) nominatorPools.add(text(row.account));
  });
  // The auctions' NFT items the trace did not touch.
  const missing = [...new Set([...nftAuctions.values()].map((a) => a.nft))].filter((nft) => !nftItems.has(nft));
  const stored: string[] = [];
  for (const nft of missing) {
    const item = group.nftItems.get(nft);
    if (item) nftItems.set(nft, item);
    else stored.push(nft);
  }
  await chunked(stored, async (chunk) => {
    for (const row of await store.all(`SELECT ${ITEM_COLUMNS} FROM nft_items WHERE address IN (${placeholders(chunk)})`, chunk))
      nftItems.set(
        text(row.address),
        itemInfo((column) => row[column] as SqlValue),
      );
  });
  return { jettonWallets, nftItems, multisigOrders, nftSales, nftAuctions, dexPools, nominatorPools };
}

/** The latest data of `accounts`: the group's, else the store's (absent: no state, or no data). */
async function latestData(store: SqlReads, accounts: string[], group: GroupRows): Promise<Map<string, Cell>> {
  const found = new Map<string, Cell>();
  const asked: string[] = [];
  const add = (account: string, boc: Buffer | null): void => {
    if (boc === null) return;
    try {
      found.set(account, Cell.fromBoc(boc)[0]);
    } catch {
      // Data that is no BoC tells nothing.
    }
  };
  for (const account of new Set(accounts)) {
    const held = group.dataBocs.get(account);
    if (held !== undefined) add(account, held);
    else asked.push(account);
  }
  await chunked(asked, async (chunk) => {
    for (const row of await store.all(
      `SELECT account, data_boc FROM latest_account_states WHERE account IN (${placeholders(chunk)})`,
      chunk,
    ))
      add(text(row.account), row.data_boc === null ? null : bytes(row.data_boc));
  });
  return found;
}

/**
 * JVault's stake wallets among `wallets` (those an unstake asks), as toncenter's `extract_jvault_assets` reads them:
 * the wallet's latest data names its pool and stake jetton, the pool's its lock wallet, whose jetton (a wallet the
 * index detected) is the staked asset. A wallet without readable data is left out; a pool without a state gives no
 * asset; a pool whose data does not read, or whose lock wallet the index does not know, leaves the wallet out (toncenter's
 * lookup fails as a whole there).
 */
export async function jvaultStakeWallets(
  store: SqlReads,
  wallets: Iterable<string>,
  group: GroupRows = NO_GROUP_ROWS,
): Promise<Map<string, JvaultStakeWalletInfo>> {
  const result = new Map<string, JvaultStakeWalletInfo>();
  const asked = [...new Set(wallets)];
  if (asked.length === 0) return result;
  const walletData = new Map<string, { pool: string | null; minter: string | null }>();
  for (const [wallet, data] of await latestData(store, asked, group)) {
    try {
      walletData.set(wallet, stakeWalletData(data));
    } catch {
      // Not a stake wallet's data.
    }
  }
  const pools = [...walletData.values()].flatMap((w) => (w.pool === null ? [] : [w.pool]));
  const poolData = await latestData(store, pools, group);
  const lockWallets = new Map<string, string | null>();
  for (const [pool, data] of poolData) {
    try {
      lockWallets.set(pool, poolLockWallet(data));
    } catch {
      lockWallets.set(pool, null);
    }
  }
  const locks = [...lockWallets.values()].filter((w): w is string => w !== null);
  const { jettonWallets } = await knownContracts(store, locks, group);
  for (const [wallet, { pool, minter }] of walletData) {
    if (pool === null) continue;
    if (!poolData.has(pool)) {
      result.set(wallet, { pool, asset: null, stakingAsset: minter });
      continue;
    }
    const lock = lockWallets.get(pool);
    const jetton = lock ? jettonWallets.get(lock)?.jetton : undefined;
    if (jetton !== undefined) result.set(wallet, { pool, asset: jetton, stakingAsset: minter });
  }
  return result;
}
