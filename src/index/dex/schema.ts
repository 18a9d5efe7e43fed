/**
 * Migration 15: DEX pools (what toncenter's indexer keeps as `dex_pools`): one row per detected DeDust pool at its
 * last detected state, the two assets it trades (jetton masters, NULL for TON). What the actions classifier reads a
 * DeDust swap's steps against (actions/trace-source.ts). An index that already holds accounts is walked again by the
 * token back-fill (its cursor put back, as migrations 12 and 13 do), so its pools are found.
 */
import { types, type Migration } from '../sql/column-types.js';
import { leaveTokenPass, TOKEN_BACKFILL } from '../tokens/backfill-schema.js';

export const DEX_POOLS_MIGRATION: Migration = {
  version: 15,
  name: 'DEX pools (DeDust)',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS dex_pools (
        address TEXT PRIMARY KEY,
        dex TEXT NOT NULL,
        asset_1 TEXT,
        asset_2 TEXT,
        is_stable INTEGER NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      leaveTokenPass(TOKEN_BACKFILL),
    ];
  },
};
