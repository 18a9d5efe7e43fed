/**
 * Keeps a network's index in step with its chain: every sealed block is written, in seqno order, once.
 *
 * Live blocks come from chain.onBlock (the sealed block in memory: nothing is read back). Blocks the
 * index has not seen (a fresh index on an existing data dir, a restart after a crash, a write that
 * failed) are read from the chain's store by seqno. One pump does both, so the order is the chain's
 * whatever the timing: it writes seqno N from the live event when it has one, else reads it.
 *
 * The pump only moves cells: parsing, rendering and writing happen in the index's own threads (see
 * worker/worker-writer.ts), so the thread that produces blocks pays for packing them and nothing more.
 * Several blocks are in flight at once (WRITE_WINDOW), so a backlog is rendered and written in
 * parallel and committed in groups.
 *
 * A write that fails (PostgreSQL down) is retried after a pause; meanwhile live blocks wait in memory,
 * up to a cap past which they are dropped and read from the chain's store once the index is back.
 */
import type { SealedBlock } from '../chain/types.js';
import { WHOLE_SHARD } from '../ton/workchain.js';
import type { FeedBlock } from '../chain/feed-block.js';
import { feedFromChain, feedFromSealed, indexedFromFeed, type IndexFeed } from './feed.js';
import type { Index, ServedIndex } from './open-index.js';
import type { InsertBatch } from './sql/driver.js';
import { WorkerWriter } from './worker/worker-writer.js';
import { directGetMethods, GET_METHOD_TIMEOUT_MS, type GetMethodRelay, type RunGetMethod } from './tokens/get-methods.js';
import { INDEX_NICE } from '../util/thread-priority.js';

export type { IndexFeed };

/**
 * Blocks in flight to the writer: enough for the render thread to work ahead of the store thread and
 * for a backlog to be committed in groups; few enough that a failure wastes little work.
 */
export const WRITE_WINDOW = 8;

export interface IndexLogger {
  error(object: object, message: string): void;
  warn?(object: object, message: string): void;
  info?(object: object, message: string): void;
}

export interface AttachOptions {
  logger?: IndexLogger;
  /** Pause before retrying a failed write (default 1000 ms). */
  retryMs?: number;
  /** Live blocks kept while the index is behind (default 256); beyond, they are re-read from the chain. */
  maxPending?: number;
  /** Blocks sent to the writer before the first of them is committed (default WRITE_WINDOW). */
  window?: number;
  /**
   * 'worker' (default): blocks are parsed, rendered and written by the index's own threads, so producing blocks
   * costs only their packing; 'main': here, in this thread.
   */
  thread?: 'worker' | 'main';
  /** When the index is empty: the first masterchain seqno to index (default 0). A real network's index starts where tongate starts. */
  startAt?: number;
  /** The index threads' nice value (default INDEX_NICE; a lite network's: LITE_INDEX_NICE). */
  threadNice?: number;
  /** Called after each block is committed (runIndex: wakes the metadata fetcher, new token uris may be there). */
  onIndexed?: (seqno: number) => void;
  /** The network's DNS root collections, raw addresses (src/index/dns; default none). */
  dnsRoots?: string[];
}

export interface IndexAttachment {
  /** Resolves once every masterchain block up to `seqno` (default: the chain's last) is in the index. */
  synced(seqno?: number): Promise<void>;
  /** The newest masterchain seqno written, -1 before the first. */
  lastIndexed(): number;
  /**
   * Writes rows that are no block's (the fetched token metadata) through the connection that writes blocks
   * (the store thread's): SQLite has one writer at a time. Refused once detached.
   */
  writeRows(rows: InsertBatch[]): Promise<void>;
  /** Stops following the chain; resolves when the write in progress (if any) is done. */
  detach(): Promise<void>;
}

/** Where blocks go: the index's writer in this thread, or its render and store threads. */
interface BlockSink {
  write(block: FeedBlock): Promise<void>;
  writeRows(rows: InsertBatch[]): Promise<void>;
  /** The index was put back to an earlier block: the writer drops what it holds of later ones (its failed detections). */
  rewound(): Promise<void>;
  close(): Promise<void>;
}

function mainThreadSink(index: Index, runGetMethod?: RunGetMethod, dnsRoots: string[] = [], logger?: IndexLogger): BlockSink {
  let closing = false;
  let backfill: Promise<unknown> = Promise.resolve();
  if (runGetMethod) {
    index.writer.useGetMethods(directGetMethods(runGetMethod), dnsRoots);
    // An index written before token detection: its contracts detected beside the blocks (tokens/backfill.ts).
    backfill = index.writer.backfillTokens({ dnsRoots, logger, stopped: () => closing }).catch((err: Error) => {
      if (!closing) logger?.warn?.({ err }, 'index: the token back-fill stopped; it resumes at the next start');
    });
  }
  // Then the actions of traces completed before actions were kept (actions/backfill.ts): they need the token contracts.
  backfill = backfill
    .then(() => index.writer.backfillActions({ logger, stopped: () => closing }))
    .catch((err: Error) => {
      if (!closing) logger?.warn?.({ err }, 'index: the actions back-fill stopped; it resumes at the next start');
    });
  return {
    write: (block) => index.writer.write(indexedFromFeed(block)),
    writeRows: (rows) => index.writer.writeRows(rows),
    // index.rewind() told index.writer already.
    rewound: () => Promise.resolve(),
    async close() {
      closing = true;
      await backfill;
    },
  };
}

/** A main-thread sink writes through the index's own writer: an index opened by openIndex, not openServedIndex. */
function withWriter(index: ServedIndex | Index): Index {
  if (!('writer' in index)) throw new Error(`the ${index.network} index was opened without a writer in this thread (openServedIndex)`);
  return index;
}

/** The index's threads, replaced by fresh ones if one dies (the failed block is retried by the pump). */
function workerSink(
  index: ServedIndex,
  nice?: number,
  detection?: GetMethodRelay,
  dnsRoots: string[] = [],
  logger?: IndexLogger,
): BlockSink {
  let worker: WorkerWriter | undefined;
  const current = () => {
    if (!worker || worker.broken) worker = new WorkerWriter(index.location, nice, detection, dnsRoots, logger);
    return worker;
  };
  // Started now, not at the first block: its store thread runs the token back-fill an older index may need, and an
  // index already at its chain's head may wait long for a block.
  if (detection) current();
  return {
    write: (block) => current().write(block),
    writeRows: (rows) => current().writeRows(rows),
    // Threads not started, or dead (before or while told), hold nothing: new ones read the store at their first group.
    rewound: () => (worker && !worker.broken ? worker.rewound().catch(() => {}) : Promise.resolve()),
    async close() {
      await worker?.close();
    },
  };
}

/**
 * An index written from another chain (a data dir whose chain was replaced, a database written by another
 * instance's chain) would mix two histories: refuse it, naming the chain the index holds, and never advising to
 * delete it (it may be another instance's: its data, not this one's to throw away).
 */
async function assertSameChain(index: ServedIndex, feed: IndexFeed, last: number): Promise<void> {
  if (last < 0) return;
  const range = await index.reader.masterchainRange();
  const ours = range!.last;
  const head = feed.masterchainInfo().last.id.seqno;
  const theirs = last <= head ? await feed.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: last }) : undefined;
  if (theirs && theirs.id.rootHash.equals(ours.id.rootHash)) return;
  const where = index.location.kind === 'sqlite' ? `SQLite ${index.location.file}` : `PostgreSQL schema ${index.location.schema}`;
  const held = `masterchain blocks ${range!.first.id.seqno}..${last} of another chain (global_id ${ours.globalId}; its block ${last} is ${hashHead(ours.id.rootHash)}, sealed ${new Date(ours.genUtime * 1000).toISOString()})`;
  const ownBlock = theirs ? `this chain's block ${last} is ${hashHead(theirs.id.rootHash)}` : `this chain is at block ${head}`;
  throw new Error(
    `the ${index.network} index (${where}) holds ${held}; ${ownBlock}. ` +
      'Give this chain an index of its own (another --data-dir or --database-url), or serve the chain the index was written from',
  );
}

/** The first bytes of a hash, enough to tell two blocks apart in a message. */
function hashHead(hash: Buffer): string {
  return `${hash.subarray(0, 8).toString('hex').toUpperCase()}…`;
}

/**
 * Follows `feed` into `index`: catches up from the index's last block to the chain's, then writes each
 * new block as it is sealed.
 */
export async function attachIndexToChain(
  index: ServedIndex | Index,
  feed: IndexFeed,
  options: AttachOptions = {},
): Promise<IndexAttachment> {
  const retryMs = options.retryMs ?? 1000;
  const maxPending = options.maxPending ?? 256;
  const window = options.window ?? WRITE_WINDOW;
  let written = await index.reader.lastMasterchainSeqno();
  await assertSameChain(index, feed, written);
  // An empty index of a chain that did not start here (a real network) begins where it is told to.
  if (written < 0 && options.startAt !== undefined) written = options.startAt - 1;
  // Token detection runs get-methods through the chain (tokens/README.md): a feed without them detects nothing.
  // They are index work, at the index threads' priority (an emulating chain runs them on a worker of that nice
  // value): they yield to block production and to get-methods somebody waits for.
  const getMethodOptions = { nice: options.threadNice ?? INDEX_NICE };
  const runGetMethod: RunGetMethod | undefined = feed.runGetMethod
    ? (address, method, stack, mcSeqno) => feed.runGetMethod!(address, method, stack, mcSeqno, getMethodOptions)
    : undefined;
  const sink =
    options.thread === 'main'
      ? mainThreadSink(withWriter(index), runGetMethod, options.dnsRoots, options.logger)
      : workerSink(
          index,
          options.threadNice,
          runGetMethod && { run: runGetMethod, timeoutMs: feed.getMethodsAlwaysAnswer ? null : GET_METHOD_TIMEOUT_MS },
          options.dnsRoots,
          options.logger,
        );
  const pending = new Map<number, SealedBlock>();
  const waiters: { seqno: number; resolve: () => void }[] = [];
  let running: Promise<void> | undefined;
  let again = false;
  let detached = false;
  let retry: NodeJS.Timeout | undefined;
  /** Set while the index is put back after its chain was (a snapshot restore): the pump waits. */
  let rewinding: Promise<void> | undefined;

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].seqno <= written) waiters.splice(i, 1)[0].resolve();
    }
  };

  /**
   * Sends blocks ahead, up to `window` in flight (rendered and written by the writer while the next
   * are sent), and moves `written` forward as they are committed, in order. A failure stops the
   * sending; the blocks still in flight settle (the writer refuses any past the failed one) before
   * the pump retries from the first block not written.
   */
  const pumpOnce = async () => {
    const inFlight: { seqno: number; done: Promise<void> }[] = [];
    try {
      while (!detached && !rewinding) {
        const last = feed.masterchainInfo().last.id.seqno;
        while (inFlight.length < window && !detached && !rewinding) {
          const seqno = (inFlight.at(-1)?.seqno ?? written) + 1;
          if (seqno > last) break;
          const live = pending.get(seqno);
          const done = sink.write(
            live ? feedFromSealed(live) : await (feed.feedBlock ? feed.feedBlock(seqno) : feedFromChain(feed, seqno)),
          );
          // Observed below, in order; a rejection met while an earlier block is awaited is not lost.
          done.catch(() => {});
          inFlight.push({ seqno, done });
        }
        const head = inFlight.shift();
        if (!head) return;
        await head.done;
        pending.delete(head.seqno);
        written = head.seqno;
        settle();
        options.onIndexed?.(written);
      }
    } finally {
      await Promise.allSettled(inFlight.map((f) => f.done));
    }
  };

  const pump = (): void => {
    if (rewinding) return;
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

  // A sealed block is taken in the turn after its seal: packing its cells for the writer (up to ~0.2 s for a block of
  // a thousand transactions on a busy machine) then runs after what the seal's other listeners started in that turn,
  // such as the stream's `confirmed` notifications, instead of before them.
  let pumpSoon: NodeJS.Immediate | undefined;
  const unsubscribeBlocks = feed.onBlock((sealed) => {
    const seqno = sealed.masterchain.id.seqno;
    if (seqno <= written) return;
    if (pending.size < maxPending) pending.set(seqno, sealed);
    pumpSoon ??= setImmediate(() => {
      pumpSoon = undefined;
      pump();
    });
  });
  const unsubscribeHeads = feed.onHead?.((seqno) => {
    if (seqno > written) pump();
  });
  /**
   * The chain went back to `seqno` (its later blocks are gone; new ones will reuse their seqnos): the live blocks
   * held are of the old history, the blocks being written are let finish, then the index is put back and the pump
   * goes on from there. The chain answers the restore once this resolves.
   */
  const unsubscribeRewinds = feed.onRewind?.((rewind) => {
    pending.clear();
    clearTimeout(retry);
    retry = undefined;
    const run = (rewinding ?? Promise.resolve()).then(async () => {
      // A write in flight may fail (its block was read from the store that was cut): it settles all the same.
      while (running) await running;
      // The chain is already back: token contracts are detected again at the restored state (tokens/rewind-tokens.ts).
      if (rewind.seqno < 0 || written > rewind.seqno) {
        await index.rewind(rewind, runGetMethod && directGetMethods(runGetMethod), options.dnsRoots);
        // The writer's failed detections of the later blocks go too (tokens/detection-retry.ts), before the next block.
        await sink.rewound();
      }
      written = Math.min(written, rewind.seqno);
    });
    const current: Promise<void> = run.finally(() => {
      if (rewinding === current) {
        rewinding = undefined;
        pump();
      }
    });
    rewinding = current;
    // A chain replaced whole (an import) is indexed again from its first block: answered once that is done.
    return rewind.seqno < 0 ? current.then(() => synced(feed.masterchainInfo().last.id.seqno)) : current;
  });
  const unsubscribe = () => {
    clearImmediate(pumpSoon);
    pumpSoon = undefined;
    unsubscribeBlocks();
    unsubscribeHeads?.();
    unsubscribeRewinds?.();
  };
  pump();

  function synced(seqno = feed.masterchainInfo().last.id.seqno): Promise<void> {
    if (seqno <= written) return Promise.resolve();
    return new Promise((resolve) => {
      waiters.push({ seqno, resolve });
      // A block just sealed is taken in the next turn (above): a caller in the seal's turn (the stream hub asking
      // for the block it announces) waits for that pump rather than running one now, ahead of the seal's listeners.
      if (pumpSoon === undefined) pump();
    });
  }

  return {
    synced,
    lastIndexed: () => written,
    writeRows: (rows) => (detached ? Promise.reject(new Error('the index no longer follows its chain')) : sink.writeRows(rows)),
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
