/**
 * The pending layer's render thread: turns transaction BoCs into their v3 JSON text (render.ts's renderPending),
 * and classifies pending traces from those texts (index/actions/emulated-trace.ts), so neither the ~0.1-0.2 ms a
 * transaction costs to render nor a trace's classification is spent on the thread that produces blocks and
 * answers requests.
 * Messages in: {render: [{id, boc, workchain, traceId, hashes}]} or {classify: [{id, head, texts, contracts}]};
 * out: [{id, text} | {id, actions} | {id, error}].
 */
import { parentPort } from 'node:worker_threads';
import { hashCellsOnDemand } from '../ton/core-speedups.js';
import { Cell } from '@ton/core';
import { emulatedActions, type EmulatedTraceHead } from '../index/actions/emulated-trace.js';
import type { KnownContracts } from '../index/actions/trace-input.js';
import type { KnownHashes } from '../ton/transaction-v3-json.js';
import { renderPending } from './render.js';

// The chain hands each transaction's and its messages' hashes over: of the cells read here only the message bodies
// and state inits written are hashed (their hashes and BoCs are in the text).
hashCellsOnDemand();

export interface RenderRequest {
  id: number;
  boc: Uint8Array;
  workchain: number;
  traceId: string;
  /** The transaction's and its messages' hashes, as the chain computed them (render.ts's pendingHashes). */
  hashes: KnownHashes;
}

export interface ClassifyRequest {
  id: number;
  head: EmulatedTraceHead;
  texts: string[];
  contracts: KnownContracts;
}

export type ThreadRequest = { render: RenderRequest[] } | { classify: ClassifyRequest[] };

const answer = (id: number, work: () => object) => {
  try {
    return { id, ...work() };
  } catch (error) {
    return { id, error: (error as Error).message };
  }
};

parentPort!.on('message', (request: ThreadRequest) => {
  const answers =
    'render' in request
      ? request.render.map(({ id, boc, workchain, traceId, hashes }) =>
          answer(id, () => ({
            text: renderPending(Cell.fromBoc(Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength))[0], workchain, traceId, hashes),
          })),
        )
      : request.classify.map(({ id, head, texts, contracts }) => answer(id, () => ({ actions: emulatedActions(head, texts, contracts) })));
  parentPort!.postMessage(answers);
});
