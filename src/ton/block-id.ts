/**
 * Block ids and shard ids in the two shapes the APIs use.
 *
 * A shard id is a 64-bit prefix (0x8000000000000000 for a whole workchain). Internally it is an
 * UNSIGNED bigint. v2 writes it as tonlib does, a SIGNED int64 in a decimal string
 * (0x8000000000000000 -> "-9223372036854775808"); v3 writes it as the index does, unsigned uppercase
 * hex with no padding (Go's %X: "8000000000000000", "2000000000000000").
 */
import { ShardParseError } from './errors.js';
import { formatHash } from './hash.js';

const INT64_MIN = -(1n << 63n);
const UINT64_LIMIT = 1n << 64n;

/** Where a block sits: the minimal input shape (chain/types' BlockRef fits it). */
export interface BlockRefInput {
  workchain: number;
  shard: bigint;
  seqno: number;
}

/** A full block id (chain/types' BlockId fits it). */
export interface BlockIdInput extends BlockRefInput {
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface TonBlockIdExt {
  '@type': 'ton.blockIdExt';
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** v2 shard: signed int64 as a decimal string. */
export function formatV2Shard(shard: bigint): string {
  return BigInt.asIntN(64, shard).toString();
}

/** v2 `ton.blockIdExt`. */
export function blockIdExt(id: BlockIdInput): TonBlockIdExt {
  return {
    '@type': 'ton.blockIdExt',
    workchain: id.workchain,
    shard: formatV2Shard(id.shard),
    seqno: id.seqno,
    root_hash: formatHash(id.rootHash),
    file_hash: formatHash(id.fileHash),
  };
}

/** Any 64-bit value given signed or unsigned, as the unsigned shard id. */
function toUnsigned64(value: bigint, input: unknown): bigint {
  if (value < INT64_MIN || value >= UINT64_LIMIT) throw new ShardParseError(input, 'out of the 64-bit range');
  return BigInt.asUintN(64, value);
}

/**
 * v2 shard parameter: a JSON integer, a signed decimal string (what tonlib, TonClient and tonweb
 * send), an unsigned decimal string, or `0x`-prefixed hex.
 */
export function parseV2Shard(input: unknown): bigint {
  if (typeof input === 'bigint') return toUnsigned64(input, input);
  if (typeof input === 'number') {
    // -2^63 and 2^63 are exact doubles; other shard ids beyond 2^53 must come as strings.
    if (!Number.isInteger(input)) throw new ShardParseError(input, 'not an integer');
    return toUnsigned64(BigInt(input), input);
  }
  if (typeof input !== 'string') throw new ShardParseError(input, 'expected a decimal string or a number');
  if (/^-?\d{1,20}$/.test(input)) return toUnsigned64(BigInt(input), input);
  if (/^0x[0-9a-fA-F]{1,16}$/.test(input)) return BigInt(input);
  throw new ShardParseError(input, 'expected a signed decimal int64 (e.g. -9223372036854775808) or 0x-hex');
}

/** v3 shard: unsigned uppercase hex, unpadded (Go %X). */
export function formatV3Shard(shard: bigint): string {
  return BigInt.asUintN(64, shard).toString(16).toUpperCase();
}

/**
 * v3 shard parameter, as the index reads it: hex first (optional 0x, e.g. `8000000000000000`), then
 * signed decimal (e.g. `-9223372036854775808`).
 */
export function parseV3Shard(input: unknown): bigint {
  if (typeof input !== 'string') throw new ShardParseError(input, 'expected a hex string');
  const hex = input.startsWith('0x') ? input.slice(2) : input;
  if (/^[0-9a-fA-F]{1,16}$/.test(hex)) return BigInt(`0x${hex}`);
  if (/^-?\d{1,19}$/.test(input)) {
    const value = BigInt(input);
    if (value >= INT64_MIN && value < 1n << 63n) return BigInt.asUintN(64, value);
  }
  throw new ShardParseError(input, 'expected unsigned hex (e.g. 8000000000000000) or a signed decimal int64');
}

export interface V3BlockRef {
  workchain: number;
  shard: string;
  seqno: number;
}

/** v3 BlockId (block_ref, masterchain_block_ref, prev_blocks). */
export function v3BlockRef(ref: BlockRefInput): V3BlockRef {
  return { workchain: ref.workchain, shard: formatV3Shard(ref.shard), seqno: ref.seqno };
}
