/**
 * dnsResolve: TON DNS records of a domain, starting at the resolver `address` (a .ton root, a
 * collection or any dnsresolve contract), following next-resolver records up to `ttl` hops.
 */
import { defineMethod } from '../method.js';
import { categoryOf, resolveDns } from '../contracts/dns.js';
import { ADDRESS, SEQNO_OPTIONAL } from './common-params.js';

export const dnsResolve = defineMethod({
  name: 'dnsResolve',
  verbs: ['GET', 'POST'],
  summary: 'TON DNS records of a domain (dns.resolved), asked of the resolver at address.',
  params: {
    address: { ...ADDRESS, description: 'The resolver to start at.' },
    name: {
      type: 'string',
      default: '',
      description: 'Domain relative to the resolver, e.g. "alice.ton" at the root ("" = its own records).',
    },
    category: {
      type: 'string',
      description: 'Record category: a name (wallet, site, storage, dns_next_resolver) or a 256-bit number; default all.',
    },
    ttl: { type: 'int', default: 16, min: 0, max: 64, description: 'How many next-resolver records to follow.' },
    seqno: SEQNO_OPTIONAL,
  },
  async handle({ address, name, category, ttl, seqno }, network) {
    const entries = await resolveDns(network, { resolver: address, name, category: categoryOf(category), ttl, seqno });
    return { '@type': 'dns.resolved', entries };
  },
});
