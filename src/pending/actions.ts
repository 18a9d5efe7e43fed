/**
 * A pending trace's actions: its transactions rendered, the token contracts the network's index knows among its
 * accounts, then the index's classifier on the render thread (renderer.ts). Asked once per trace and kept on it, so
 * a stream and /pendingActions share one classification. Meant for a trace that is announced (nothing of it left
 * to execute in the open block): what toncenter classifies is a whole emulated trace too.
 */
import type { NetworkContext } from '../http/network-context.js';
import type { ActionPart } from '../index/actions/action-part.js';
import { NO_CONTRACTS } from '../index/actions/trace-input.js';
import type { PendingTrace } from './pending-traces.js';
import { pendingRenderer } from './renderer.js';

const classified = new WeakMap<PendingTrace, Promise<ActionPart[]>>();

export function pendingActionsOf(trace: PendingTrace, network: NetworkContext): Promise<ActionPart[]> {
  let actions = classified.get(trace);
  if (!actions) {
    actions = classify(trace, network);
    // A trace still growing in the open block (a REST ask before it is announced) is classified as it stands and
    // not kept: its next transactions would change its actions.
    if (trace.announced) classified.set(trace, actions);
  }
  return actions;
}

async function classify(trace: PendingTrace, network: NetworkContext): Promise<ActionPart[]> {
  const txs = [...trace.txs];
  const [texts, contracts] = await Promise.all([
    Promise.all(txs.map((tx) => pendingRenderer.render(tx, trace))),
    network.index ? network.index.actions.knownContracts(new Set(txs.map((tx) => tx.account))) : NO_CONTRACTS,
  ]);
  return pendingRenderer.classify({
    head: { traceId: trace.traceId, externalHash: trace.externalHash, externalHashNorm: trace.externalHashNorm },
    texts,
    contracts,
  });
}

/** The same actions once a sealed block (masterchain seqno `seqno`) holds the trace: only its end's block is new. */
export function sealedActionParts(actions: readonly ActionPart[], seqno: number): ActionPart[] {
  return actions.map((a) => ({ ...a, head: a.head.replace('"trace_mc_seqno_end":0,', `"trace_mc_seqno_end":${seqno},`) }));
}
