/**
 * Renders pending transactions and classifies pending traces off the main thread, in one render thread shared by
 * the process's networks, started at the first request (a process nobody streams to never starts it). The requests
 * of a batch (up to RENDER_BATCH_MS of them) travel in one message. A transaction is rendered once: the text is kept
 * on it (PendingTx.rendered), and a second ask while the first is on its way gets the same promise. Should the thread
 * fail, the work falls back to this thread, so a notification is late at worst, never lost.
 */
import type { Worker } from 'node:worker_threads';
import type { ActionPart } from '../index/actions/action-part.js';
import { spawnIndexWorker } from '../index/worker/spawn.js';
import { systemClock, type Clock } from '../util/clock.js';
import { compactBytes } from '../util/cross-thread.js';
import { onceAfter } from '../util/scheduler.js';
import type { PendingTrace, PendingTx } from './pending-traces.js';
import { pendingHashes, pendingTransactionText } from './render.js';
import type { ClassifyRequest, RenderRequest, ThreadRequest } from './render-thread.js';

interface Answer {
  id: number;
  text?: string;
  actions?: ActionPart[];
  error?: string;
}

/** What a request does on this thread instead (the thread failed, or answered with an error). */
interface Waiting {
  settle(answer: Answer | undefined): void;
}

/**
 * How long render requests gather before they leave in one message. The thread renders ahead (a text is needed at
 * the seal, a block interval away, or at `pending`), and each message wakes it: sent every turn, the wake-ups came
 * hundreds of times a second, and a woken thread at nice 0 takes the core from the main thread at once (the
 * main thread's profile showed it as time inside postMessage). `hurry` sends at once what the seal waits for.
 */
export const RENDER_BATCH_MS = 10;

export class PendingRenderer {
  private worker?: Worker;
  private broken = false;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private renders: RenderRequest[] = [];
  private classifications: ClassifyRequest[] = [];
  private readonly inFlight = new WeakMap<PendingTx, Promise<string>>();
  /** Cancels the timer that sends the batch being gathered. */
  private batch?: () => void;
  /** A flush is queued for the end of this turn (`hurry`). */
  private hurried = false;

  /** `clock`: whose timers send a batch (a test's manual clock runs them). */
  constructor(private readonly clock: Clock = systemClock) {}

  render(tx: PendingTx, trace: PendingTrace): Promise<string> {
    if (tx.rendered !== undefined) return Promise.resolve(tx.rendered);
    if (this.broken) return Promise.resolve(pendingTransactionText(tx, trace));
    let promise = this.inFlight.get(tx);
    if (!promise) {
      promise = new Promise<string>((resolve) => {
        const id = this.ask({ settle: (a) => resolve(a?.text ?? pendingTransactionText(tx, trace)) });
        this.renders.push({
          id,
          boc: compactBytes(tx.source.boc ?? tx.source.cell.toBoc()),
          workchain: tx.source.account.workChain,
          traceId: trace.traceId,
          hashes: pendingHashes(tx),
        });
      }).then((text) => (tx.rendered ??= text));
      this.inFlight.set(tx, promise);
    }
    return promise;
  }

  /** The actions of a pending trace whose transactions are rendered (`texts`), classified on the thread. */
  classify(request: Omit<ClassifyRequest, 'id'>): Promise<ActionPart[]> {
    // On this thread only when the thread failed: the classifier's modules load then, not with every start.
    const here = async () =>
      (await import('../index/actions/emulated-trace.js')).emulatedActions(request.head, request.texts, request.contracts);
    if (this.broken) return here();
    return new Promise<ActionPart[]>((resolve, reject) => {
      const id = this.ask({
        settle: (a) => {
          if (a?.actions) resolve(a.actions);
          else if (a?.error) reject(new Error(a.error));
          else here().then(resolve, reject);
        },
      });
      this.classifications.push({ id, ...request });
    });
  }

  private ask(waiting: Waiting): number {
    const id = ++this.nextId;
    this.waiting.set(id, waiting);
    // Sent in batches, at most RENDER_BATCH_MS after the first request of one (or sooner: `hurry`).
    if (this.batch === undefined && !this.hurried) this.batch = onceAfter(this.clock, RENDER_BATCH_MS, () => this.flush());
    return id;
  }

  /**
   * What was asked is needed now (a block sealed: its `confirmed` waits for the texts): the batch leaves once this
   * turn's work is done, with what the turn adds to it.
   */
  hurry(): void {
    if (this.hurried) return;
    this.hurried = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.batch?.();
    this.batch = undefined;
    this.hurried = false;
    // What was settled meanwhile (the thread stopped or failed: done on this thread) is not sent, and starts no thread.
    const renders = this.renders.filter((r) => this.waiting.has(r.id));
    const classifications = this.classifications.filter((c) => this.waiting.has(c.id));
    this.renders = [];
    this.classifications = [];
    const requests: ThreadRequest[] = [];
    if (renders.length > 0) requests.push({ render: renders });
    if (classifications.length > 0) requests.push({ classify: classifications });
    if (requests.length === 0) return;
    try {
      const thread = this.thread();
      for (const request of requests) thread.postMessage(request);
    } catch {
      this.fail();
    }
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnIndexWorker('render-thread', undefined, [], import.meta.url);
    worker.unref();
    worker.on('message', (answers: Answer[]) => {
      for (const answer of answers) {
        const waiting = this.waiting.get(answer.id);
        if (!waiting) continue;
        this.waiting.delete(answer.id);
        waiting.settle(answer);
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
   * loader, so it is ended, not left to unref). What it was asked is done here; a later request starts it again.
   */
  async stop(): Promise<void> {
    this.batch?.();
    this.batch = undefined;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.fail();
    this.broken = false;
    await worker.terminate();
  }

  /** The thread is gone: what it was asked is done here, and so is everything after. */
  private fail(): void {
    this.broken = true;
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.settle(undefined);
    }
  }
}

export const pendingRenderer = new PendingRenderer();
