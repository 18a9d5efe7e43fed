/**
 * Migration 7: the marker of the token back-fill (backfill.ts). An index written before token detection (before
 * migration 4, or upgraded to it in place) holds accounts no detector has looked at: their contracts appear only
 * when they next change. The migration records, when the index already holds account states, a cursor row
 * ('tokens', '') in `index_backfill_cursors`: the back-fill walks latest_account_states in account order from it,
 * moves it forward with each group it commits (a restart resumes there) and deletes the row when done, so a later
 * start does nothing. An empty index (a new one) gets no row: live detection sees every account it writes.
 *
 *   index_backfill_cursors   work a migration left to do, resumable by a text key (the traces back-fill's
 *                            `index_backfills` keys by masterchain seqno, an integer)
 */
import type { Migration } from '../sql/column-types.js';

export const TOKEN_BACKFILL = 'tokens';
/**
 * The second pass over the same accounts (migration 18, auctions-schema.ts): only the codes that offer a sale
 * detector's method (get_sale_data, get_auction_data_v4, get_fix_price_data_v4), for the getgems auctions an older
 * index met and refused as no sale.
 */
export const AUCTION_BACKFILL = 'auctions';
/**
 * The third pass (migration 19, sales-v4-schema.ts): only the codes that offer get_fix_price_data_v4, for the getgems
 * v4 sales an older index met and did not recognise (they answer no get_sale_data).
 */
export const SALE_V4_BACKFILL = 'sales_v4';

/**
 * The statement a migration leaves one of the token back-fill's passes to do with: its cursor row at the start, when
 * the index holds account states (an empty index needs no back-fill: live detection sees every account it writes);
 * a row already there stays where it is (a pass half-way resumes from its cursor).
 */
export function leaveTokenPass(pass: string): string {
  return `INSERT INTO index_backfill_cursors (name, after_key)
        SELECT '${pass}', '' WHERE EXISTS (SELECT 1 FROM latest_account_states)
        ON CONFLICT (name) DO NOTHING`;
}

export const TOKEN_BACKFILL_MIGRATION: Migration = {
  version: 7,
  name: 'tokens: back-fill of the token and DNS rows of accounts indexed before token detection',
  statements() {
    return [
      `CREATE TABLE IF NOT EXISTS index_backfill_cursors (name TEXT PRIMARY KEY, after_key TEXT NOT NULL)`,
      leaveTokenPass(TOKEN_BACKFILL),
    ];
  },
};
