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
import { emulatedTraceInput } from '../index/actions/emulated-trace-input.js';
import { namedContracts, ownContracts, type IndexedContracts } from '../index/actions/unsealed-contracts.js';
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
  const indexed: IndexedContracts | null = index ? (accounts, stakeWallets) => index.actions.knownContracts(accounts, stakeWallets) : null;
  const own = new Set(txs.map((tx) => tx.account));
  const states = network.chain && pendingTraceStates(trace, network.chain);
  // The trace's own accounts are asked while it renders; what its messages name (the wallets a swap asks for, the
  // stake wallets an unstake asks) once the rendered transactions tell it, as a sealed trace's classification asks.
  const [texts, contracts] = await Promise.all([
    Promise.all(txs.map((tx) => pendingRenderer.render(tx, trace))),
    ownContracts(states, own, indexed),
  ]);
  // Without an index nothing more is asked: the input is not built.
  const all = indexed ? await namedContracts(contracts, emulatedTraceInput(head, texts), own, indexed) : contracts;
  return pendingRenderer.classify({ head, texts, contracts: all });
}

/** The same actions once a sealed block (masterchain seqno `seqno`) holds the trace: only its end's block is new. */
export function sealedActionParts(actions: readonly ActionPart[], seqno: number): ActionPart[] {
  return actions.map((a) => ({ ...a, head: a.head.replace('"trace_mc_seqno_end":0,', `"trace_mc_seqno_end":${seqno},`) }));
}
