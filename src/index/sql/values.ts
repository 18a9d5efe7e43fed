/**
 * Column values as the stores hand them back: SQLite (safe integers) gives bigint for every integer,
 * PostgreSQL gives number for int4 and bigint for int8 (see the pool's type parser). These helpers
 * read either.
 */
import { WHOLE_SHARD } from '../../ton/workchain.js';

export function int(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return Number(value);
  throw new TypeError(`expected an integer column, got ${typeof value}`);
}

export function bigint(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' || typeof value === 'string') return BigInt(value);
  throw new TypeError(`expected an integer column, got ${typeof value}`);
}

export function optionalBigint(value: unknown): bigint | null {
  return value === null || value === undefined ? null : bigint(value);
}

export function bytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  throw new TypeError(`expected a bytes column, got ${typeof value}`);
}

export function optionalBytes(value: unknown): Buffer | null {
  return value === null || value === undefined ? null : bytes(value);
}

export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  throw new TypeError(`expected a text column, got ${typeof value}`);
}

export function optionalText(value: unknown): string | null {
  return value === null || value === undefined ? null : text(value);
}

/** A signed 64-bit column value (how shard ids are stored) as the unsigned shard id. */
export function unsignedShard(value: unknown): bigint {
  return BigInt.asUintN(64, bigint(value));
}

/** The unsigned shard id as the signed 64-bit value the columns hold (as toncenter's index stores it). */
export function signedShard(shard: bigint): bigint {
  return BigInt.asIntN(64, shard);
}

/** The masterchain's one shard (the whole shard) as its columns hold it. */
export const MASTERCHAIN_SHARD_COLUMN = signedShard(WHOLE_SHARD);

/** Zero-padded decimal width of balance_order: VarUInteger 16 holds at most 2^120 (37 digits). */
const BALANCE_DIGITS = 40;

/** A balance as the text a balance_order column holds: sorted as text, it sorts as the number. */
export function balanceOrder(balance: bigint): string {
  return balance.toString().padStart(BALANCE_DIGITS, '0');
}
