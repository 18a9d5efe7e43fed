/**
 * The interface names toncenter's address book and accountStates report for a contract, from what the
 * index knows of it: a wallet by its code hash (ton/wallet-detect.ts), one name; other code by its
 * get-method ids (index/tokens/method-ids.ts: jetton_master, jetton_wallet, nft_item, ...), as toncenter's
 * DetectInterface does; `[]` for code with neither.
 */
import type { LatestStateRecord } from '../../../index/read/records.js';
import type { DetectedWallet } from '../../../ton/wallet-detect.js';

/** toncenter's wallet_type string -> its interface name. */
const WALLET_INTERFACES: Record<string, string> = {
  'wallet v1 r1': 'wallet_v1r1',
  'wallet v1 r2': 'wallet_v1r2',
  'wallet v1 r3': 'wallet_v1r3',
  'wallet v2 r1': 'wallet_v2r1',
  'wallet v2 r2': 'wallet_v2r2',
  'wallet v3 r1': 'wallet_v3r1',
  'wallet v3 r2': 'wallet_v3r2',
  'wallet v4 r1': 'wallet_v4r1',
  'wallet v4 r2': 'wallet_v4r2',
  'wallet v5 beta': 'wallet_v5_beta',
  'wallet v5 r1': 'wallet_v5r1',
  'highload wallet v1 r1': 'wallet_highload_v1r1',
  'highload wallet v1 r2': 'wallet_highload_v1r2',
  'highload wallet v2 r1': 'wallet_highload_v2r1',
  'highload wallet v2 r2': 'wallet_highload_v2r2',
  'highload wallet v3': 'wallet_highload_v3r1',
};

function walletInterfaces(wallet: DetectedWallet | null): string[] {
  const name = wallet ? WALLET_INTERFACES[wallet.walletType] : undefined;
  return name ? [name] : [];
}

export function interfacesOf(state: Pick<LatestStateRecord, 'wallet' | 'interfaces'> | undefined): string[] {
  if (!state) return [];
  return state.wallet ? walletInterfaces(state.wallet) : state.interfaces;
}
