/**
 * The actions of a trace not sealed yet (emulated-trace-input.ts): the same classifier as the index's, on the same
 * fields, so a trace's pending actions are the ones the index stores once it is sealed (ids included), but for
 * `trace_mc_seqno_end` (0: no block holds it yet). Pure: the render thread runs it.
 */
import { actionPart, newestFirst, type ActionPart } from './action-part.js';
import { classifyTrace } from './classify.js';
import { emulatedTraceInput, type EmulatedTraceHead } from './emulated-trace-input.js';
import type { KnownContracts } from './trace-input.js';

export type { EmulatedTraceHead };

/** The actions of an emulated trace, in the order a stream and /pendingActions send them. */
export function emulatedActions(head: EmulatedTraceHead, texts: readonly string[], contracts: KnownContracts): ActionPart[] {
  const { actions } = classifyTrace(emulatedTraceInput(head, texts), contracts);
  return [...actions].sort(newestFirst).map(actionPart);
}
