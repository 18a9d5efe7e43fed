/**
 * Keeps a network's index in step with its chain: every sealed block is written, in seqno order, once.
 *
 * Live blocks come from chain.onBlock (the sealed block in memory: nothing is read back). Blocks the
 * index has not seen (a fresh index on an existing data dir, a restart after a crash, a write that
 * failed) are read from the chain's store by seqno. One pump does both, so the order is the chain's
 * whatever the timing: it writes seqno N from the live event when it has one, else reads it.
 *
 * The pump only moves cells: parsing and writing happen in the index's writer thread (see
 * worker/worker-writer.ts), so the thread that produces blocks pays for packing them and nothing more.
 *
 * A write that fails (PostgreSQL down) is retried after a pause; meanwhile live blocks wait in memory,
 * up to a cap past which they are dropped and read from the chain's store once the index is back.
 */
import { WHOLE_SHARD, type SealedBlock } from '../chain/types.js';
import { feedFromChain, feedFromSealed, indexedFromFeed, type FeedBlock, type IndexFeed } from './feed.js';
import type { Index } from './open-index.js';
import { WorkerWriter } from './worker/worker-writer.js';

export type { IndexFeed };

export interface IndexLogger {
  error(object: object, message: string): void;
}

export interface AttachOptions {
  logger?: IndexLogger;
  /** Pause before retrying a failed write (default 1000 ms). */
  retryMs?: number;
  /** Live blocks kept while the index is behind (default 256); beyond, they are re-read from the chain. */
  maxPending?: number;
  /**
   * 'worker' (default): blocks are parsed and written by the index's own thread, so producing blocks
   * costs only their packing; 'main': here, in this thread.
   */
  thread?: 'worker' | 'main';
}

export interface IndexAttachment {
  /** Resolves once every masterchain block up to `seqno` (default: the chain's last) is in the index. */
  synced(seqno?: number): Promise<void>;
  /** The newest masterchain seqno written, -1 before the first. */
  lastIndexed(): number;
  /** Stops following the chain; resolves when the write in progress (if any) is done. */
  detach(): Promise<void>;
}

/** Where blocks go: the index's writer in this thread, or its writer thread. */
interface BlockSink {
  write(block: FeedBlock): Promise<void>;
  close(): Promise<void>;
}

function mainThreadSink(index: Index): BlockSink {
  return { write: (block) => index.writer.write(indexedFromFeed(block)), close: async () => {} };
}

/** A writer thread, replaced by a fresh one if it dies (the failed block is retried by the pump). */
function workerSink(index: Index): BlockSink {
  let worker: WorkerWriter | undefined;
  return {
    write(block) {
      if (!worker || worker.broken) worker = new WorkerWriter(index.location);
      return worker.write(block);
    },
    async close() {
      await worker?.close();
    },
  };
}

/**
 * An index written from another chain (an ephemeral chain restarted against the same PostgreSQL
 * schema, a data dir swapped) would mix two histories: refuse it, saying what to do.
 */
async function assertSameChain(index: Index, feed: IndexFeed, last: number): Promise<void> {
  if (last < 0) return;
  const range = await index.reader.masterchainRange();
  const ours = range!.last;
  const theirs = last <= feed.masterchainInfo().last.id.seqno ? await feed.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: last }) : undefined;
  if (!theirs || !theirs.id.rootHash.equals(ours.id.rootHash)) {
    throw new Error(
      `the ${index.network} index (${index.store}) holds masterchain block ${last} of another chain; ` +
        'start from an empty index (delete index.sqlite, or drop the PostgreSQL schema) or point it at the chain it was written from',
    );
  }
}

/**
 * Follows `feed` into `index`: catches up from the index's last block to the chain's, then writes each
 * new block as it is sealed.
 */
export async function attachIndexToChain(index: Index, feed: IndexFeed, options: AttachOptions = {}): Promise<IndexAttachment> {
  const retryMs = options.retryMs ?? 1000;
  const maxPending = options.maxPending ?? 256;
  let written = await index.reader.lastMasterchainSeqno();
  await assertSameChain(index, feed, written);
  const sink = options.thread === 'main' ? mainThreadSink(index) : workerSink(index);
  const pending = new Map<number, SealedBlock>();
  const waiters: { seqno: number; resolve: () => void }[] = [];
  let running: Promise<void> | undefined;
  let again = false;
  let detached = false;
  let retry: NodeJS.Timeout | undefined;

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].seqno <= written) waiters.splice(i, 1)[0].resolve();
    }
  };

  const pumpOnce = async () => {
    while (!detached) {
      const next = written + 1;
      if (next > feed.masterchainInfo().last.id.seqno) return;
      const live = pending.get(next);
      await sink.write(live ? feedFromSealed(live) : await feedFromChain(feed, next));
      pending.delete(next);
      written = next;
      settle();
    }
  };

  const pump = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pumpOnce();
        } catch (err) {
          options.logger?.error({ err, seqno: written + 1 }, 'indexing a block failed; retrying');
          if (!detached && !retry) {
            retry = setTimeout(() => {
              retry = undefined;
              pump();
            }, retryMs);
            retry.unref();
          }
          return;
        }
      } while (again && !detached);
    })().finally(() => {
      running = undefined;
    });
  };

  const unsubscribe = feed.onBlock((sealed) => {
    const seqno = sealed.masterchain.id.seqno;
    if (seqno <= written) return;
    if (pending.size < maxPending) pending.set(seqno, sealed);
    pump();
  });
  pump();

  return {
    synced(seqno = feed.masterchainInfo().last.id.seqno) {
      if (seqno <= written) return Promise.resolve();
      return new Promise((resolve) => {
        waiters.push({ seqno, resolve });
        pump();
      });
    },
    lastIndexed: () => written,
    async detach() {
      detached = true;
      unsubscribe();
      clearTimeout(retry);
      await running;
      pending.clear();
      await sink.close();
    },
  };
}
