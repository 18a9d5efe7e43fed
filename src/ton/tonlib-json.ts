/**
 * Small tonlib JSON objects shared by many v2 results. tonlib's TL -> JSON rule: int64 (lt, balances,
 * fees) travel as decimal strings, bytes as standard base64.
 */
import type { Dictionary } from '@ton/core';
import { formatHash } from './hash.js';

export interface InternalTransactionId {
  '@type': 'internal.transactionId';
  lt: string;
  hash: string;
}

/** `internal.transactionId`; lt "0" with the zero hash means "no transaction" to TonClient. */
export function transactionId(lt: bigint, hash: Buffer): InternalTransactionId {
  return { '@type': 'internal.transactionId', lt: lt.toString(), hash: formatHash(hash) };
}

export interface AccountAddressJson {
  '@type': 'accountAddress';
  account_address: string;
}

/** `accountAddress` around an already formatted address ("" for none). */
export function accountAddress(formatted: string): AccountAddressJson {
  return { '@type': 'accountAddress', account_address: formatted };
}

export interface ExtraCurrencyJson {
  '@type': 'extraCurrency';
  id: number;
  amount: string;
}

/** v2 extra currencies: [{"@type":"extraCurrency","id":239,"amount":"1000"}], [] when none. */
export function extraCurrencies(other: Dictionary<number, bigint> | null | undefined): ExtraCurrencyJson[] {
  if (!other) return [];
  return [...other].map(([id, amount]) => ({ '@type': 'extraCurrency', id, amount: amount.toString() }));
}

/** v3 extra currencies: {"239": "1000"}, {} when none. */
export function extraCurrenciesMap(other: Dictionary<number, bigint> | null | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  if (other) for (const [id, amount] of other) map[String(id)] = amount.toString();
  return map;
}
