/**
 * Renders pending transactions off the main thread, in one render thread shared by the process's networks, started
 * at the first render asked for (a process nobody streams to never starts it). Requests of one event-loop turn
 * travel in one message. A transaction is rendered once: the text is kept on it (PendingTx.rendered), and a second
 * ask while the first is on its way gets the same promise. Should the thread fail, rendering falls back to this
 * thread, so a notification is late at worst, never lost.
 */
import type { Worker } from 'node:worker_threads';
import { spawnIndexWorker } from '../index/worker/spawn.js';
import type { PendingTrace, PendingTx } from './pending-traces.js';
import { pendingTransactionText } from './render.js';

interface Waiting {
  resolve(text: string): void;
  tx: PendingTx;
  trace: PendingTrace;
}

class PendingRenderer {
  private worker?: Worker;
  private broken = false;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private batch: { id: number; boc: Buffer; workchain: number; traceId: string }[] = [];
  private readonly inFlight = new WeakMap<PendingTx, Promise<string>>();

  render(tx: PendingTx, trace: PendingTrace): Promise<string> {
    if (tx.rendered !== undefined) return Promise.resolve(tx.rendered);
    if (this.broken) return Promise.resolve(pendingTransactionText(tx, trace));
    let promise = this.inFlight.get(tx);
    if (!promise) {
      promise = new Promise<string>((resolve) => {
        const id = ++this.nextId;
        this.waiting.set(id, { resolve, tx, trace });
        if (this.batch.length === 0) queueMicrotask(() => this.flush());
        this.batch.push({
          id,
          boc: tx.source.boc ?? tx.source.cell.toBoc(),
          workchain: tx.source.account.workChain,
          traceId: trace.traceId,
        });
      }).then((text) => (tx.rendered ??= text));
      this.inFlight.set(tx, promise);
    }
    return promise;
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    try {
      this.thread().postMessage(batch);
    } catch {
      this.fail();
    }
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnIndexWorker('render-thread', undefined, [], import.meta.url);
    worker.unref();
    worker.on('message', (answers: { id: number; text?: string; error?: string }[]) => {
      for (const answer of answers) {
        const waiting = this.waiting.get(answer.id);
        if (!waiting) continue;
        this.waiting.delete(answer.id);
        waiting.resolve(answer.text ?? pendingTransactionText(waiting.tx, waiting.trace));
      }
    });
    worker.on('error', () => this.fail());
    worker.on('exit', () => {
      if (this.worker === worker) this.fail();
    });
    this.worker = worker;
    return worker;
  }

  /**
   * Ends the thread (a gateway closing: a thread started from the TypeScript sources is kept alive by its module
   * loader, so it is ended, not left to unref). What it was asked is rendered here; a later render starts it again.
   */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.fail();
    this.broken = false;
    await worker.terminate();
  }

  /** The thread is gone: what it was asked is rendered here, and so is everything after. */
  private fail(): void {
    this.broken = true;
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.resolve(pendingTransactionText(waiting.tx, waiting.trace));
    }
  }
}

export const pendingRenderer = new PendingRenderer();
