/**
 * Migration 8: NFT sales (sales.ts), what toncenter's indexer keeps as getgems_nft_sales: one row per detected
 * fixed-price sale contract, its last detected state. An item's `on_sale`, `sale_contract_address` and
 * `real_owner` are read by joining it (nft-reader.ts: the item's owner is a sale of that item), not stored in
 * nft_items, so the order in which a sale and its item are detected does not matter.
 * Self-contained (one table and its indexes, IF NOT EXISTS), so older indexes upgrade in place and it merges with
 * the other migrations whatever their order.
 */
import { types, type Migration } from '../sql/column-types.js';

export const NFT_SALES_MIGRATION: Migration = {
  version: 8,
  name: 'tokens: NFT sales (getgems fixed-price layout)',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS nft_sales (
        address TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        is_complete INTEGER NOT NULL,
        created_at ${int64} NOT NULL,
        marketplace_address TEXT,
        nft_address TEXT NOT NULL,
        nft_owner_address TEXT,
        full_price TEXT NOT NULL,
        marketplace_fee_address TEXT,
        marketplace_fee TEXT NOT NULL,
        royalty_address TEXT,
        royalty_amount TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      // /nft/items?owner_address=&include_on_sale=true: the items its sellers listed.
      `CREATE INDEX IF NOT EXISTS nft_sales_owner ON nft_sales (nft_owner_address, nft_address)`,
      `CREATE INDEX IF NOT EXISTS nft_sales_nft ON nft_sales (nft_address)`,
    ];
  },
};
