/**
 * The DNS migration (5): one row per domain item of a configured DNS root collection (toncenter's
 * `dns_entries`). Self-contained: it only adds a table, so it merges with other migrations whatever their order.
 *
 *   dns_entries  nft_item_address (the domain item), its owner, the domain ("alice.ton"), and the records of
 *                the categories toncenter keeps: dns_next_resolver, dns_wallet (raw addresses), dns_site_adnl,
 *                dns_storage_bag_id (64 hex digits), at the item's last detected state
 * Orders: `/dns/records` by (length(domain), domain) per wallet and per domain; the address book's
 * `domain` by the same per owner. The length is a stored column: SQLite and PostgreSQL index it alike.
 */
import { types, type Migration } from '../sql/column-types.js';

export const DNS_MIGRATION: Migration = {
  version: 5,
  name: 'dns: domains of DNS root collections and their wallet, site, storage and next-resolver records',
  statements(dialect) {
    const { int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS dns_entries (
        nft_item_address TEXT PRIMARY KEY,
        nft_item_owner TEXT,
        domain TEXT NOT NULL,
        domain_length INTEGER NOT NULL,
        dns_next_resolver TEXT,
        dns_wallet TEXT,
        dns_site_adnl TEXT,
        dns_storage_bag_id TEXT,
        last_transaction_lt ${int64} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS dns_entries_wallet ON dns_entries (dns_wallet, domain_length, domain)`,
      `CREATE INDEX IF NOT EXISTS dns_entries_domain ON dns_entries (domain)`,
      `CREATE INDEX IF NOT EXISTS dns_entries_owner ON dns_entries (nft_item_owner, domain_length, domain)`,
    ];
  },
};
