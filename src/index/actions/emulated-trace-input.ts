/**
 * A trace not sealed yet (the pending layer's: transactions a local chain executed in its open block, rendered as
 * v3 transactions with their messages inside) as the classifier reads it. Apart from the classifier
 * (emulated-trace.ts): the main thread builds this input too, and must not load the matchers for it.
 */
import type { V3MessageJson } from '../../ton/message-json.js';
import { messageOf, transactionWith, type ActionTransaction, type StoredTransactionDoc, type TraceInput } from './trace-input.js';

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
