/**
 * TEP-64 token content cells, as the contracts here (and the tests) store them:
 *   offchain  0x01 + snake string (the URI)
 *   onchain   0x00 + HashmapE 256 (sha256 of the key name) -> ^(0x00 + snake bytes)
 * src/api/v2/contracts/token-content.ts reads both forms (and chunked values) back.
 */
import { createHash } from 'node:crypto';
import { beginCell, Dictionary, type Cell } from '@ton/core';

export function offchainContent(uri: string): Cell {
  return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

/** Keys are attribute names (`name`, `symbol`, `decimals`, `image`...), values UTF-8 text. */
export function onchainContent(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [key, value] of Object.entries(fields)) {
    dict.set(sha256Key(key), beginCell().storeUint(0, 8).storeStringTail(value).endCell());
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** sha256 of a name as a 256-bit key: TEP-64 attribute keys and TEP-81 DNS categories. */
export function sha256Key(name: string): bigint {
  return BigInt(`0x${createHash('sha256').update(name).digest('hex')}`);
}
