/**
 * 32-byte hashes (transactions, messages, blocks, cells). Clients send them as hex (TonClient converts
 * to hex before calling getTransactions), standard base64 or url-safe base64; toncenter always writes
 * standard padded base64 (44 characters), and TonClient compares that string byte for byte.
 */
import { HashParseError } from './errors.js';

const HEX_FORM = /^(?:0x)?[0-9a-fA-F]{64}$/;
// 43 significant characters carry 258 bits: the last one may only use its top 4 bits (checked below).
const BASE64_FORM = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL_FORM = /^[A-Za-z0-9_-]{43}=?$/;

/** All-zero hash: toncenter's "no last transaction" hash. */
export const ZERO_HASH: Buffer = Buffer.alloc(32);

/** Parses a 32-byte hash from hex (optional 0x), base64 or base64url (padding optional). */
export function parseHash(input: unknown): Buffer {
  if (typeof input !== 'string') throw new HashParseError(input, 'a hash must be a string');
  if (HEX_FORM.test(input)) return Buffer.from(input.replace(/^0x/, ''), 'hex');
  const isStd = BASE64_FORM.test(input);
  if (isStd || BASE64URL_FORM.test(input)) {
    const bytes = Buffer.from(input, isStd ? 'base64' : 'base64url');
    // Buffer decoding ignores stray low bits of the last character; a canonical hash has none.
    const canonical = bytes.toString(isStd ? 'base64' : 'base64url').replace(/=+$/, '');
    if (bytes.length === 32 && canonical === input.replace(/=+$/, '')) return bytes;
    throw new HashParseError(input, 'not a canonical base64 encoding of 32 bytes');
  }
  throw new HashParseError(input, 'expected 64 hex characters or 44 base64/base64url characters');
}

/** Standard padded base64, the only form toncenter writes. */
export function formatHash(hash: Buffer): string {
  return hash.toString('base64');
}

/** Hashes carried as 256-bit integers by @ton/core (e.g. prevTransactionHash) as 32 bytes. */
export function hashFromBigInt(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

export interface DetectedHash {
  '@type': 'ext.utils.detectedHash';
  b64: string;
  b64url: string;
  hex: string;
}

/** v2 detectHash result (b64url keeps its padding, hex is lowercase). */
export function detectHash(input: unknown): DetectedHash {
  const hash = parseHash(input);
  const b64 = formatHash(hash);
  return {
    '@type': 'ext.utils.detectedHash',
    b64,
    b64url: b64.replace(/\+/g, '-').replace(/\//g, '_'),
    hex: hash.toString('hex'),
  };
}
