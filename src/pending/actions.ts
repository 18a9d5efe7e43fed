/**
 * A pending trace's actions: its transactions rendered, the contracts among its accounts as the trace left them
 * (trace-states.ts: every account it changed, detected on its state after its last transaction there, as the Emulate
 * API detects them: a jetton wallet the trace deploys, an auction's last bid the trace raised), what the network's
 * index knows of the others (and of those its messages name, and the JVault stake wallets its unstakes ask: what a
 * sealed trace's classification reads), then the index's classifier on the render thread (renderer.ts). Asked once
 * per trace (per size it grew to: a trace whose internal messages run in a later block) and kept on it, so a stream
 * and /pendingActions share one classification. Meant for a trace that is announced (nothing of it left to execute
 * in the open block): what toncenter classifies is a whole emulated trace too.
 */
import type { NetworkContext } from '../http/network-context.js';
import type { ActionPart } from '../index/actions/action-part.js';
import { contractAccounts, mergeContracts, namedAccounts } from '../index/actions/contract-accounts.js';
import { emulatedTraceInput } from '../index/actions/emulated-trace-input.js';
import { contractsOnStates } from '../index/actions/state-contracts.js';
import { NO_CONTRACTS, type KnownContracts } from '../index/actions/trace-input.js';
import type { PendingTrace } from './pending-traces.js';
import { pendingRenderer } from './renderer.js';
import { pendingTraceStates } from './trace-states.js';

/** A trace's classification, kept with the number of transactions it was made of. */
const classified = new WeakMap<PendingTrace, { txs: number; actions: Promise<ActionPart[]> }>();

export function pendingActionsOf(trace: PendingTrace, network: NetworkContext): Promise<ActionPart[]> {
  const kept = classified.get(trace);
  // A trace announced in one block whose internal messages ran in a later one has grown since: classified again
  // (its actions at `confirmed`, once all of it is sealed, are those of all of it).
  if (kept && kept.txs === trace.txs.length) return kept.actions;
  const actions = classify(trace, network);
  // A trace still growing in the open block (a REST ask before it is announced) is classified as it stands and
  // not kept: its next transactions would change its actions.
  if (trace.announced) classified.set(trace, { txs: trace.txs.length, actions });
  return actions;
}

async function classify(trace: PendingTrace, network: NetworkContext): Promise<ActionPart[]> {
  const txs = [...trace.txs];
  const head = { traceId: trace.traceId, externalHash: trace.externalHash, externalHashNorm: trace.externalHashNorm };
  const index = network.index;
  const own = new Set(txs.map((tx) => tx.account));
  // The trace's own accounts are asked while it renders; what its messages name (the wallets a swap asks for, the
  // stake wallets an unstake asks) once the rendered transactions tell it, as a sealed trace's classification asks.
  const [texts, contracts] = await Promise.all([
    Promise.all(txs.map((tx) => pendingRenderer.render(tx, trace))),
    ownContracts(trace, network, own),
  ]);
  if (!index) return pendingRenderer.classify({ head, texts, contracts });
  const asked = contractAccounts(emulatedTraceInput(head, texts));
  // An auction the trace deployed names an NFT item a bid never reaches: the index knows it (a known auction's
  // item came with it).
  const named = namedAccounts(contracts);
  const auctionItems = [...(contracts.nftAuctions?.values() ?? [])].map((a) => a.nft).filter((a) => !named.has(a));
  const more = [...new Set([...asked.accounts, ...auctionItems])].filter((a) => !own.has(a));
  const all =
    more.length + asked.stakeWallets.length === 0
      ? contracts
      : mergeContracts(contracts, await index.actions.knownContracts(more, asked.stakeWallets));
  return pendingRenderer.classify({ head, texts, contracts: all });
}

/**
 * The contracts among the trace's own accounts, each as the trace left it: detected on its state after its last
 * transaction in the trace (src/index/actions/state-contracts.ts, the Emulate API's detection), known to the index
 * or not, so an auction's last bid, a sale's price, an item's owner are the trace's, not the index's view before
 * it (toncenter's pending classifier reads the interfaces its emulator detected on each emulated account's final
 * state, its database only where none was). What the index knows stands for the accounts whose states show nothing
 * (a DEX pool, a contract whose state the chain could not run a get-method on), and vouches for its jetton wallets:
 * their masters are not asked again. Cost, paid only when actions are asked, once per classification: every account
 * the trace changed has its state parsed and its code scanned; only a state whose code has a classifier get-method
 * costs calls (a jetton wallet the index knows 1, one it does not 2; an NFT item 2, its collection's two answers in
 * one; a sale or auction 1; a multisig order 2).
 */
async function ownContracts(trace: PendingTrace, network: NetworkContext, own: ReadonlySet<string>): Promise<KnownContracts> {
  const known = network.index ? await network.index.actions.knownContracts(own) : NO_CONTRACTS;
  const states = network.chain && pendingTraceStates(trace, network.chain);
  if (!states) return known;
  return mergeContracts(await contractsOnStates(states, known.jettonWallets), known);
}
/** The same actions once a sealed block (masterchain seqno `seqno`) holds the trace: only its end's block is new. */
export function sealedActionParts(actions: readonly ActionPart[], seqno: number): ActionPart[] {
  return actions.map((a) => ({ ...a, head: a.head.replace('"trace_mc_seqno_end":0,', `"trace_mc_seqno_end":${seqno},`) }));
}
