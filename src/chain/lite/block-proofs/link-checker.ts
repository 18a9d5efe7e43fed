/**
 * Where forward links are checked: on a thread of their own (link-check-worker.ts), so that proving a thousand key
 * blocks at a first start on mainnet (~15-25 ms of CPU each) never holds up HTTP requests, nor does a new head's
 * link every few hundred milliseconds after. Up to one thread per core (defaultLinkThreads). Should a thread fail
 * to start or die, the links held and every later one are checked on this thread instead, one per turn of the
 * event loop: slower to answer, never wrong, and a crash of the checker never counts against a liteserver.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ForwardLink } from './proof-tl.js';
import { LiteDataError } from '../errors.js';
import { checkForwardLink, ValidatorSetCache, type CheckedLink } from './links.js';
import { compactBuffers } from '../../../util/cross-thread.js';
import { asBuffers, type LinkCheckAnswer, type LinkCheckRequest } from './link-check-protocol.js';

export type ForwardLinkResult = CheckedLink & { signedWeight: bigint };

export interface ForwardLinkChecker {
  check(link: ForwardLink): Promise<ForwardLinkResult>;
  close(): Promise<void>;
}

/** On this thread, each link after a yield to the event loop (tests, and the fallback of the thread below). */
export function inlineLinkChecker(cache = new ValidatorSetCache()): ForwardLinkChecker {
  return {
    check: (link) =>
      new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(checkForwardLink(link, cache));
          } catch (err) {
            reject(err);
          }
        }),
      ),
    close: async () => undefined,
  };
}

interface Pending {
  link: ForwardLink;
  worker: Worker;
  resolve(result: ForwardLinkResult): void;
  reject(err: Error): void;
}

/**
 * Threads used at most: each link is checked on its own (its source key block's config proof comes with it), so
 * the links of an answer can be checked side by side, their verdicts still taken in order; a first start on
 * mainnet then takes about its CPU time divided by the cores. A second thread starts only once links queue up.
 */
export function defaultLinkThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export class ThreadLinkChecker implements ForwardLinkChecker {
  private readonly workers: Worker[] = [];
  private readonly queued = new Map<Worker, number>();
  private fallback?: ForwardLinkChecker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly onFallback?: (reason: string) => void,
    private readonly threads = defaultLinkThreads(),
  ) {}

  check(link: ForwardLink): Promise<ForwardLinkResult> {
    if (this.fallback) return this.fallback.check(link);
    if (this.closed) return Promise.reject(new Error('the link checker is closed'));
    let worker: Worker;
    try {
      worker = this.pick();
    } catch (err) {
      this.fail(`cannot start the link-checking thread: ${(err as Error).message}`);
      // fail() set the fallback (TypeScript cannot see it through the call)
      return (this.fallback as ForwardLinkChecker | undefined)?.check(link) ?? Promise.reject(err as Error);
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { link, worker, resolve, reject });
      this.queued.set(worker, (this.queued.get(worker) ?? 0) + 1);
      worker.ref();
      worker.postMessage({ id, link: compactBuffers(link) } satisfies LinkCheckRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const p of this.pending.values()) p.reject(new Error('the link checker is closed'));
    this.pending.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** The thread with the fewest links queued; a new one while every thread has some and the limit allows. */
  private pick(): Worker {
    let best: Worker | undefined;
    for (const w of this.workers) if (best === undefined || this.queued.get(w)! < this.queued.get(best)!) best = w;
    if (best !== undefined && (this.queued.get(best) === 0 || this.workers.length >= this.threads)) return best;
    return this.spawn();
  }

  private spawn(): Worker {
    const worker = spawnLinkWorker();
    this.workers.push(worker);
    this.queued.set(worker, 0);
    worker.on('message', (answer: LinkCheckAnswer) => this.answered(worker, answer));
    worker.on('error', (err) => this.fail(`the link-checking thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (this.workers.includes(worker) && !this.closed) this.fail(`the link-checking thread exited (code ${code})`);
    });
    return worker;
  }

  private answered(worker: Worker, answer: LinkCheckAnswer): void {
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    const left = this.queued.get(worker)! - 1;
    this.queued.set(worker, left);
    if (left === 0) worker.unref();
    if (answer.ok) p.resolve(asBuffers(answer.checked) as ForwardLinkResult);
    else p.reject(answer.refused ? new LiteDataError(answer.message) : new Error(answer.message));
  }

  /** The threads are gone: what they held, and everything after, is checked here. */
  private fail(reason: string): void {
    if (this.fallback || this.closed) return;
    this.fallback = inlineLinkChecker();
    for (const w of this.workers.splice(0)) void w.terminate();
    this.onFallback?.(reason);
    const held = [...this.pending.entries()].sort(([a], [b]) => a - b).map(([, p]) => p);
    this.pending.clear();
    for (const p of held) this.fallback.check(p.link).then(p.resolve, p.reject);
  }
}

/** The built thread (dist/) runs as is; from the TypeScript sources (tests, benches) it registers tsx first. */
function spawnLinkWorker(): Worker {
  const built = new URL('./link-check-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built);
  const source = new URL('./link-check-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, {
    eval: true,
  });
}
