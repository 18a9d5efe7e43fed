/**
 * The one ed25519 check every validator signature of a block proof goes through (ordinary and simplex
 * signature sets alike), so the rule of what is accepted lives here and nowhere else.
 *
 * node:crypto (OpenSSL) verifies; a public key becomes a KeyObject once and is kept, because validator sets
 * repeat from one key block to the next (a start-up on mainnet checks ~100 signatures per key block over a
 * thousand key blocks, by a few hundred distinct validators). The key is imported as a JWK: OpenSSL 3 decodes
 * an SPKI DER key ~10 times slower (~120 µs against ~12 µs here), which was a third of a key-block link's CPU.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** Keys kept: several validator sets' worth (mainnet's config 34 lists ~400 validators). */
const CAPACITY = 4096;
const keys = new Map<string, KeyObject | null>();

/** Whether `signature` is `publicKey`'s ed25519 signature of `message`; false for malformed input, never throws. */
export function verifyEd25519(publicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const key = keyObject(publicKey);
  if (!key) return false;
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

function keyObject(publicKey: Buffer): KeyObject | null {
  const x = publicKey.toString('base64url');
  let key = keys.get(x);
  if (key !== undefined) return key;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  } catch {
    key = null; // not a key OpenSSL can use: nothing it signs verifies
  }
  if (keys.size >= CAPACITY) keys.delete(keys.keys().next().value as string);
  keys.set(x, key);
  return key;
}
