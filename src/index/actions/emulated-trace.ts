/**
 * A trace not sealed yet (the pending layer's: transactions a local chain executed in its open block, rendered as
 * v3 transactions with their messages inside) as the classifier reads it, and its actions: the same classifier as
 * the index's, on the same fields, so a trace's pending actions are the ones the index stores once it is sealed
 * (ids included), but for `trace_mc_seqno_end` (0: no block holds it yet). Pure: the render thread runs it.
 */
import type { V3MessageJson } from '../../ton/message-json.js';
import { actionPart, newestFirst, type ActionPart } from './action-part.js';
import { classifyTrace } from './classify.js';
import {
  messageOf,
  transactionWith,
  type ActionTransaction,
  type KnownContracts,
  type StoredTransactionDoc,
  type TraceInput,
} from './trace-input.js';

/** A v3 transaction as rendered (src/ton/transaction-v3-json.ts): its messages inside it. */
type RenderedTransaction = Omit<StoredTransactionDoc, 'in_msg' | 'out_msgs'> & { in_msg: V3MessageJson | null; out_msgs: V3MessageJson[] };

export interface EmulatedTraceHead {
  traceId: string;
  externalHash: string | null;
  externalHashNorm: string | null;
}

const transactionOf = (tx: RenderedTransaction): ActionTransaction =>
  transactionWith(tx, tx.in_msg === null ? null : messageOf(tx.in_msg), tx.out_msgs.map(messageOf));

/** The trace of these rendered transactions (JSON texts, any order) as classifier input. */
export function emulatedTraceInput(head: EmulatedTraceHead, texts: readonly string[]): TraceInput {
  const transactions = texts
    .map((t) => transactionOf(JSON.parse(t) as RenderedTransaction))
    .sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const root = transactions.find((tx) => tx.hash === head.traceId) ?? transactions[0];
  const last = transactions.reduce((a, b) => (b.lt > a.lt ? b : a), root);
  return {
    ...head,
    startLt: root.lt,
    startUtime: root.now,
    endLt: last.lt,
    endUtime: last.now,
    mcSeqnoEnd: 0,
    transactions,
  };
}

/** The actions of an emulated trace, in the order a stream and /pendingActions send them. */
export function emulatedActions(head: EmulatedTraceHead, texts: readonly string[], contracts: KnownContracts): ActionPart[] {
  const { actions } = classifyTrace(emulatedTraceInput(head, texts), contracts);
  return [...actions].sort(newestFirst).map(actionPart);
}
