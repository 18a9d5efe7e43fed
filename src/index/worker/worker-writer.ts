/**
 * The main thread's handle on the index's writer thread. Sending a block costs the sender only the
 * packing (tens of microseconds per transaction); parsing and writing happen in the worker, on another
 * core, so a chain producing blocks barely notices its index.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FeedBlock } from '../feed.js';
import type { IndexLocation } from '../open-index.js';
import { packBlock } from './transfer.js';
import type { WorkerReply, WorkerRequest } from './index-worker.js';

/**
 * The built worker (dist/.../index-worker.js) runs as is; from the TypeScript sources (tests, tsx) the
 * worker registers tsx first, which a worker does not inherit from the --import of its parent.
 */
function spawn(location: IndexLocation): Worker {
  const built = new URL('./index-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, { workerData: location });
  const source = new URL('./index-worker.ts', import.meta.url).href;
  // tsx is resolved from here, not from the process's working directory.
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData: location });
}

export class WorkerWriter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(location: IndexLocation) {
    this.worker = spawn(location);
    this.worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve();
      else waiter.reject(new Error(`index worker: ${reply.error}`));
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`index worker exited (code ${code})`)));
  }

  /** True once the worker died: the owner replaces it. */
  get broken(): boolean {
    return this.failure !== undefined;
  }

  write(block: FeedBlock): Promise<void> {
    return this.request((id) => ({ id, block: packBlock(block) }));
  }

  async close(): Promise<void> {
    if (!this.failure) await this.request((id) => ({ id, close: true })).catch(() => undefined);
    await this.worker.terminate();
  }

  private request(make: (id: number) => WorkerRequest): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(make(id));
    });
  }
}
