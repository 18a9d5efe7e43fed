/**
 * dns_entries queries, with ton-index-go's filter and order (crud_dns.go): by wallet record or by exact
 * domain, shortest domain first then alphabetical; and the address book's `domain`: for each account, the
 * shortest domain it owns whose wallet record points back at it.
 */
import type { SqlReads, SqlRow } from '../sql/driver.js';
import { optionalText, text } from '../sql/values.js';
import { Where } from '../sql/where.js';
import type { Page } from '../types.js';

export interface DnsRecordRecord {
  itemAddress: string;
  itemOwner: string | null;
  domain: string;
  nextResolver: string | null;
  wallet: string | null;
  siteAdnl: string | null;
  storageBagId: string | null;
}

const LOOKUP_CHUNK = 500;

/** The address book's domain of an account: a domain it owns whose wallet record points back at it, shortest first, then alphabetical. */
const OWN_DOMAIN_CONDITION = 'dns_wallet = nft_item_owner';
const OWN_DOMAIN_ORDER = 'domain_length, domain';

/** That domain of the account `account` (an SQL expression) as a scalar subquery (IndexReader.transactionPeerStates). */
export function ownDomainSql(account: string): string {
  return `SELECT domain FROM dns_entries WHERE nft_item_owner = ${account} AND ${OWN_DOMAIN_CONDITION} ORDER BY ${OWN_DOMAIN_ORDER} LIMIT 1`;
}

function recordOf(row: SqlRow): DnsRecordRecord {
  return {
    itemAddress: text(row.nft_item_address),
    itemOwner: optionalText(row.nft_item_owner),
    domain: text(row.domain),
    nextResolver: optionalText(row.dns_next_resolver),
    wallet: optionalText(row.dns_wallet),
    siteAdnl: optionalText(row.dns_site_adnl),
    storageBagId: optionalText(row.dns_storage_bag_id),
  };
}

export class DnsReader {
  constructor(private readonly reads: SqlReads) {}

  /** Records whose wallet record is `wallet`, or of exactly `domain` (one of them is given). */
  async records(filter: { wallet?: string; domain?: string }, p: Page): Promise<DnsRecordRecord[]> {
    const where = new Where().add('dns_wallet = ?', filter.wallet).add('domain = ?', filter.domain);
    const rows = await this.reads.all(
      `SELECT * FROM dns_entries ${where} ORDER BY domain_length, domain LIMIT ${Math.trunc(p.limit)} OFFSET ${Math.trunc(p.offset)}`,
      where.params,
    );
    return rows.map(recordOf);
  }

  /** account -> its shortest domain whose wallet record is the account itself (accounts with none are absent). */
  async domainsOf(accounts: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const list = [...new Set(accounts)];
    for (let i = 0; i < list.length; i += LOOKUP_CHUNK) {
      const chunk = list.slice(i, i + LOOKUP_CHUNK);
      const rows = await this.reads.all(
        `SELECT nft_item_owner, domain FROM dns_entries WHERE nft_item_owner IN (${chunk.map(() => '?').join(', ')}) AND ${OWN_DOMAIN_CONDITION} ORDER BY nft_item_owner, ${OWN_DOMAIN_ORDER}`,
        chunk,
      );
      for (const row of rows) {
        const owner = text(row.nft_item_owner);
        if (!found.has(owner)) found.set(owner, text(row.domain));
      }
    }
    return found;
  }
}
