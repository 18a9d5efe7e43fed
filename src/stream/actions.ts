/**
 * The seam where classified actions join the stream. No classifier exists yet, so no `actions` notification is
 * sent and a `trace` notification carries none (toncenter leaves `actions` out then). A classifier provides
 * `ofTraces` (each action's JSON text with its type, accounts and ancestor types, by trace id) and `expand`
 * (`supported_action_types` shortcuts: v1 ... latest, groups), and is handed to `registerStreaming`.
 */
import type { NetworkContext } from '../http/network-context.js';
import type { TraceEvent } from './notifications.js';

export type StreamAction = TraceEvent['actions'][number];

export interface StreamActions {
  /** The actions of these traces (trace ids, base64), by trace id; a trace without any is left out. */
  ofTraces(network: NetworkContext, traceIds: string[]): Promise<Map<string, StreamAction[]>>;
  /** The action types a subscription's `supported_action_types` stands for. */
  expand(supported: string[]): Set<string>;
}

export const NO_ACTIONS: StreamActions = {
  ofTraces: async () => new Map(),
  expand: (supported) => new Set(supported),
};
