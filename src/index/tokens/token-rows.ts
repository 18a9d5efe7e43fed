/** The token tables' columns and upserts, and one detected contract or event as a row. */
import type { InsertBatch, SqlValue } from '../sql/driver.js';
import { balanceOrder } from '../sql/values.js';

export interface JettonMasterRow {
  /** first_lt when the contract was met earlier in the same group of blocks (detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  totalSupply: bigint;
  mintable: boolean;
  admin: string | null;
  content: Record<string, string>;
  walletCodeHash: Buffer;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

export interface JettonWalletRow {
  /** first_lt when the contract was met earlier in the same group of blocks (detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  balance: bigint;
  owner: string;
  jetton: string;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
  mintlessIsClaimed: boolean | null;
}

export interface NftCollectionRow {
  /** first_lt when the contract was met earlier in the same group of blocks (detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  nextItemIndex: bigint;
  owner: string | null;
  content: Record<string, string>;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

export interface NftItemRow {
  /** first_lt when the contract was met earlier in the same group of blocks (detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  init: boolean;
  index: bigint;
  collection: string | null;
  owner: string | null;
  /** null for an item not initialized yet (it has no content). */
  content: Record<string, string> | null;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

/** Zero-padded decimal width of index_order: an item index is at most 2^256 (78 digits). */
const INDEX_DIGITS = 80;
export const indexOrder = (index: bigint): string => index.toString().padStart(INDEX_DIGITS, '0');

const COLLECTION_COLUMNS = [
  'address',
  'next_item_index',
  'owner_address',
  'collection_content',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];
const ITEM_COLUMNS = [
  'address',
  'init',
  'item_index',
  'index_order',
  'collection_address',
  'owner_address',
  'content',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];
export const NFT_TRANSFER_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'nft_item_address',
  'nft_item_index',
  'nft_collection_address',
  'old_owner',
  'new_owner',
  'response_destination',
  'custom_payload',
  'forward_amount',
  'forward_payload',
  'trace_id',
];

const MASTER_COLUMNS = [
  'address',
  'total_supply',
  'mintable',
  'admin_address',
  'jetton_content',
  'jetton_wallet_code_hash',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];
const WALLET_COLUMNS = [
  'address',
  'balance',
  'balance_order',
  'owner',
  'jetton',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'mintless_is_claimed',
  'first_lt',
];
const EVENT_COLUMNS = [
  'tx_hash',
  'tx_lt',
  'tx_now',
  'tx_aborted',
  'mc_seqno',
  'query_id',
  'amount',
  'jetton_wallet_address',
  'jetton_master_address',
  'response_destination',
  'custom_payload',
  'trace_id',
];
export const TRANSFER_COLUMNS = [...EVENT_COLUMNS, 'source', 'destination', 'forward_ton_amount', 'forward_payload'];
export const BURN_COLUMNS = [...EVENT_COLUMNS, 'owner'];

/** A newer state replaces an older one; first_lt (toncenter's insertion order) stays (also the multisig and vesting tables). */
export function newestState(table: string, columns: readonly string[]): string {
  return `ON CONFLICT (address) DO UPDATE SET ${columns
    .filter((c) => c !== 'address' && c !== 'first_lt')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')} WHERE excluded.last_transaction_lt >= ${table}.last_transaction_lt`;
}

export function masterBatch(rows: JettonMasterRow[]): InsertBatch {
  return {
    table: 'jetton_masters',
    columns: MASTER_COLUMNS,
    rows: rows.map((m) => [
      m.address,
      m.totalSupply.toString(),
      m.mintable ? 1 : 0,
      m.admin,
      JSON.stringify(m.content),
      m.walletCodeHash,
      m.lastTxLt,
      m.codeHash,
      m.dataHash,
      m.firstLt ?? m.lastTxLt,
    ]),
    conflict: newestState('jetton_masters', MASTER_COLUMNS),
  };
}

export function walletBatch(rows: JettonWalletRow[]): InsertBatch {
  return {
    table: 'jetton_wallets',
    columns: WALLET_COLUMNS,
    rows: rows.map((w) => [
      w.address,
      w.balance.toString(),
      balanceOrder(w.balance),
      w.owner,
      w.jetton,
      w.lastTxLt,
      w.codeHash,
      w.dataHash,
      w.mintlessIsClaimed === null ? null : w.mintlessIsClaimed ? 1 : 0,
      w.firstLt ?? w.lastTxLt,
    ]),
    conflict: newestState('jetton_wallets', WALLET_COLUMNS),
  };
}

export function eventBatch(table: 'jetton_transfers' | 'jetton_burns', rows: SqlValue[][]): InsertBatch {
  return {
    table,
    columns: table === 'jetton_transfers' ? TRANSFER_COLUMNS : BURN_COLUMNS,
    rows,
    conflict: 'ON CONFLICT (tx_hash) DO NOTHING',
  };
}

export function collectionBatch(rows: NftCollectionRow[]): InsertBatch {
  return {
    table: 'nft_collections',
    columns: COLLECTION_COLUMNS,
    rows: rows.map((c) => [
      c.address,
      c.nextItemIndex.toString(),
      c.owner,
      JSON.stringify(c.content),
      c.lastTxLt,
      c.codeHash,
      c.dataHash,
      c.firstLt ?? c.lastTxLt,
    ]),
    conflict: newestState('nft_collections', COLLECTION_COLUMNS),
  };
}

export function itemBatch(rows: NftItemRow[]): InsertBatch {
  return {
    table: 'nft_items',
    columns: ITEM_COLUMNS,
    rows: rows.map((i) => [
      i.address,
      i.init ? 1 : 0,
      i.index.toString(),
      indexOrder(i.index),
      i.collection,
      i.owner,
      i.content ? JSON.stringify(i.content) : null,
      i.lastTxLt,
      i.codeHash,
      i.dataHash,
      i.firstLt ?? i.lastTxLt,
    ]),
    conflict: newestState('nft_items', ITEM_COLUMNS),
  };
}

export function nftTransferBatch(rows: SqlValue[][]): InsertBatch {
  return { table: 'nft_transfers', columns: NFT_TRANSFER_COLUMNS, rows, conflict: 'ON CONFLICT (tx_hash) DO NOTHING' };
}
