/**
 * The index's render thread: takes packed blocks from the main thread, parses them and renders their
 * rows (the CPU half of indexing, ~0.1 ms per transaction), and passes the rows straight to the store
 * thread through a port of their own, in the order the blocks came. The store thread writes one
 * group while this one renders the next blocks, so the two halves run on two cores.
 */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../../ton/core-speedups.js';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { INDEX_NICE, lowerThisThreadPriority } from '../../util/thread-priority.js';
import { asError, CodeBocCache, renderBlock } from '../block-rows.js';
import type { RenderedBlock } from '../types.js';
import type { InsertBatch } from '../sql/driver.js';
import type { BlockTraces } from '../traces/block-traces.js';
import type { BlockTokens } from '../tokens/block-tokens.js';
import { CellCache } from './cell-transfer.js';
import { unpackBlock, type PackedBlock } from './transfer.js';

export interface RenderRequest {
  id: number;
  block: PackedBlock;
}

/** What the store thread receives: rows, or the error (as text: it crosses a thread) that rendering raised. */
export type RenderedMessage = { id: number; seqno: number; transactions: number } & (
  { rows: InsertBatch[]; traces?: BlockTraces; tokens?: BlockTokens } | { error: string }
);

export interface RenderWorkerData {
  store: MessagePort;
  /** The thread's nice value (default INDEX_NICE). */
  nice?: number;
}

const { store, nice } = workerData as RenderWorkerData;
lowerThisThreadPriority(nice ?? INDEX_NICE);
const cells = new CellCache();
const codeBocs = new CodeBocCache();

parentPort!.on('message', ({ id, block }: RenderRequest) => {
  const seqno = block.masterchain.id.seqno;
  const transactions = block.transactions.length;
  let rendered: RenderedBlock;
  try {
    rendered = renderBlock(unpackBlock(block, cells), codeBocs);
  } catch (error) {
    rendered = { seqno, transactions, rows: asError(error) };
  }
  const { rows, traces, tokens } = rendered;
  const message: RenderedMessage =
    rows instanceof Error
      ? { id, seqno, transactions, error: rows.stack ?? rows.message }
      : { id, seqno, transactions, rows, traces, tokens };
  store.postMessage(message);
});
