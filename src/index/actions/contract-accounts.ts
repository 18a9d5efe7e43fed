/**
 * The accounts a trace's contracts are looked up for, the same for a sealed, a pending and an emulated trace: its
 * own accounts and those its messages name without reaching them (a lone wallet request's jetton wallet, the wallets
 * swaps ask for or route through, a TONCO deposit's other router wallet), and the JVault stake wallets its unstakes
 * ask. And two lookups merged, the first one's word standing for every account it names (an emulated state's
 * detection over what the index knows of the account before the trace).
 */
import { ghostDestinations } from './ghosts.js';
import { jvaultStakeWalletCandidates } from './jvault.js';
import { stonfiV2SwapWallets } from './stonfi-v2-swaps.js';
import { swapTargetWallets } from './swaps.js';
import { toncoDepositWallets } from './tonco-liquidity.js';
import { toncoSwapWallets } from './tonco-swaps.js';
import type { KnownContracts, TraceInput } from './trace-input.js';

export interface ContractAccounts {
  /** Raw uppercase, without repeats. */
  accounts: string[];
  stakeWallets: string[];
}

/** The accounts whose contracts the classifier may ask about in `trace`. */
export function contractAccounts(trace: TraceInput): ContractAccounts {
  const accounts = trace.transactions.flatMap((tx) => [
    tx.account,
    ...(trace.transactions.length === 1 ? ghostDestinations(tx) : []),
    ...swapTargetWallets(tx),
    ...stonfiV2SwapWallets(tx),
    ...toncoSwapWallets(tx),
    ...toncoDepositWallets(tx),
  ]);
  return { accounts: [...new Set(accounts)], stakeWallets: [...new Set(trace.transactions.flatMap(jvaultStakeWalletCandidates))] };
}

/** Every account a lookup names, of any kind. */
export function namedAccounts(contracts: KnownContracts): Set<string> {
  const named = new Set<string>();
  for (const map of [
    contracts.jettonWallets,
    contracts.nftItems,
    contracts.multisigOrders,
    contracts.nftSales,
    contracts.nftAuctions,
    contracts.dexPools,
    contracts.jvaultStakeWallets,
  ])
    for (const account of map?.keys() ?? []) named.add(account);
  for (const account of contracts.nominatorPools ?? []) named.add(account);
  return named;
}

/**
 * `first`'s contracts, and `second`'s for the accounts `first` names none of: an account `first` knows as one kind
 * takes nothing from `second` (no second kind, no other facts). A kind neither looked for stays absent.
 */
export function mergeContracts(first: KnownContracts, second: KnownContracts): KnownContracts {
  const taken = namedAccounts(first);
  const merged = <V>(a: ReadonlyMap<string, V> | undefined, b: ReadonlyMap<string, V> | undefined): Map<string, V> | undefined => {
    if (a === undefined && b === undefined) return undefined;
    const map = new Map(a);
    for (const [account, value] of b ?? []) if (!taken.has(account)) map.set(account, value);
    return map;
  };
  const pools =
    first.nominatorPools === undefined && second.nominatorPools === undefined
      ? undefined
      : new Set([...(first.nominatorPools ?? []), ...[...(second.nominatorPools ?? [])].filter((a) => !taken.has(a))]);
  const optional = {
    nftSales: merged(first.nftSales, second.nftSales),
    nftAuctions: merged(first.nftAuctions, second.nftAuctions),
    dexPools: merged(first.dexPools, second.dexPools),
    nominatorPools: pools,
    jvaultStakeWallets: merged(first.jvaultStakeWallets, second.jvaultStakeWallets),
  };
  return {
    jettonWallets: merged(first.jettonWallets, second.jettonWallets)!,
    nftItems: merged(first.nftItems, second.nftItems)!,
    multisigOrders: merged(first.multisigOrders, second.multisigOrders)!,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
