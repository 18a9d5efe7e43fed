/** The dex_pools rows and upsert (a newer state replaces an older one; first_lt, the insertion order, stays). */
import type { InsertBatch } from '../sql/driver.js';
import { newestState } from '../tokens/token-rows.js';

export interface DexPoolRow {
  /** first_lt when the pool was met earlier in the same group of blocks (tokens/detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  dex: 'dedust';
  /** The two assets it trades: jetton masters' raw addresses, null for TON. */
  assets: [string | null, string | null];
  isStable: boolean;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const COLUMNS = ['address', 'dex', 'asset_1', 'asset_2', 'is_stable', 'last_transaction_lt', 'code_hash', 'data_hash', 'first_lt'];

export function dexPoolBatch(rows: DexPoolRow[]): InsertBatch {
  return {
    table: 'dex_pools',
    columns: COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.dex,
      r.assets[0],
      r.assets[1],
      r.isStable ? 1 : 0,
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.firstLt ?? r.lastTxLt,
    ]),
    conflict: newestState('dex_pools', COLUMNS),
  };
}
