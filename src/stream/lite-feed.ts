/**
 * A lite network's blocks for the hub. A lite chain hands no sealed block over (its index reads each new head
 * from the liteservers itself), so the stream reads what it needs of masterchain block N from the index once the
 * index holds N: the transactions N commits (its own and its shard blocks'), the traces that were completed at N,
 * the new states of the accounts it touched. What it hands the hub is the same `BlockWork` a local chain's sealed
 * block makes, so the notifications are built by the same code, from the rows `/api/v3` answers from.
 *
 * Finality (the stream README says why): a transaction is seen here once a proven masterchain block commits its
 * shard block, which is final; so `confirmed` and then `finalized` are sent together, as on a local chain.
 *
 * A trace is sent once, complete, with the block the index completes it in: a `trace` client's as on a local chain
 * (block-traces.ts reads the pages of the followed traces the block completes). For `transactions` and `actions`
 * clients the trace is followed from the block holding a transaction of a followed account until the block
 * completing it (which on a network of several shards can be a later one), for at most CARRY_BLOCKS masterchain
 * blocks, and its followed transactions of all those blocks are then handed over as that block's news: the hub
 * reads them alone, as it reads a local block's (no trace page).
 */
import type { NetworkContext } from '../http/network-context.js';
import type { PendingTraces } from '../pending/pending-traces.js';
import type { BlockWork, HubLogger, StreamHub } from './hub.js';
import { completedTraces } from './block-traces.js';

/** Masterchain blocks a followed trace may take to complete before it is let go (a few minutes of mainnet). */
export const CARRY_BLOCKS = 256;
/** Rows per index read. */
const PAGE = 1000;

/** A chain that announces its proven heads (chain/lite's LiteChain). */
interface HeadAnnouncer {
  onHead(listener: (seqno: number) => void): () => void;
}

/** The network's heads when it is a lite network with an index the stream can read; else undefined. */
export function liteHeadsOf(network: NetworkContext): HeadAnnouncer | undefined {
  const chain = network.chain as Partial<HeadAnnouncer> | undefined;
  if (network.backend !== 'lite' || !network.index || !network.indexed || typeof chain?.onHead !== 'function') return undefined;
  return chain as HeadAnnouncer;
}

/**
 * A lite network's pending layer as the hub hears it: `pending` and `invalidated` as they come, but not `landed`.
 * A local chain's pending trace is made of the transactions the block then seals, so it can be sent at
 * `confirmed` as it is; a lite network's is an emulation of them (another lt, another time), so `confirmed` is
 * sent only from what the index read from the block.
 */
export function withoutLanded(pending: Pick<PendingTraces, 'listen'>): Pick<PendingTraces, 'listen'> {
  return { listen: (listener) => pending.listen({ ...listener, landed: () => {} }) };
}

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Follows a lite network's heads into `hub`; returns the function that stops it. */
export function followLiteHeads(hub: StreamHub, network: NetworkContext, heads: HeadAnnouncer, logger?: HubLogger): () => void {
  const reader = network.index!;
  /** The next masterchain block to read (set by the first head heard: what came before nobody was told of). */
  let next: number | undefined;
  let tail: Promise<void> = Promise.resolve();
  /** Followed traces not complete yet: trace id -> its followed accounts' transactions so far, since when. */
  const carried = new Map<string, { txHashes: Buffer[]; since: number }>();
  let stopped = false;

  const read = async (seqno: number, headAt: number): Promise<void> => {
    if (stopped) return;
    if (hub.connections.size === 0) {
      carried.clear();
      return;
    }
    await network.indexed!(seqno);
    const lastTx = new Map<string, Buffer>();
    for (let offset = 0; ; offset += PAGE) {
      const page = await reader.transactions({ mcSeqno: seqno }, 'asc', { limit: PAGE, offset });
      for (const tx of page) {
        lastTx.set(tx.account, tx.stateAfter);
        if (!tx.traceId || !hub.follows(tx.account)) continue;
        const traceId = tx.traceId.toString('base64');
        const followed = carried.get(traceId);
        if (followed) followed.txHashes.push(tx.hash);
        else carried.set(traceId, { txHashes: [tx.hash], since: seqno });
      }
      if (page.length < PAGE) break;
    }
    const work: BlockWork = {
      seqno,
      sealedAt: headAt,
      txHashes: [],
      states: [],
      changed: hub.wantsJettons() ? [...lastTx.keys()] : [],
      confirmedEarly: new Map(),
    };
    const tracesFollowed = hub.followsTraces();
    if (carried.size > 0 || tracesFollowed) {
      const completed = await completedTraces(reader, seqno);
      for (const trace of completed) {
        const followed = carried.get(trace.traceId);
        if (!followed) continue;
        work.txHashes.push(...followed.txHashes);
        carried.delete(trace.traceId);
      }
      for (const [traceId, { since }] of carried) if (seqno - since >= CARRY_BLOCKS) carried.delete(traceId);
      // Read once: the hub picks the followed ones for its `trace` clients (block-traces.ts).
      work.completed = completed;
    }
    const followedStates = [...lastTx].filter(([account]) => hub.followsState(account));
    if (followedStates.length > 0) {
      const docs = new Map<string, string>();
      for (const chunk of chunks(followedStates, PAGE))
        for (const [hash, doc] of await reader.accountStateDocs(chunk.map(([, hash]) => hash))) docs.set(hash, doc);
      work.stateDocs = [];
      for (const [account, hash] of followedStates) {
        const doc = docs.get(hash.toString('base64'));
        if (doc) work.stateDocs.push({ account, state: JSON.parse(doc) as unknown });
      }
    }
    // While a `trace` or an `actions` client is connected every block goes to the hub, as a local chain's: it may
    // complete a followed trace, or one whose actions name a followed account (the hub reads them: hub.ts withActions).
    const everyBlock = tracesFollowed || hub.followsActions();
    if (!everyBlock && work.txHashes.length === 0 && !work.stateDocs?.length && work.changed.length === 0) return;
    hub.enqueue(work);
  };

  const stopHeads = heads.onHead((seqno) => {
    const headAt = performance.now();
    next ??= seqno;
    for (; next <= seqno; next++) {
      const block = next;
      tail = tail
        .then(() => read(block, headAt))
        .catch((err: unknown) => logger?.warn({ err, seqno: block }, 'stream: a lite block could not be streamed'));
    }
  });
  return () => {
    stopped = true;
    stopHeads();
  };
}
