/**
 * Joins the local traces of blocks (block-traces.ts) into the traces of the chain, in the store
 * thread, right before a group of blocks is committed: it is the one place that knows what the store
 * holds. A local trace rooted at an internal message (`link`) continues the trace whose transaction
 * sent that message, in an earlier block of the group or in the store (the message's row carries its
 * trace_id: the store's messages sent and not yet received are the pending edges, so they survive a
 * restart with nothing else to persist). No sender anywhere: a new trace, `broken`, as ton-indexer
 * marks it. A trace's counters and bounds are merged with its stored row and the row is written whole.
 *
 * Writing a block twice is harmless for the rows (idempotent upserts), not for counters: a block the
 * store already holds (a catch-up overlapping the live feed) contributes nothing here.
 */
import type { SqlReads, SqlValue } from '../sql/driver.js';
import type { InsertBatch } from '../sql/driver.js';
import { bytes, int, MASTERCHAIN_SHARD_COLUMN } from '../sql/values.js';
import type { BlockTraces, LocalTrace } from './block-traces.js';
import { TRACE_COLUMNS, TRACE_UPSERT, traceRowOf, traceRowValues, type TraceRow } from './trace-row.js';

/** Hashes per IN (...) list: far below either store's bound-parameter limit. */
const LOOKUP_CHUNK = 500;

export interface LinkedGroup {
  /** The new rows of every trace the group touched (empty when nothing to write). */
  traces: InsertBatch;
  /**
   * Per block, in the group's order: local root -> trace id for the local traces that joined another
   * trace (their rows carry the root's hash and must carry the trace's), or null when none did.
   * Blocks the store already held get null too: their rows change nothing.
   */
  remaps: (Map<string, string> | null)[];
}

function stateOf(row: TraceRow, broken: boolean): TraceRow['state'] {
  if (broken || row.state === 'broken' || row.pendingMessages < 0) return 'broken';
  return row.pendingMessages === 0 ? 'complete' : 'pending';
}

/** A trace that starts with this local trace. */
function newTrace(local: LocalTrace, seqno: number): TraceRow {
  const broken = local.kind === 'link';
  return {
    traceId: local.root,
    externalHash: local.rootInMsg,
    externalHashNorm: local.rootInMsgNorm,
    mcSeqnoStart: seqno,
    mcSeqnoEnd: seqno,
    startLt: local.startLt,
    startUtime: local.startUtime,
    endLt: local.endLt,
    endUtime: local.endUtime,
    state: 'pending',
    transactions: local.transactions,
    // The root's inbound message: a completed edge, or (nobody sent it) one that stays pending.
    messages: local.edges + (local.kind === 'ext' || local.kind === 'sys' ? 1 : 0),
    pendingMessages: local.pending + (broken ? 1 : 0),
  };
}

/** `local` (a `link` root) appended to the trace that sent its root's inbound message. */
function extend(row: TraceRow, local: LocalTrace, seqno: number): void {
  row.mcSeqnoEnd = Math.max(row.mcSeqnoEnd, seqno);
  if (local.endLt > row.endLt) row.endLt = local.endLt;
  row.endUtime = Math.max(row.endUtime, local.endUtime);
  row.transactions += local.transactions;
  row.messages += local.edges + 1;
  row.pendingMessages += local.pending - 1;
}

export class TraceLinker {
  constructor(private readonly store: SqlReads) {}

  /** `rewrite`: the blocks are in the store already and are being given traces (the back-fill): link them all. */
  async link(blocks: readonly BlockTraces[], options: { rewrite?: boolean } = {}): Promise<LinkedGroup> {
    const held = options.rewrite ? new Set<number>() : await this.heldSeqnos(blocks.map((b) => b.seqno));
    const seen = new Set<number>();
    const fresh = blocks.map((b) => {
      const isFresh = !held.has(b.seqno) && !seen.has(b.seqno);
      seen.add(b.seqno);
      return isFresh;
    });

    // Messages sent within the group, then the ones only the store knows the sender of.
    const sentInGroup = new Set<string>();
    for (const [i, block] of blocks.entries()) if (fresh[i]) for (const t of block.traces) for (const m of t.openEdges) sentInGroup.add(m);
    const asked = new Set<string>();
    for (const [i, block] of blocks.entries()) {
      if (!fresh[i]) continue;
      for (const t of block.traces) if (t.kind === 'link' && !sentInGroup.has(t.rootInMsg!)) asked.add(t.rootInMsg!);
    }
    const stored = await this.storedSenders([...asked]);

    const rows = new Map<string, TraceRow>();
    const broken = new Set<string>();
    const traceOfEdge = new Map<string, string>();
    const remaps: (Map<string, string> | null)[] = [];
    for (const [i, block] of blocks.entries()) {
      if (!fresh[i]) {
        remaps.push(null);
        continue;
      }
      let remap: Map<string, string> | null = null;
      for (const local of block.traces) {
        let row: TraceRow | undefined;
        if (local.kind === 'link') {
          const inMsg = local.rootInMsg!;
          const id = traceOfEdge.get(inMsg);
          row = id !== undefined ? rows.get(id) : undefined;
          if (!row) {
            const found = stored.get(inMsg);
            if (found) row = rows.get(found.traceId) ?? found;
          }
          traceOfEdge.delete(inMsg);
          if (row) {
            extend(row, local, block.seqno);
            rows.set(row.traceId, row);
            (remap ??= new Map()).set(local.root, row.traceId);
          }
        }
        if (!row) {
          row = newTrace(local, block.seqno);
          if (local.kind === 'link') broken.add(row.traceId);
          rows.set(row.traceId, row);
        }
        for (const edge of local.openEdges) traceOfEdge.set(edge, row.traceId);
        row.state = stateOf(row, broken.has(row.traceId));
      }
      remaps.push(remap);
    }
    return {
      traces: { table: 'traces', columns: TRACE_COLUMNS, rows: [...rows.values()].map(traceRowValues), conflict: TRACE_UPSERT },
      remaps,
    };
  }

  /** The masterchain seqnos among `seqnos` the store already holds. */
  private async heldSeqnos(seqnos: number[]): Promise<Set<number>> {
    const unique = [...new Set(seqnos)];
    if (unique.length === 0) return new Set();
    const rows = await this.store.all(
      `SELECT seqno FROM blocks WHERE workchain = -1 AND shard = ? AND seqno IN (${unique.map(() => '?').join(', ')})`,
      [MASTERCHAIN_SHARD_COLUMN, ...unique],
    );
    return new Set(rows.map((r) => int(r.seqno)));
  }

  /** For each message hash the store knows a trace of: that trace's stored row. */
  private async storedSenders(hashes: string[]): Promise<Map<string, TraceRow>> {
    const found = new Map<string, TraceRow>();
    for (let start = 0; start < hashes.length; start += LOOKUP_CHUNK) {
      const chunk = hashes.slice(start, start + LOOKUP_CHUNK).map((h): SqlValue => Buffer.from(h, 'base64'));
      const rows = await this.store.all(
        `SELECT m.msg_hash AS edge, t.* FROM messages m JOIN traces t ON t.trace_id = m.trace_id WHERE m.msg_hash IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of rows) found.set(bytes(row.edge).toString('base64'), traceRowOf(row));
    }
    return found;
  }
}
