/**
 * The contracts the classifier reads for a trace no block holds yet, one rule for the Emulate API's emulated traces
 * (src/emulate/actions.ts) and the pending layer's (src/pending/actions.ts), as toncenter's pending classifier reads
 * them (its emulator's interfaces on each account's final state first, its database where none was detected):
 *
 *   1. `ownContracts`: the trace's own accounts (each one with a transaction in it) detected on the states it left
 *      (state-contracts.ts), the index's jetton wallets among them vouched for (the index detected them with their
 *      master's answer, and a wallet's owner and master never change: 1 get-method each instead of 2); the index's
 *      word for those the states show nothing at (a DEX pool, a JVault stake wallet, a state the chain could not
 *      run a get-method on).
 *   2. `namedContracts`: what the index knows of the accounts the trace's messages name without reaching them (the
 *      wallets a swap asks for, an auction's NFT item a bid never reaches) and of the stake wallets its unstakes ask
 *      (contract-accounts.ts), asked only when there are some: what a sealed trace's classification reads.
 *
 * Two steps because the pending layer knows its own accounts before its transactions are rendered (step 1 runs
 * beside the rendering) and the named ones only after.
 */
import type { TraceStates } from '../../chain/types.js';
import { contractAccounts, mergeContracts, namedAccounts } from './contract-accounts.js';
import { contractsOnStates } from './state-contracts.js';
import { NO_CONTRACTS, type KnownContracts, type TraceInput } from './trace-input.js';

/** What the network's index knows among accounts (raw uppercase) and JVault stake wallets: its reader's `knownContracts`. */
export type IndexedContracts = (accounts: string[], stakeWallets: string[]) => Promise<KnownContracts>;

/**
 * The contracts among `own` (raw uppercase: the accounts the trace changed): detected on `states` (none: the chain
 * cannot run a get-method on a state, the index's word alone), the index's (`indexed`; null: no index) standing for
 * the accounts those show nothing at and vouching for its jetton wallets.
 */
export async function ownContracts(
  states: TraceStates | undefined,
  own: Iterable<string>,
  indexed: IndexedContracts | null,
): Promise<KnownContracts> {
  const accounts = [...new Set(own)];
  const known = indexed && accounts.length > 0 ? await indexed(accounts, []) : NO_CONTRACTS;
  if (!states) return known;
  return mergeContracts(await contractsOnStates(states, known.jettonWallets), known);
}

/**
 * `contracts` (the trace's own, `ownContracts`) with what the index knows of the accounts `input`'s messages name
 * and the trace did not change (`own`), and of the JVault stake wallets its unstakes ask; no lookup when there are
 * none (or no index).
 */
export async function namedContracts(
  contracts: KnownContracts,
  input: TraceInput,
  own: ReadonlySet<string>,
  indexed: IndexedContracts | null,
): Promise<KnownContracts> {
  if (!indexed) return contracts;
  const asked = contractAccounts(input);
  const named = namedAccounts(contracts);
  // An auction the trace deployed names an NFT item a bid never reaches: the index knows it.
  const auctionItems = [...(contracts.nftAuctions?.values() ?? [])].map((a) => a.nft);
  const more = [...new Set([...asked.accounts, ...auctionItems])].filter((a) => !own.has(a) && !named.has(a));
  if (more.length + asked.stakeWallets.length === 0) return contracts;
  return mergeContracts(contracts, await indexed(more, asked.stakeWallets));
}
