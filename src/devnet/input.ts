/** The parsers of devnet request bodies: each refusal is a 422 naming the field and what it should be. */
import { Address, type Cell } from '@ton/core';
import { ApiError } from '../http/api-error.js';
import { bocBudget, parseBoc, type BocBudget } from '../ton/boc.js';
import { showInput } from '../util/show-input.js';

/** A billion TON: more than any account of a local chain will hold (the balance field takes far more). */
export const MAX_NANOTONS = 1_000_000_000n * 1_000_000_000n;

export function address(raw: unknown, field = 'address'): Address {
  if (typeof raw !== 'string' || raw === '') throw new ApiError(422, `${field}: missing (a raw or user-friendly address)`);
  try {
    return Address.parse(raw);
  } catch {
    throw new ApiError(422, `${field}: not a TON address: ${JSON.stringify(showInput(raw, 80))}`);
  }
}

/** Nanotons as a decimal string (or a safe integer), from `min` to MAX_NANOTONS. */
export function nanotons(raw: unknown, field: string, min = 1n): bigint {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text))
    throw new ApiError(422, `${field}: expected nanotons as a decimal string, e.g. "1000000000"`);
  // A longer text is out of range anyway (and BigInt of a megabyte of digits is not free).
  const value = text.length > 40 ? MAX_NANOTONS + 1n : BigInt(text);
  if (value < min || value > MAX_NANOTONS) throw new ApiError(422, `${field}: must be between ${min} and ${MAX_NANOTONS} nanotons`);
  return value;
}

/** The largest jetton amount (Coins: VarUInteger 16, 120 bits). */
export const MAX_JETTON_UNITS = 2n ** 120n - 1n;

/** Jetton units (the smallest unit, before decimals) as a decimal string or a safe integer, from 1 to 2^120-1. */
export function jettonUnits(raw: unknown, field: string): bigint {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text))
    throw new ApiError(422, `${field}: expected jetton units as a decimal string, e.g. "1000000000"`);
  const value = text.length > 40 ? MAX_JETTON_UNITS + 1n : BigInt(text);
  if (value < 1n || value > MAX_JETTON_UNITS) throw new ApiError(422, `${field}: must be between 1 and ${MAX_JETTON_UNITS} (2^120-1)`);
  return value;
}

/** A non-empty string of at most `max` characters. */
export function text(raw: unknown, field: string, max: number): string {
  if (typeof raw !== 'string' || raw === '') throw new ApiError(422, `${field}: expected a non-empty string`);
  if (raw.length > max) throw new ApiError(422, `${field}: at most ${max} characters, got ${raw.length}`);
  return raw;
}

/** An integer from min to max, as a JSON number or a decimal string; `fallback` when absent. */
export function integer(raw: unknown, field: string, min: number, max: number, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  const value = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ApiError(422, `${field}: expected an integer from ${min} to ${max}, got ${showInput(raw === undefined ? 'nothing' : raw)}`);
  }
  return value;
}

/** A unix time in seconds (gen_utime is 32-bit unsigned). */
export const utime = (raw: unknown, field = 'utime'): number => integer(raw, field, 0, 0xffff_ffff);

/** Devnet BoCs (a contract's code and data) may be larger than a message: 8,192 cells, TON's max_msg_cells. */
export const devnetBocBudget = (): BocBudget => bocBudget(8_192);

export function boc(raw: unknown, field: string, budget: BocBudget): Cell {
  return parseBoc(raw, field, budget);
}

export function oneOf<T extends string>(raw: unknown, field: string, values: readonly T[]): T {
  if (typeof raw !== 'string' || !values.includes(raw as T))
    throw new ApiError(
      422,
      `${field}: expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${showInput(raw === undefined ? 'nothing' : raw)}`,
    );
  return raw as T;
}

/** Fields of the body this control does not know: refused, so a typo is not silently ignored. */
export function onlyFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new ApiError(422, `${showInput(unknown[0])}: unknown field (expected ${known.join(', ')})`);
}
