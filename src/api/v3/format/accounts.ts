/**
 * Account states in the shapes of /accountStates (AccountStateFull) and /walletStates (WalletState),
 * from the index's latest state of each account. Field order and "omit when absent" follow
 * toncenter's index (Go omitempty).
 */
import type { LatestStateRecord } from '../../../index/read/records.js';
import { formatHash } from '../../../ton/hash.js';
import { interfacesOf } from './interfaces.js';

const extraCurrencies = (state: LatestStateRecord): Record<string, string> =>
  state.extraCurrencies ? JSON.parse(state.extraCurrencies) : {};
const hashOrOmit = (key: string, hash: Buffer | null) => (hash ? { [key]: formatHash(hash) } : {});
const bocOrOmit = (key: string, boc: Buffer | null) => (boc ? { [key]: boc.toString('base64') } : {});

export function accountStateFull(state: LatestStateRecord, includeBoc: boolean): Record<string, unknown> {
  return {
    address: state.account,
    account_state_hash: formatHash(state.stateHash),
    balance: state.balance,
    extra_currencies: extraCurrencies(state),
    status: state.status,
    ...hashOrOmit('frozen_hash', state.frozenHash),
    last_transaction_hash: formatHash(state.lastTransHash),
    last_transaction_lt: state.lastTransLt.toString(),
    ...hashOrOmit('data_hash', state.dataHash),
    ...hashOrOmit('code_hash', state.codeHash),
    ...(includeBoc ? { ...bocOrOmit('data_boc', state.dataBoc), ...bocOrOmit('code_boc', state.codeBoc) } : {}),
    // Get-method ids are not extracted from code: null says "unknown", not "none".
    contract_methods: null,
    interfaces: interfacesOf(state),
  };
}

/**
 * toncenter's wallet list is the v1-v5 family: a highload wallet is detected (address book,
 * interfaces) but reported here as is_wallet false, as toncenter does.
 */
export function walletState(state: LatestStateRecord): Record<string, unknown> {
  const wallet = state.wallet?.family === 'wallet' ? state.wallet : null;
  const extra = extraCurrencies(state);
  return {
    address: state.account,
    is_wallet: wallet !== null,
    ...(wallet ? { wallet_type: wallet.walletType } : {}),
    ...(wallet?.seqno !== undefined ? { seqno: wallet.seqno } : {}),
    ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
    balance: state.balance,
    ...(Object.keys(extra).length > 0 ? { extra_currencies: extra } : {}),
    ...(wallet?.isSignatureAllowed !== undefined ? { is_signature_allowed: wallet.isSignatureAllowed } : {}),
    status: state.status,
    ...hashOrOmit('code_hash', state.codeHash),
    last_transaction_hash: formatHash(state.lastTransHash),
    last_transaction_lt: state.lastTransLt.toString(),
  };
}
