/**
 * Tables read whole as comparable text, for the tests that compare two indexes row for row (a rewound index with
 * one rebuilt from the restored chain, a back-filled index with one that followed the chain live).
 */
import type { SqlReads } from '../../src/index/sql/driver.js';

/** A table and the ORDER BY that makes its dump independent of insertion order. */
export type TableOrder = readonly [table: string, orderBy: string];

/** What token detection writes; `latest_account_states` for its `interfaces` column. */
export const TOKEN_TABLES: readonly TableOrder[] = [
  ['jetton_masters', 'address'],
  ['jetton_wallets', 'address'],
  ['jetton_transfers', 'tx_hash'],
  ['jetton_burns', 'tx_hash'],
  ['nft_collections', 'address'],
  ['nft_items', 'address'],
  ['nft_transfers', 'tx_hash'],
  ['nft_sales', 'address'],
  ['nft_auctions', 'address'],
  ['latest_account_states', 'account'],
];

/** Every row of each table, each row as JSON of its columns (bytes as hex, numbers and bigints as strings). */
export async function dumpTables(reads: SqlReads, tables: readonly TableOrder[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, order] of tables) {
    const rows = await reads.all(`SELECT * FROM ${table} ORDER BY ${order}`);
    out[table] = rows.map((row) => JSON.stringify(Object.entries(row).map(([key, value]) => [key, comparable(value)])));
  }
  return out;
}

function comparable(value: unknown): unknown {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  return value;
}
