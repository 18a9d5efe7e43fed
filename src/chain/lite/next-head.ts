/**
 * The next masterchain head as soon as a liteserver has it: `liteServer.getMasterchainInfo` behind the LiteAPI's
 * `liteServer.waitMasterchainSeqno` prefix, so the server holds the answer until block `seqno` exists (or its
 * `timeoutMs` passes: then a liteServer.error, timeout). A pool that only polled once a second would learn of
 * mainnet's 2.5 blocks a second two or three at a time, and its index would lag by that much before any work.
 */
import type { TLFunction } from 'ton-tl';
import { Functions, type liteServer_masterchainInfo } from 'ton-lite-client/dist/schema.js';

export interface NextHeadRequest {
  seqno: number;
  timeoutMs: number;
}

export const nextHead: TLFunction<NextHeadRequest, liteServer_masterchainInfo> = {
  encodeRequest(request, encoder) {
    Functions.liteServer_waitMasterchainSeqno.encodeRequest(
      { kind: 'liteServer.waitMasterchainSeqno', seqno: request.seqno, timeoutMs: request.timeoutMs },
      encoder,
    );
    Functions.liteServer_getMasterchainInfo.encodeRequest({ kind: 'liteServer.getMasterchainInfo' }, encoder);
  },
  decodeResponse: (decoder) => Functions.liteServer_getMasterchainInfo.decodeResponse(decoder),
};
