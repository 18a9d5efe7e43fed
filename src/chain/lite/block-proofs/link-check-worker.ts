/**
 * The thread that checks forward links (link-checker.ts sends them): parsing a key block's config proof, computing
 * its validator set and verifying ~100 ed25519 signatures is ~15-25 ms of CPU per key-block link, and a first start on
 * mainnet checks a thousand of them, so none of it runs on the thread that serves HTTP. Keeps its own validator
 * sets (one per key block and catchain), as the main thread did. It runs at the lite index's priority
 * (LITE_INDEX_NICE): under load it yields to the thread that answers requests, without starving.
 */
import '../../../ton/core-speedups.js';
import { parentPort } from 'node:worker_threads';
import { LITE_INDEX_NICE, lowerThisThreadPriority } from '../../../util/thread-priority.js';
import type { ForwardLink } from './proof-tl.js';
import { LiteDataError } from '../errors.js';
import { checkForwardLink, ValidatorSetCache } from './links.js';
import { asBuffers, type LinkCheckAnswer, type LinkCheckRequest } from './link-check-protocol.js';

lowerThisThreadPriority(LITE_INDEX_NICE);
const cache = new ValidatorSetCache();

parentPort!.on('message', (request: LinkCheckRequest) => {
  let answer: LinkCheckAnswer;
  try {
    const checked = checkForwardLink(asBuffers(request.link) as ForwardLink, cache);
    answer = { id: request.id, ok: true, checked };
  } catch (err) {
    answer = { id: request.id, ok: false, message: (err as Error).message, refused: err instanceof LiteDataError };
  }
  parentPort!.postMessage(answer);
});
