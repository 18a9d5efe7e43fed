/**
 * TEP-81 records as toncenter keeps them: the dictionary a domain item's dnsresolve("\0", 0) answers
 * (HashmapE 256 ^DNSRecord, keyed by sha256 of the category name), read for the four categories of
 * `dns_entries`. A record whose tag or layout is not the expected one is left out (null), never an error:
 * the dictionary is the owner's to fill with anything.
 *
 *   wallet             dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8)   -> raw address
 *   dns_next_resolver  dns_next_resolver#ba93 resolver:MsgAddressInt            -> raw address
 *   site               dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8)     -> 64 lowercase hex digits
 *   storage            dns_storage_address#7473 bag_id:bits256                   -> 64 lowercase hex digits
 */
import { Address, Dictionary, type Cell, type Slice } from '@ton/core';
import { DNS_CATEGORY } from '../../contracts/dns/dns.js';
import { formatRawUpper } from '../../ton/address.js';

export interface DnsRecords {
  wallet: string | null;
  nextResolver: string | null;
  siteAdnl: string | null;
  storageBagId: string | null;
}

export const NO_RECORDS: DnsRecords = { wallet: null, nextResolver: null, siteAdnl: null, storageBagId: null };

const TAG = { wallet: 0x9fd3, nextResolver: 0xba93, adnl: 0xad01, storage: 0x7473 } as const;

/** The records of a dictionary root (null: an empty dictionary). Throws when the cell is no HashmapE 256 of refs. */
export function parseDnsRecords(root: Cell | null): DnsRecords {
  if (!root) return NO_RECORDS;
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), root);
  const read = <T>(category: bigint, parse: (s: Slice) => T | null): T | null => {
    const record = dict.get(category);
    if (!record) return null;
    try {
      return parse(record.beginParse());
    } catch {
      return null;
    }
  };
  return {
    wallet: read(DNS_CATEGORY.wallet, (s) => (s.loadUint(16) === TAG.wallet ? internal(s) : null)),
    nextResolver: read(DNS_CATEGORY.nextResolver, (s) => (s.loadUint(16) === TAG.nextResolver ? internal(s) : null)),
    siteAdnl: read(DNS_CATEGORY.site, (s) => (s.loadUint(16) === TAG.adnl ? s.loadBuffer(32).toString('hex') : null)),
    storageBagId: read(DNS_CATEGORY.storage, (s) => (s.loadUint(16) === TAG.storage ? s.loadBuffer(32).toString('hex') : null)),
  };
}

function internal(s: Slice): string | null {
  const address = s.loadAddressAny();
  return Address.isAddress(address) ? formatRawUpper(address) : null;
}
