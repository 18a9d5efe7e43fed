/**
 * What a chain starts from: a new chain's zero state (the faucets, the system contracts, the `--genesis` accounts),
 * and for a chain already on disk, the identity it was created with and the config it holds now.
 */
import type { Cell } from '@ton/core';
import { AccountView } from '../account-view.js';
import { networkConfig, networkConfigOf, type NetworkConfig } from './config.js';
import { ChainDataMismatch } from './errors.js';
import type { FaucetWallet } from './faucet.js';
import { GenesisRefused } from './genesis-accounts.js';
import { FAUCET_BALANCE, type ZeroStateAccount } from './genesis.js';
import { holdsAccounts } from '../messages.js';
import type { LocalChainOptions } from './options.js';
import type { ChainStore } from './store.js';
import { configContractAddress, readConfigContractData, systemContracts } from './system-accounts.js';

/**
 * The config of a chain already on disk: what its config contract holds (POST /devnet/config changes it). A data
 * dir written before the config contract existed keeps the zero state's config.
 */
export function storedConfig(store: ChainStore, globalId: number): NetworkConfig {
  const zeroState = networkConfig(globalId);
  const address = configContractAddress(zeroState.cell);
  const stored = store.accountState(address.workChain, address.hash, store.lastMcSeqno()!);
  const data = stored && new AccountView(address, stored.boc).data;
  return data ? networkConfigOf(readConfigContractData(data).config) : zeroState;
}

/** The zero state's accounts; a `--genesis` account at the address of another is refused, naming it. */
export function zeroStateAccounts(wallets: FaucetWallet[], config: Cell, genesis: ZeroStateAccount[]): ZeroStateAccount[] {
  const accounts: ZeroStateAccount[] = [
    ...wallets.map((w) => ({ address: w.address, balance: FAUCET_BALANCE, code: w.code, data: w.data })),
    ...systemContracts(config).map((c) => ({ address: c.address, balance: 0n, code: c.code, data: c.data })),
  ];
  const taken = new Set(accounts.map((a) => a.address.toRawString()));
  for (const account of genesis) {
    const raw = account.address.toRawString();
    const label = account.label ?? `genesis account ${raw}`;
    if (taken.has(raw))
      throw new GenesisRefused(
        `${label}: ${raw} is already in the zero state (a faucet, the config contract, the elector, or an earlier entry)`,
      );
    if (!holdsAccounts(account.address.workChain))
      throw new GenesisRefused(`${label}: workchains 0 and -1 hold accounts, not ${account.address.workChain}`);
    taken.add(raw);
    accounts.push(account);
  }
  return accounts;
}

/** A data dir serves one network with one faucet key: refuse to mix them up. */
export function checkIdentity(
  store: ChainStore,
  opts: Pick<LocalChainOptions, 'network' | 'globalId' | 'dataDir'>,
  publicKey: Buffer,
): void {
  const expected: Record<string, string> = {
    network: opts.network,
    global_id: String(opts.globalId),
    faucet_public_key: publicKey.toString('hex'),
  };
  for (const [key, value] of Object.entries(expected)) {
    const stored = store.meta(key);
    if (stored === undefined) store.setMeta(key, value);
    else if (stored !== value) {
      const what = key === 'faucet_public_key' ? 'another faucet mnemonic' : `${key} ${stored}`;
      throw new ChainDataMismatch(`${opts.dataDir}: this chain was created with ${what}; use another data dir (or the same options)`);
    }
  }
}
