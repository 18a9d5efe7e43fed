/**
 * Migration 18: getgems NFT auctions (auctions.ts), what toncenter's indexer keeps as getgems_nft_auctions: one row
 * per detected auction contract, its last detected state. A table of its own, not nft_sales: an auction has no
 * price, fee amounts or royalty amount (nft_sales holds them NOT NULL) but bids, fee factors and times. An item
 * held by an auction is read by joining it (nft-reader.ts), as sales are.
 * Self-contained (one table and its indexes, IF NOT EXISTS), so older indexes upgrade in place. An index that already
 * holds accounts met its auctions before this detector existed and refused them as no sale (and would get them only
 * at their next change): it gets the auction back-fill's cursor ('auctions', backfill-schema.ts), a pass of the token
 * back-fill over the accounts whose code offers get_sale_data or get_auction_data_v4 (backfill.ts).
 */
import { types, type Migration } from '../sql/column-types.js';
import { AUCTION_BACKFILL, leaveTokenPass } from './backfill-schema.js';

export const NFT_AUCTIONS_MIGRATION: Migration = {
  version: 18,
  name: 'tokens: NFT auctions (getgems auction layouts)',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS nft_auctions (
        address TEXT PRIMARY KEY,
        nft_addr TEXT NOT NULL,
        nft_owner TEXT,
        mp_addr TEXT NOT NULL,
        end_flag INTEGER NOT NULL,
        end_time ${int64} NOT NULL,
        last_bid TEXT NOT NULL,
        last_member TEXT,
        min_step ${int64} NOT NULL,
        mp_fee_addr TEXT NOT NULL,
        mp_fee_factor ${int64} NOT NULL,
        mp_fee_base ${int64} NOT NULL,
        royalty_fee_addr TEXT NOT NULL,
        royalty_fee_factor ${int64} NOT NULL,
        royalty_fee_base ${int64} NOT NULL,
        max_bid TEXT NOT NULL,
        min_bid TEXT NOT NULL,
        created_at ${int64} NOT NULL,
        last_bid_at ${int64} NOT NULL,
        is_canceled INTEGER NOT NULL,
        activated INTEGER,
        step_time ${int64},
        last_query_id TEXT,
        jetton_wallet TEXT,
        jetton_master TEXT,
        is_broken_state INTEGER,
        public_key TEXT,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      // /nft/items?owner_address=&include_on_sale=true: the items its sellers put on auction.
      `CREATE INDEX IF NOT EXISTS nft_auctions_owner ON nft_auctions (nft_owner, nft_addr)`,
      `CREATE INDEX IF NOT EXISTS nft_auctions_nft ON nft_auctions (nft_addr)`,
      leaveTokenPass(AUCTION_BACKFILL),
    ];
  },
};
