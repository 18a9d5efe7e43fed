/**
 * Migration 19: the getgems v4 sales an index met before their detection. A tongate before it knew no
 * get_fix_price_data_v4: it took a v4 sale (which answers no get_sale_data) for no contract, wrote no nft_sales row and
 * no `nft_sale_getgems_v4` interface for it, and classified its listing and purchase without it; live detection finds
 * it only at its next change, and many never change again. An index that holds accounts gets the cursor of a pass
 * of its own ('sales_v4', backfill-schema.ts): the token back-fill's third pass over the accounts whose code offers
 * get_fix_price_data_v4 (backfill.ts). Its own row, not the auctions' again: that pass makes every auction it meets a
 * late find (its traces classified again), which an index that already ran it would pay for nothing, and a row of
 * the auctions' pass still half-way would keep its cursor (ON CONFLICT DO NOTHING) past accounts it read without the
 * v4 getter. Self-contained (the cursors' table created here too if this store skipped it).
 */
import type { Migration } from '../sql/column-types.js';
import { leaveTokenPass, SALE_V4_BACKFILL } from './backfill-schema.js';

export const SALE_V4_BACKFILL_MIGRATION: Migration = {
  version: 19,
  name: 'tokens: back-fill of the getgems v4 sales an index met before their detection',
  statements() {
    return [
      `CREATE TABLE IF NOT EXISTS index_backfill_cursors (name TEXT PRIMARY KEY, after_key TEXT NOT NULL)`,
      leaveTokenPass(SALE_V4_BACKFILL),
    ];
  },
};
