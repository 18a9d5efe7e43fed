/** What an API handler knows of the network a request addressed: its identity and its chain. */
import type { Chain } from '../chain/types.js';
import type { IndexReader } from '../index/reader.js';

export interface NetworkContext {
  name: string;
  baseUrl: URL;
  globalId: number;
  /** Friendly addresses carry the test-only flag on every network but mainnet, as toncenter's testnet does. */
  testOnly: boolean;
  chain: Chain;
  /** What serves it (config: --backend): an embedded chain, TON liteservers, or an upstream API. */
  backend?: 'local' | 'lite' | 'upstream';
  /**
   * What of this network still starts while it is served (`tongate start` opens a local chain's v3 index once the
   * sockets serve): /healthcheck says `starting` and names it; empty or absent once everything is up.
   */
  starting?: string[];
  /** The v3 index of this network (src/index); v3's indexed endpoints answer 503 without one. */
  index?: IndexReader;
  /**
   * Token metadata is fetched off-chain into the index between blocks (--fetch-metadata): answers that carry it are
   * not kept per block (src/api/per-block).
   */
  metadataBetweenBlocks?: boolean;
  /** Resolves once the index holds masterchain block `seqno` (src/stream reads a sealed block's traces then). */
  indexed?(seqno: number): Promise<void>;
  /** Masterchain blocks the index is behind the chain (/healthcheck and /metrics). */
  indexLag?(): number;
  /** The newest masterchain block the index holds (answers kept per indexed block: src/api/per-block). */
  indexedSeqno?(): number;
}

/** Each request under a base URL carries the network it addressed (set by the network router). */
declare module 'fastify' {
  interface FastifyRequest {
    network: NetworkContext;
  }
}
