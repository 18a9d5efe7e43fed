/**
 * Trace assembly within one masterchain block (pure): which transactions of the block belong together,
 * as ton-indexer's TraceAssembler groups them. Transactions are taken in (lt, account) order; one whose
 * inbound message was sent by an earlier transaction of the block joins that transaction's trace; any
 * other starts a *local trace*, rooted at it:
 *   ext    its inbound message is external: a new trace, id = its hash, external_hash = the message's
 *   sys    its inbound message comes from -1:000..0 (a system message): a new trace likewise
 *   none   no inbound message (tick-tock): a new trace without external_hash
 *   link   an internal message not sent in this block: it continues a trace of an earlier block, which
 *          only the store knows (trace-linker.ts), or, if none sent it, starts a `broken` trace
 * The counters of a local trace leave its root's inbound message out: the linker adds that edge the way
 * the root's kind says. Hashes travel as base64 text (they cross threads and key maps).
 */

/** -1:000..0, the source of system messages (raw uppercase, as the index writes addresses). */
export const SYSTEM_ADDRESS = `-1:${'0'.repeat(64)}`;

export interface TraceInMessage {
  hash: string;
  /** TEP-467 normalized hash (external-in messages). */
  hashNorm: string | null;
  /** Raw uppercase source; null for an external-in message. */
  source: string | null;
}

export interface TraceTransactionInput {
  hash: string;
  lt: bigint;
  now: number;
  /** Raw uppercase account. */
  account: string;
  inMsg: TraceInMessage | null;
  /** Every message the transaction sent; `internal` is false for external-out ones (logs). */
  outMsgs: { hash: string; internal: boolean }[];
}

export type LocalRootKind = 'ext' | 'sys' | 'none' | 'link';

export interface LocalTrace {
  /** The root transaction's hash: the trace id unless the root links to an earlier trace. */
  root: string;
  kind: LocalRootKind;
  /** The root's inbound message (hash and normalized hash), if any. */
  rootInMsg: string | null;
  rootInMsgNorm: string | null;
  startLt: bigint;
  startUtime: number;
  endLt: bigint;
  endUtime: number;
  transactions: number;
  /** Completed edges, the root's inbound message left out. */
  edges: number;
  /** Internal messages sent and not received within the block. */
  pending: number;
  /** Those messages' hashes: a later block's transaction that receives one joins this trace. */
  openEdges: string[];
}

export interface BlockTraces {
  seqno: number;
  traces: LocalTrace[];
  /** For each input transaction (in input order), the index of its local trace. */
  traceOf: number[];
}

function byLtThenAccount(a: TraceTransactionInput, b: TraceTransactionInput): number {
  if (a.lt !== b.lt) return a.lt < b.lt ? -1 : 1;
  return a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
}

function rootKind(inMsg: TraceInMessage | null): LocalRootKind {
  if (!inMsg) return 'none';
  if (inMsg.source === null) return 'ext';
  return inMsg.source === SYSTEM_ADDRESS ? 'sys' : 'link';
}

export function assembleBlockTraces(seqno: number, transactions: readonly TraceTransactionInput[]): BlockTraces {
  const order = transactions.map((_, i) => i).sort((a, b) => byLtThenAccount(transactions[a], transactions[b]));
  const traces: LocalTrace[] = [];
  const traceOf = new Array<number>(transactions.length);
  /** Internal messages sent in this block and not yet received: message hash -> local trace. */
  const open = new Map<string, number>();
  for (const i of order) {
    const tx = transactions[i];
    const parent = tx.inMsg ? open.get(tx.inMsg.hash) : undefined;
    let index: number;
    if (parent !== undefined) {
      index = parent;
      open.delete(tx.inMsg!.hash);
      const trace = traces[index];
      trace.pending -= 1;
      trace.edges += 1;
      trace.transactions += 1;
      if (tx.lt > trace.endLt) trace.endLt = tx.lt;
      if (tx.now > trace.endUtime) trace.endUtime = tx.now;
    } else {
      index = traces.length;
      traces.push({
        root: tx.hash,
        kind: rootKind(tx.inMsg),
        rootInMsg: tx.inMsg?.hash ?? null,
        rootInMsgNorm: tx.inMsg?.hashNorm ?? null,
        startLt: tx.lt,
        startUtime: tx.now,
        endLt: tx.lt,
        endUtime: tx.now,
        transactions: 1,
        edges: 0,
        pending: 0,
        openEdges: [],
      });
    }
    traceOf[i] = index;
    const trace = traces[index];
    for (const out of tx.outMsgs) {
      if (out.internal) {
        trace.pending += 1;
        open.set(out.hash, index);
      } else {
        trace.edges += 1;
      }
    }
  }
  for (const [hash, index] of open) traces[index].openEdges.push(hash);
  return { seqno, traces, traceOf };
}
