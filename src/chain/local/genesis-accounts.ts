/**
 * The accounts of a `--genesis` file (read and checked by src/config/genesis.ts) as zero-state accounts of one
 * network: given accounts as they are, wallets derived from their mnemonics (v3r2, v4r2 with the standard wallet
 * ids, v5r1 with this network's global id) and deployed with seqno 0.
 */
import type { Address, Cell } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import type { ZeroStateAccount } from './genesis.js';

export type GenesisEntry =
  | { kind: 'account'; label: string; address: Address; balance: bigint; code?: Cell; data?: Cell }
  | { kind: 'wallet'; label: string; version: 'v3r2' | 'v4r2' | 'v5r1'; mnemonic: string[]; balance: bigint; workchain: number };

/** A genesis entry the chain cannot take (an invalid mnemonic, an address already in the zero state): names it. */
export class GenesisRefused extends Error {
  override name = 'GenesisRefused';
}

export async function genesisAccounts(entries: readonly GenesisEntry[], globalId: number): Promise<ZeroStateAccount[]> {
  const accounts: ZeroStateAccount[] = [];
  for (const entry of entries) {
    if (entry.kind === 'account') {
      accounts.push({ label: entry.label, address: entry.address, balance: entry.balance, code: entry.code, data: entry.data });
      continue;
    }
    if (!(await mnemonicValidate(entry.mnemonic)))
      throw new GenesisRefused(`${entry.label}: mnemonic: not a valid TON mnemonic (its checksum fails)`);
    const { publicKey } = await mnemonicToPrivateKey(entry.mnemonic);
    // @ton/ton (and the HTTP client it brings) only for a file that has wallets: `tongate start` never loads it otherwise.
    const { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } = await import('@ton/ton');
    const wallet =
      entry.version === 'v3r2'
        ? WalletContractV3R2.create({ workchain: entry.workchain, publicKey })
        : entry.version === 'v4r2'
          ? WalletContractV4.create({ workchain: entry.workchain, publicKey })
          : WalletContractV5R1.create({ workchain: entry.workchain, publicKey, walletId: { networkGlobalId: globalId } });
    accounts.push({ label: entry.label, address: wallet.address, balance: entry.balance, code: wallet.init.code, data: wallet.init.data });
  }
  return accounts;
}
