/**
 * The pending layer's render thread: turns transaction BoCs into their v3 JSON text (render.ts's renderPending),
 * so the ~0.5-1 ms a transaction costs is not spent on the thread that produces blocks and answers requests.
 * Messages in: {id, boc, workchain, traceId}; out: {id, text} or {id, error}.
 */
import { parentPort } from 'node:worker_threads';
import { Cell } from '@ton/core';
import { renderPending } from './render.js';

interface RenderRequest {
  id: number;
  boc: Uint8Array;
  workchain: number;
  traceId: string;
}

parentPort!.on('message', (requests: RenderRequest[]) => {
  const answers = requests.map(({ id, boc, workchain, traceId }) => {
    try {
      return { id, text: renderPending(Cell.fromBoc(Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength))[0], workchain, traceId) };
    } catch (error) {
      return { id, error: (error as Error).message };
    }
  });
  parentPort!.postMessage(answers);
});
