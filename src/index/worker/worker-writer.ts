/**
 * The main thread's handle on the index's two threads: a render thread (parses blocks and renders
 * their rows) feeding a store thread (commits them) through a port of their own. Sending a block
 * costs the sender only the packing (tens of microseconds per transaction); the rest happens on
 * other cores, rendering one block while the previous ones are written, so a chain producing blocks
 * barely notices its index and a backlog is written at the speed of the slower half.
 */
import { MessageChannel, type Worker } from 'node:worker_threads';
import type { FeedBlock } from '../../chain/feed-block.js';
import type { InsertBatch } from '../sql/driver.js';
import type { IndexLocation } from '../open-index.js';
import { spawnIndexWorker as spawn } from './spawn.js';
import { packBlock, type PackedBlock } from './transfer.js';
import type { RenderRequest, RenderWorkerData } from './render-worker.js';
import type { StoreReply, StoreRequest, StoreWorkerData } from './store-worker.js';
import { serveGetMethods, type GetMethodRelay } from '../tokens/get-methods.js';
import type { TokenBackfillWarnings } from '../tokens/backfill.js';

export class WorkerWriter {
  private readonly render: Worker;
  private readonly store: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closed: Promise<void>;
  private nextId = 1;
  private failure: Error | undefined;

  /**
   * `nice`: the two threads' nice value on Linux (default INDEX_NICE, util/thread-priority.ts).
   * `detection`: the chain's get-methods, for token detection (the store thread asks, this thread relays), and how
   * long the store thread gives one (null: the chain always answers).
   * `dnsRoots`: the network's DNS root collections (src/index/dns).
   * `logger`: where the store thread's lines go (the token back-fill's progress, tokens/backfill.ts).
   */
  constructor(location: IndexLocation, nice?: number, detection?: GetMethodRelay, dnsRoots: string[] = [], logger?: TokenBackfillWarnings) {
    const { port1, port2 } = new MessageChannel();
    this.store = spawn(
      'store-worker',
      {
        location,
        rendered: port2,
        nice,
        getMethods: detection !== undefined,
        getMethodTimeoutMs: detection?.timeoutMs,
        dnsRoots,
      } satisfies StoreWorkerData,
      [port2],
    );
    this.render = spawn('render-worker', { store: port1, nice } satisfies RenderWorkerData, [port1]);
    let closed!: () => void;
    this.closed = new Promise((resolve) => (closed = resolve));
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
      closed();
      // One thread is gone: the other is of no use alone (the owner starts a new pair).
      void this.render.terminate();
      void this.store.terminate();
    };
    this.store.on('message', (reply: StoreReply) => {
      if ('getMethods' in reply) {
        if (detection) void serveGetMethods(detection.run, reply).then((answer) => this.store.postMessage(answer satisfies StoreRequest));
        return;
      }
      if ('log' in reply) return logger?.[reply.log.level]?.(reply.log.object, reply.log.message);
      if ('closed' in reply) return closed();
      if ('failed' in reply) return fail(new Error(`index store thread: ${reply.failed}`));
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve();
      else waiter.reject(new Error(`index writer: ${reply.error}`));
    });
    for (const [name, worker] of [
      ['render', this.render],
      ['store', this.store],
    ] as const) {
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`index ${name} thread exited (code ${code})`)));
    }
  }

  /** True once a thread died (or the store could not connect): the owner replaces the writer. */
  get broken(): boolean {
    return this.failure !== undefined;
  }

  /** Resolves once the block is committed. Blocks are committed in the order they were sent. */
  write(block: FeedBlock): Promise<void> {
    return this.writePacked(packBlock(block));
  }

  /** A block packed already (a benchmark packs ahead, to time the writing alone). */
  writePacked(block: PackedBlock): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const written = new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.render.postMessage({ id, block } satisfies RenderRequest);
    });
    this.inFlight.add(written);
    const forget = () => this.inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  /** Writes rows that are no block's (the fetched token metadata) through the store thread's connection. */
  writeRows(rows: InsertBatch[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const written = new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.store.postMessage({ id, rows } satisfies StoreRequest);
    });
    this.inFlight.add(written);
    const forget = () => this.inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  /**
   * The index was put back to an earlier block (../rewind.ts, while nothing was sent): the store thread's committer
   * drops what it holds of later ones (its failed detections, read back from the store). Resolves once it has.
   */
  rewound(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.store.postMessage({ id, rewound: true } satisfies StoreRequest);
    });
  }

  /** Waits for the blocks sent, closes the store's connection, ends both threads. */
  async close(): Promise<void> {
    if (!this.failure) {
      await Promise.allSettled(this.inFlight);
      this.store.postMessage({ close: true } satisfies StoreRequest);
      await this.closed;
    }
    await Promise.all([this.render.terminate(), this.store.terminate()]);
  }
}
