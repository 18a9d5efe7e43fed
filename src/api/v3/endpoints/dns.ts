/**
 * /dns/records: the dns_entries the index fills (src/index/dns), with toncenter's parameters (exactly one of
 * `wallet` or `domain`), default limit (100), 422s and order (shortest domain first: ton-index-go crud_dns.go).
 * Its answer has an address_book and, as toncenter's, no `metadata`.
 */
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { addressBookOf } from '../format/address-book.js';
import { dnsRecordJson } from '../format/dns.js';

export const DNS_RECORDS_LIMIT = 100;

export const dnsRecords = defineEndpoint({
  path: '/dns/records',
  tag: 'dns',
  summary: 'DNS records of the domains of the DNS root collections the index knows (--dns-root)',
  params: {
    wallet: {
      type: 'address',
      description: 'Wallet address in any form. DNS records that contain this address in wallet category will be returned.',
    },
    domain: { type: 'string', description: 'Domain name to search for. DNS records with this exact domain name will be returned.' },
    limit: { type: 'limit', default: DNS_RECORDS_LIMIT, description: 'Limit number of queried rows. Use with *offset* to batch read.' },
    offset: { type: 'offset', description: 'Skip first N rows. Use with *limit* to batch read.' },
  },
  response: ref('DNSRecordsResponse'),
  async handle(p, network) {
    if (p.wallet === undefined && p.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
    if (p.wallet !== undefined && p.domain !== undefined) throw new ApiError(422, 'provide either wallet address or domain, not both');
    const reader = indexOf(network);
    const records = await reader.dns.records({ wallet: p.wallet, domain: p.domain }, p);
    const addresses = records.flatMap((r) => [r.itemAddress, r.itemOwner, r.wallet]);
    return {
      records: records.map(dnsRecordJson),
      address_book: addressBookOf(addresses, await reader.addressBookStates(addresses), network.testOnly),
    };
  },
});
