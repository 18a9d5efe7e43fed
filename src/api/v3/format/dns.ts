/** A dns_entries row as toncenter's DNSRecord (addresses raw uppercase, ADNL and bag ids as 64 hex digits). */
import type { DnsRecordRecord } from '../../../index/dns/reader.js';

export function dnsRecordJson(r: DnsRecordRecord) {
  return {
    nft_item_address: r.itemAddress,
    nft_item_owner: r.itemOwner,
    domain: r.domain,
    dns_next_resolver: r.nextResolver,
    dns_wallet: r.wallet,
    dns_site_adnl: r.siteAdnl,
    dns_storage_bag_id: r.storageBagId,
  };
}
