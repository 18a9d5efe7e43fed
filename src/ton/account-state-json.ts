/**
 * Account states in v3's shapes (a transaction's account_state_before / account_state_after).
 * The state hash is the hash of the Account cell, which a transaction's state_update records, so a
 * transaction always knows it; the details (balance, status, code and data hashes) come from the
 * state itself when the caller has it. Unknown details are null, as the index writes a nonexistent
 * account: {"hash": "...", "balance": null, "account_status": null, ...}.
 */
import type { Account, Cell, Dictionary } from '@ton/core';
import { bocBase64 } from './boc.js';
import { formatHash, hashFromBigInt } from './hash.js';
import { extraCurrenciesMap } from './tonlib-json.js';

/** v3 account status words. */
export type V3AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

/** What a v3 account state needs to know of an account; build it with accountStateInfo. */
export interface AccountStateInfo {
  status: V3AccountStatus;
  balance: bigint;
  extraCurrencies: Dictionary<number, bigint> | null;
  code: Cell | null;
  data: Cell | null;
  /** Frozen accounts: the hash of the state they were frozen with. */
  frozenHash: Buffer | null;
}

/** The details of an account as @ton/core loads it (null: the account does not exist). */
export function accountStateInfo(account: Account | null | undefined): AccountStateInfo {
  if (!account) return { status: 'nonexist', balance: 0n, extraCurrencies: null, code: null, data: null, frozenHash: null };
  const { balance, state } = account.storage;
  return {
    status: state.type,
    balance: balance.coins,
    extraCurrencies: balance.other ?? null,
    code: state.type === 'active' ? (state.state.code ?? null) : null,
    data: state.type === 'active' ? (state.state.data ?? null) : null,
    frozenHash: state.type === 'frozen' ? hashFromBigInt(state.stateHash) : null,
  };
}

export interface V3AccountStateJson {
  hash: string;
  balance: string | null;
  extra_currencies: Record<string, string> | null;
  account_status: V3AccountStatus | null;
  frozen_hash: string | null;
  data_hash: string | null;
  code_hash: string | null;
  data_boc?: string;
  code_boc?: string;
}

/**
 * v3 AccountState. `info` null: details unknown (a nonexistent account, or a state not kept).
 * `includeBoc` adds data_boc/code_boc (the /accountStates `include_boc` switch).
 */
export function v3AccountState(hash: Buffer, info: AccountStateInfo | null, includeBoc = false): V3AccountStateJson {
  if (info === null || info.status === 'nonexist') {
    return {
      hash: formatHash(hash),
      balance: null,
      extra_currencies: null,
      account_status: null,
      frozen_hash: null,
      data_hash: null,
      code_hash: null,
    };
  }
  const json: V3AccountStateJson = {
    hash: formatHash(hash),
    balance: info.balance.toString(),
    extra_currencies: extraCurrenciesMap(info.extraCurrencies),
    account_status: info.status,
    frozen_hash: info.frozenHash ? formatHash(info.frozenHash) : null,
    data_hash: info.data ? formatHash(info.data.hash()) : null,
    code_hash: info.code ? formatHash(info.code.hash()) : null,
  };
  if (includeBoc && info.data) json.data_boc = bocBase64(info.data);
  if (includeBoc && info.code) json.code_boc = bocBase64(info.code);
  return json;
}
