/**
 * Where forward links are checked: on a thread of their own (link-check-worker.ts), so that proving a thousand key
 * blocks at a first start on mainnet (~15-25 ms of CPU each) never holds up HTTP requests, nor does a new head's
 * link every few hundred milliseconds after. Links are checked in the order sent. Should the thread fail to start
 * or die, the links it held and every later one are checked on this thread instead, one per turn of the event
 * loop: slower to answer, never wrong, and a crash of the checker never counts against a liteserver.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { liteServer_blockLinkForward } from 'ton-lite-client/dist/schema.js';
import { LiteDataError } from '../errors.js';
import { checkForwardLink, ValidatorSetCache, type CheckedLink } from './links.js';
import { asBuffers, type LinkCheckAnswer, type LinkCheckRequest } from './link-check-protocol.js';

export type ForwardLinkResult = CheckedLink & { signedWeight: bigint };

export interface ForwardLinkChecker {
  check(link: liteServer_blockLinkForward): Promise<ForwardLinkResult>;
  close(): Promise<void>;
}

/** On this thread, each link after a yield to the event loop (tests, and the fallback of the thread below). */
export function inlineLinkChecker(cache = new ValidatorSetCache()): ForwardLinkChecker {
  return {
    check: (link) => new Promise((resolve, reject) => setImmediate(() => {
      try {
        resolve(checkForwardLink(link, cache));
      } catch (err) {
        reject(err);
      }
    })),
    close: async () => undefined,
  };
}

interface Pending {
  link: liteServer_blockLinkForward;
  resolve(result: ForwardLinkResult): void;
  reject(err: Error): void;
}

export class ThreadLinkChecker implements ForwardLinkChecker {
  private worker?: Worker;
  private fallback?: ForwardLinkChecker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly onFallback?: (reason: string) => void) {}

  check(link: liteServer_blockLinkForward): Promise<ForwardLinkResult> {
    if (this.fallback) return this.fallback.check(link);
    if (this.closed) return Promise.reject(new Error('the link checker is closed'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { link, resolve, reject });
      try {
        const worker = this.worker ?? this.spawn();
        worker.ref();
        worker.postMessage({ id, link } satisfies LinkCheckRequest);
      } catch (err) {
        this.fail(`cannot start the link-checking thread: ${(err as Error).message}`);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the link checker is closed'));
    this.pending.clear();
    if (worker) await worker.terminate();
  }

  private spawn(): Worker {
    const worker = spawnLinkWorker();
    this.worker = worker;
    worker.on('message', (answer: LinkCheckAnswer) => this.answered(answer));
    worker.on('error', (err) => this.fail(`the link-checking thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.closed) this.fail(`the link-checking thread exited (code ${code})`);
    });
    return worker;
  }

  private answered(answer: LinkCheckAnswer): void {
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (answer.ok) p.resolve(asBuffers(answer.checked) as ForwardLinkResult);
    else p.reject(answer.refused ? new LiteDataError(answer.message) : new Error(answer.message));
  }

  /** The thread is gone: what it held, and everything after, is checked here. */
  private fail(reason: string): void {
    if (this.fallback || this.closed) return;
    this.fallback = inlineLinkChecker();
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.onFallback?.(reason);
    const held = [...this.pending.values()];
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
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, { eval: true });
}
