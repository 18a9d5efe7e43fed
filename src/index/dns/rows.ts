/** dns_entries rows: one per domain item, its newest state winning (as the token tables' upserts). */
import type { InsertBatch } from '../sql/driver.js';
import type { DnsRecords } from './records.js';

export interface DnsEntryRow {
  item: string;
  owner: string | null;
  domain: string;
  records: DnsRecords;
  lastTxLt: bigint;
}

const COLUMNS = [
  'nft_item_address',
  'nft_item_owner',
  'domain',
  'domain_length',
  'dns_next_resolver',
  'dns_wallet',
  'dns_site_adnl',
  'dns_storage_bag_id',
  'last_transaction_lt',
];

export function dnsEntryBatch(rows: DnsEntryRow[]): InsertBatch {
  return {
    table: 'dns_entries',
    columns: COLUMNS,
    rows: rows.map((r) => [
      r.item,
      r.owner,
      r.domain,
      r.domain.length,
      r.records.nextResolver,
      r.records.wallet,
      r.records.siteAdnl,
      r.records.storageBagId,
      r.lastTxLt,
    ]),
    conflict: `ON CONFLICT (nft_item_address) DO UPDATE SET ${COLUMNS.slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(', ')} WHERE excluded.last_transaction_lt >= dns_entries.last_transaction_lt`,
  };
}
