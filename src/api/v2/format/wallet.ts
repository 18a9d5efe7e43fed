/**
 * What a v2 answer says about an account as a wallet: getWalletInformation (ext.accounts.walletInformation)
 * and the tonlib-typed `account_state` of getExtendedAddressInformation. Detection is by code hash
 * (src/ton/wallet-detect.ts), as toncenter's C++ server does it.
 */
import type { AccountState } from '../../../chain/types.js';
import { formatHash } from '../../../ton/hash.js';
import { detectWallet, type DetectedWallet } from '../../../ton/wallet-detect.js';
import type { InternalTransactionId } from '../../../ton/tonlib-json.js';
import { lastTransactionId, v2AccountState, type V2AccountState } from './account.js';

/** The wallet an active account's code makes it, or null. */
export function walletOf(state: AccountState): DetectedWallet | null {
  return state.state === 'active' && state.code ? detectWallet(state.code, state.data ?? null) : null;
}

export interface WalletInformationJson {
  '@type': 'ext.accounts.walletInformation';
  wallet: boolean;
  balance: string;
  account_state: V2AccountState;
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
  last_transaction_id: InternalTransactionId;
}

/**
 * getWalletInformation. Fields a wallet kind does not keep (highload v2/v3 have no seqno) are left out,
 * as the C++ server leaves out what it has not got; a non-wallet is just `wallet: false`.
 */
export function walletInformation(state: AccountState): WalletInformationJson {
  const wallet = walletOf(state);
  return {
    '@type': 'ext.accounts.walletInformation',
    wallet: wallet !== null,
    balance: state.balance.toString(),
    account_state: v2AccountState(state.state),
    ...(wallet ? { wallet_type: wallet.walletType } : {}),
    ...(wallet?.seqno !== undefined ? { seqno: wallet.seqno } : {}),
    ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
    ...(wallet?.isSignatureAllowed !== undefined ? { is_signature_allowed: wallet.isSignatureAllowed } : {}),
    last_transaction_id: lastTransactionId(state),
  };
}

/** tonlib's account_state variants for getExtendedAddressInformation, and tonlib's `revision` of the code. */
export type TonlibAccountState =
  | { '@type': 'raw.accountState'; code: string; data: string; frozen_hash: string }
  | { '@type': SeqnoWalletType; wallet_id: number; seqno: number }
  | { '@type': 'wallet.highload.v2.accountState'; wallet_id: number }
  | { '@type': 'uninited.accountState'; frozen_hash: string };

type SeqnoWalletType = 'wallet.v3.accountState' | 'wallet.v4.accountState' | 'wallet.highload.v1.accountState';

/**
 * tonlib names only some wallets (v3, v4, highload v1 and v2); every other contract, v1, v2, v5 and
 * highload v3 wallets included, is a raw.accountState with its code and data, as tonlib answers.
 */
const TONLIB_TYPES: Record<string, SeqnoWalletType | 'wallet.highload.v2.accountState'> = {
  'wallet v3 r1': 'wallet.v3.accountState',
  'wallet v3 r2': 'wallet.v3.accountState',
  'wallet v4 r1': 'wallet.v4.accountState',
  'wallet v4 r2': 'wallet.v4.accountState',
  'highload wallet v1 r1': 'wallet.highload.v1.accountState',
  'highload wallet v1 r2': 'wallet.highload.v1.accountState',
  'highload wallet v2 r1': 'wallet.highload.v2.accountState',
  'highload wallet v2 r2': 'wallet.highload.v2.accountState',
};

export function tonlibAccountState(
  state: AccountState,
  raw: { code: string; data: string },
): { accountState: TonlibAccountState; revision: number } {
  if (state.state !== 'active') {
    return {
      accountState: { '@type': 'uninited.accountState', frozen_hash: state.frozenHash ? formatHash(state.frozenHash) : '' },
      revision: 0,
    };
  }
  const wallet = walletOf(state);
  const type = wallet ? TONLIB_TYPES[wallet.walletType] : undefined;
  if (!wallet || !type || wallet.walletId === undefined) {
    return { accountState: { '@type': 'raw.accountState', code: raw.code, data: raw.data, frozen_hash: '' }, revision: 0 };
  }
  // tonlib's revision is the code's release within its family: "wallet v4 r2" -> 2.
  const revision = Number(/ r(\d+)$/.exec(wallet.walletType)?.[1] ?? 0);
  if (type === 'wallet.highload.v2.accountState') return { accountState: { '@type': type, wallet_id: wallet.walletId }, revision };
  return { accountState: { '@type': type, wallet_id: wallet.walletId, seqno: wallet.seqno ?? 0 }, revision };
}
