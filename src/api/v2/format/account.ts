/**
 * An account as of one masterchain block (chain/types' AccountState), in the v2 shapes built on tonlib's
 * `raw.fullAccountState`. State words follow toncenter: an account without code is "uninitialized"
 * (whether it has a balance or never existed), a frozen one "frozen"; code and data are "" when absent,
 * never null (TonClient's zod schema rejects null).
 */
import type { AccountState, AccountStatus } from '../../../chain/types.js';
import { blockIdExt, type TonBlockIdExt } from '../../../ton/block-id.js';
import { formatHash } from '../../../ton/hash.js';
import { transactionId, type ExtraCurrencyJson, type InternalTransactionId } from '../../../ton/tonlib-json.js';
import { cachedBocBase64 } from './cached-boc.js';

export type V2AccountState = 'active' | 'uninitialized' | 'frozen';

export function v2AccountState(status: AccountStatus): V2AccountState {
  if (status === 'active') return 'active';
  return status === 'frozen' ? 'frozen' : 'uninitialized';
}

export function lastTransactionId(state: AccountState): InternalTransactionId {
  return transactionId(state.lastTxLt, state.lastTxHash);
}

export function accountExtraCurrencies(state: AccountState): ExtraCurrencyJson[] {
  return state.extraCurrencies.map(({ id, amount }) => ({ '@type': 'extraCurrency', id, amount: amount.toString() }));
}

export interface RawFullAccountState {
  '@type': 'raw.fullAccountState';
  balance: string;
  extra_currencies: ExtraCurrencyJson[];
  code: string;
  data: string;
  last_transaction_id: InternalTransactionId;
  block_id: TonBlockIdExt;
  frozen_hash: string;
  sync_utime: number;
  state: V2AccountState;
}

/** getAddressInformation. */
export function rawFullAccountState(state: AccountState): RawFullAccountState {
  return {
    '@type': 'raw.fullAccountState',
    balance: state.balance.toString(),
    extra_currencies: accountExtraCurrencies(state),
    code: state.code ? cachedBocBase64(state.code) : '',
    data: state.data ? cachedBocBase64(state.data) : '',
    last_transaction_id: lastTransactionId(state),
    block_id: blockIdExt(state.block),
    frozen_hash: state.frozenHash ? formatHash(state.frozenHash) : '',
    sync_utime: state.syncUtime,
    state: v2AccountState(state.state),
  };
}
