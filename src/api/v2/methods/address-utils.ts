/** Pure conversions of addresses and hashes (no chain involved): src/ton does the work. */
import { detectAddress, packAddress, unpackAddress } from '../../../ton/address.js';
import { detectHash } from '../../../ton/hash.js';
import { defineMethod } from '../method.js';
import { codec } from '../params.js';

const address = { type: 'string', required: true, description: 'An address in any form.' } as const;

export const detectAddressMethod = defineMethod({
  name: 'detectAddress',
  verbs: ['GET', 'POST'],
  summary: 'An address in every form: raw, bounceable and non-bounceable, base64 and base64url.',
  params: { address },
  handle(p, network) {
    return codec('address', () => detectAddress(p.address, network.testOnly));
  },
});

export const detectHashMethod = defineMethod({
  name: 'detectHash',
  verbs: ['GET', 'POST'],
  summary: 'A 32-byte hash as hex, base64 and base64url.',
  params: { hash: { type: 'string', required: true, description: 'A hash as hex, base64 or base64url.' } },
  handle(p) {
    return codec('hash', () => detectHash(p.hash));
  },
});

export const packAddressMethod = defineMethod({
  name: 'packAddress',
  verbs: ['GET', 'POST'],
  summary: 'The user-friendly (bounceable, url-safe) form of an address.',
  params: { address },
  handle(p, network) {
    return codec('address', () => packAddress(p.address, network.testOnly));
  },
});

export const unpackAddressMethod = defineMethod({
  name: 'unpackAddress',
  verbs: ['GET', 'POST'],
  summary: 'The raw form of an address (wc:HEX, as the C++ server writes it).',
  params: { address },
  handle(p) {
    return codec('address', () => unpackAddress(p.address));
  },
});
