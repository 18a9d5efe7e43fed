/**
 * The tokens migration: what the index knows of jetton contracts and the transfers and burns their
 * wallets processed, plus the interface names of every account's code (address_book `interfaces`).
 * Self-contained like the traces migration: it only adds tables and one column, so it merges with other
 * migrations whatever their order.
 *
 *   jetton_masters    one row per detected master (get_jetton_data), its last detected state
 *   jetton_wallets    one row per detected wallet (get_wallet_data, vouched for by its master)
 *   jetton_transfers  one row per transaction of a jetton wallet whose inbound message is a
 *                     jetton `transfer` (0x0f8a7ea5); `source`/`destination` are owners, as toncenter's
 *   jetton_burns      the same for `burn` (0x595f07bc)
 *   nft_collections   one row per detected collection (get_collection_data)
 *   nft_items         one row per detected item (get_nft_data, vouched for by its collection); index_order is
 *                     the index zero-padded, so it sorts as a number
 *   nft_transfers     one row per transaction of an item whose inbound message is `transfer` (0x5fcc3d14)
 *   latest_account_states.interfaces  JSON list of the interfaces the code's method ids say (render thread)
 * `first_lt` is toncenter's `id` (insertion order): the contract's last transaction lt when it was first
 * detected, kept by every later upsert; ties broken by address.
 * Orders the endpoints need: masters by first_lt (per admin); wallets by first_lt and by balance per
 * owner and per jetton; transfers and burns by tx_lt (and tx_now when a utime bound is given) per
 * filter column.
 */
import { addColumn, types, type Migration } from '../sql/column-types.js';

export const TOKENS_MIGRATION: Migration = {
  version: 4,
  name: 'tokens: jetton masters, wallets, transfers, burns; NFT collections, items, transfers; interfaces of latest account states',
  statements(dialect) {
    const { bytes, int64, sortableText } = types(dialect);
    const events = (table: string, columns: string) => `CREATE TABLE IF NOT EXISTS ${table} (
        tx_hash ${bytes} PRIMARY KEY,
        tx_lt ${int64} NOT NULL,
        tx_now ${int64} NOT NULL,
        tx_aborted INTEGER NOT NULL,
        mc_seqno INTEGER NOT NULL,
        query_id TEXT NOT NULL,
        amount TEXT NOT NULL,
        jetton_wallet_address TEXT NOT NULL,
        jetton_master_address TEXT NOT NULL,
        response_destination TEXT,
        custom_payload ${bytes},
        trace_id ${bytes},
        ${columns}
      )`;
    const orders = (table: string, columns: string[]) =>
      columns.flatMap((c) => [
        `CREATE INDEX IF NOT EXISTS ${table}_${c}_lt ON ${table} (${c}, tx_lt)`,
        `CREATE INDEX IF NOT EXISTS ${table}_${c}_now ON ${table} (${c}, tx_now, tx_lt)`,
      ]);
    return [
      addColumn(dialect, 'latest_account_states', 'interfaces', 'TEXT'),
      `CREATE TABLE IF NOT EXISTS jetton_masters (
        address TEXT PRIMARY KEY,
        total_supply TEXT NOT NULL,
        mintable INTEGER NOT NULL,
        admin_address TEXT,
        jetton_content TEXT NOT NULL,
        jetton_wallet_code_hash ${bytes} NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS jetton_masters_order ON jetton_masters (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS jetton_masters_admin ON jetton_masters (admin_address, first_lt)`,
      `CREATE TABLE IF NOT EXISTS jetton_wallets (
        address TEXT PRIMARY KEY,
        balance TEXT NOT NULL,
        balance_order ${sortableText} NOT NULL,
        owner TEXT NOT NULL,
        jetton TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        mintless_is_claimed INTEGER,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS jetton_wallets_order ON jetton_wallets (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS jetton_wallets_owner ON jetton_wallets (owner, first_lt)`,
      `CREATE INDEX IF NOT EXISTS jetton_wallets_jetton ON jetton_wallets (jetton, first_lt)`,
      `CREATE INDEX IF NOT EXISTS jetton_wallets_owner_balance ON jetton_wallets (owner, balance_order)`,
      `CREATE INDEX IF NOT EXISTS jetton_wallets_jetton_balance ON jetton_wallets (jetton, balance_order)`,
      events(
        'jetton_transfers',
        `source TEXT,
        destination TEXT,
        forward_ton_amount TEXT,
        forward_payload ${bytes}`,
      ),
      `CREATE INDEX IF NOT EXISTS jetton_transfers_lt ON jetton_transfers (tx_lt)`,
      `CREATE INDEX IF NOT EXISTS jetton_transfers_now ON jetton_transfers (tx_now, tx_lt)`,
      ...orders('jetton_transfers', ['source', 'destination', 'jetton_wallet_address', 'jetton_master_address']),
      events('jetton_burns', 'owner TEXT'),
      `CREATE INDEX IF NOT EXISTS jetton_burns_lt ON jetton_burns (tx_lt)`,
      `CREATE INDEX IF NOT EXISTS jetton_burns_now ON jetton_burns (tx_now, tx_lt)`,
      ...orders('jetton_burns', ['owner', 'jetton_wallet_address', 'jetton_master_address']),
      `CREATE TABLE IF NOT EXISTS nft_collections (
        address TEXT PRIMARY KEY,
        next_item_index TEXT NOT NULL,
        owner_address TEXT,
        collection_content TEXT NOT NULL,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS nft_collections_order ON nft_collections (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS nft_collections_owner ON nft_collections (owner_address, first_lt)`,
      `CREATE TABLE IF NOT EXISTS nft_items (
        address TEXT PRIMARY KEY,
        init INTEGER NOT NULL,
        item_index TEXT NOT NULL,
        index_order ${sortableText} NOT NULL,
        collection_address TEXT,
        owner_address TEXT,
        content TEXT,
        last_transaction_lt ${int64} NOT NULL,
        code_hash ${bytes} NOT NULL,
        data_hash ${bytes} NOT NULL,
        first_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS nft_items_order ON nft_items (first_lt, address)`,
      `CREATE INDEX IF NOT EXISTS nft_items_owner ON nft_items (owner_address, collection_address, index_order)`,
      `CREATE INDEX IF NOT EXISTS nft_items_collection ON nft_items (collection_address, index_order)`,
      `CREATE INDEX IF NOT EXISTS nft_items_last_lt ON nft_items (last_transaction_lt)`,
      `CREATE TABLE IF NOT EXISTS nft_transfers (
        tx_hash ${bytes} PRIMARY KEY,
        tx_lt ${int64} NOT NULL,
        tx_now ${int64} NOT NULL,
        tx_aborted INTEGER NOT NULL,
        mc_seqno INTEGER NOT NULL,
        query_id TEXT NOT NULL,
        nft_item_address TEXT NOT NULL,
        nft_item_index TEXT NOT NULL,
        nft_collection_address TEXT,
        old_owner TEXT,
        new_owner TEXT,
        response_destination TEXT,
        custom_payload ${bytes},
        forward_amount TEXT,
        forward_payload ${bytes},
        trace_id ${bytes}
      )`,
      `CREATE INDEX IF NOT EXISTS nft_transfers_lt ON nft_transfers (tx_lt)`,
      `CREATE INDEX IF NOT EXISTS nft_transfers_now ON nft_transfers (tx_now, tx_lt)`,
      ...orders('nft_transfers', ['old_owner', 'new_owner', 'nft_item_address', 'nft_collection_address']),
    ];
  },
};
