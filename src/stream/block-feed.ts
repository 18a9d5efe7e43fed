/**
 * `GET /api/streaming/blocks`: tongate's own feed of new masterchain blocks, for an explorer's "newest blocks"
 * (toncenter's streaming API follows addresses and traces, and has no notification for a block as such). Server-Sent
 * Events, so a browser's EventSource reads it (`?api_key=`) as well as a fetch with `X-API-Key`:
 *
 *   event: block    data: {"seqno":N,"root_hash":"<base64>","gen_utime":T,"transactions":n}   once the v3 index holds it
 *   event: rewind   data: {"seqno":N}    a snapshot restore put the chain back to N (-1: an import replaced it)
 *   : keepalive     every 15 s
 *
 * Admission as the streaming API's (a key required, judged as any request: 401/403/429; with `--access off`,
 * none), and at most the key's stream connection cap of parallel feeds (default 2), counted apart from the
 * streaming API's own connections so a console holding one of each stays within a key's default. A block is
 * told once the index holds it, so what `/api/v3/blocks` and `/api/v3/transactions?mc_seqno=N` answer for it is
 * there when the client asks. A network whose chain seals no blocks here (lite, upstream) answers 404.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AccessLayer } from '../access/index.js';
import { isDevnetChain } from '../chain/devnet-chain.js';
import type { NetworkContext } from '../http/network-context.js';
import { admit, connectionLimitError, DEFAULT_LIMITS } from './admission.js';
import { KEEPALIVE_MS } from './routes.js';
import { openEventStream } from './event-stream.js';

export const BLOCK_FEED_PATH = '/api/streaming/blocks';

interface Listener {
  res: ServerResponse;
  keyId: string | null;
}

/** One network's feed: subscribed to its chain while someone listens. */
class NetworkFeed {
  readonly listeners = new Set<Listener>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly network: NetworkContext) {}

  add(listener: Listener): void {
    this.listeners.add(listener);
    if (this.unsubscribe === undefined) this.follow();
  }

  remove(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size === 0 && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
    }
  }

  private follow(): void {
    const { chain } = this.network;
    // Blocks are told in seal order: each waits for the one before it (and for the index to hold it).
    let told = Promise.resolve();
    const offBlock = chain.onBlock((block) => {
      const header = block.masterchain;
      const data = JSON.stringify({
        seqno: header.id.seqno,
        root_hash: header.id.rootHash.toString('base64'),
        gen_utime: header.genUtime,
        transactions: block.transactions.length,
      });
      const indexed = this.network.indexed?.(header.id.seqno) ?? Promise.resolve();
      told = told.then(() =>
        indexed.then(
          () => this.write('block', data),
          () => this.write('block', data),
        ),
      );
    });
    const offRewind = chain.onRewind?.((rewind) => {
      // After the blocks already told, so a client never sees a rewound block come after its rewind.
      const data = JSON.stringify({ seqno: rewind.seqno });
      told = told.then(() => this.write('rewind', data));
    });
    this.unsubscribe = () => {
      offBlock();
      offRewind?.();
    };
  }

  write(event: string, data: string): void {
    const frame = `event: ${event}\ndata: ${data}\n\n`;
    for (const listener of this.listeners) listener.res.write(frame);
  }
}

/** The feeds of one gateway (shared by its listeners, as the access layer is). */
const feedsOf = new WeakMap<AccessLayer, { feeds: Map<NetworkContext, NetworkFeed>; perKey: Map<string, number> }>();

export function registerBlockFeed(app: FastifyInstance, { access }: { access: AccessLayer }): void {
  let shared = feedsOf.get(access);
  if (!shared) feedsOf.set(access, (shared = { feeds: new Map(), perKey: new Map() }));
  const { feeds, perKey } = shared;
  const mine = new Set<Listener>();
  const keepalive = setInterval(() => {
    for (const listener of mine) listener.res.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();

  app.get(BLOCK_FEED_PATH, async (request, reply) => {
    const network = request.network;
    if (!isDevnetChain(network.chain))
      return reply
        .code(404)
        .send({ ok: false, error: `no block feed on network ${network.name}: its chain is not sealed here`, code: 404 });
    const admitted = await admit(access, request, reply, DEFAULT_LIMITS);
    if (admitted === undefined) return reply;
    const { keyId, connections } = admitted;
    if (keyId !== null && connections >= 0 && (perKey.get(keyId) ?? 0) >= connections)
      return reply.code(429).send({ ok: false, error: connectionLimitError(connections), code: 429 });
    if (keyId !== null) perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);

    let feed = feeds.get(network);
    if (!feed) feeds.set(network, (feed = new NetworkFeed(network)));
    const res = openEventStream(reply);
    const listener: Listener = { res, keyId };
    res.write(`event: connected\ndata: ${JSON.stringify({ seqno: network.chain.masterchainInfo().last.id.seqno })}\n\n`);
    feed.add(listener);
    mine.add(listener);
    res.on('close', () => {
      feed.remove(listener);
      mine.delete(listener);
      if (keyId !== null) {
        const left = (perKey.get(keyId) ?? 1) - 1;
        if (left > 0) perKey.set(keyId, left);
        else perKey.delete(keyId);
      }
    });
  });

  app.addHook('preClose', async () => {
    clearInterval(keepalive);
    for (const listener of mine) listener.res.end(': closed: shutting down\n\n');
  });
}
