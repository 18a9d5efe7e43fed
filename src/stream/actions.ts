/**
 * Where classified actions join the stream: a sealed trace's from the index (classified by its store thread in the
 * block's own DB transaction, so they are there once the index holds the block), a pending trace's classified from
 * what the open block executed (src/pending/actions.ts, on the render thread), and which types a subscription's
 * `supported_action_types` stands for (v1 ... latest, groups). `registerStreaming` takes another implementation
 * (a network whose actions come from elsewhere).
 */
import type { NetworkContext } from '../http/network-context.js';
import type { ActionPart } from '../index/actions/action-part.js';
import type { ActionAccounts } from '../index/actions/reader.js';
import { expandActionTypes } from '../index/actions/versions.js';
import { pendingActionsOf } from '../pending/actions.js';
import type { PendingTrace } from '../pending/pending-traces.js';

export type StreamAction = ActionPart;

export interface StreamActions {
  /** The actions of these sealed traces (trace ids, base64), by trace id; a trace without any is left out. */
  ofTraces(network: NetworkContext, traceIds: string[]): Promise<Map<string, StreamAction[]>>;
  /**
   * The traces whose actions the index stored with masterchain block `seqno` (the traces that ended there), each
   * with its actions' accounts: what the hub matches its `actions` clients against before it reads any action.
   */
  accountsAt(network: NetworkContext, seqno: number): Promise<ActionAccounts[]>;
  /** The actions of a pending trace (at `trace_mc_seqno_end` 0). */
  ofPending(network: NetworkContext, trace: PendingTrace): Promise<StreamAction[]>;
  /** The action types a subscription's `supported_action_types` stands for. */
  expand(supported: string[]): ReadonlySet<string>;
}

/** Expanded once per subscription (its list is kept as it came until it is replaced), not per notification. */
const expanded = new WeakMap<string[], Set<string>>();

export const INDEXED_ACTIONS: StreamActions = {
  ofTraces: async (network, traceIds) => (network.index ? network.index.actions.everyActionOf(traceIds) : new Map()),
  accountsAt: async (network, seqno) => (network.index ? network.index.actions.accountsAt(seqno) : []),
  ofPending: (network, trace) => pendingActionsOf(trace, network),
  expand: (supported) => {
    let types = expanded.get(supported);
    if (!types) expanded.set(supported, (types = expandActionTypes(supported)));
    return types;
  },
};
