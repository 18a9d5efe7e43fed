/**
 * One emulator worker thread, seen from the main thread: sends it requests, matches the answers,
 * remembers which sticky inputs it holds (emulator-protocol.ts), and replaces it when it dies.
 *
 * Failure rules (a worker crash or an emulator exception never crashes the process nor hangs a call):
 *  - The worker answers in order, so the oldest call waiting is the one it was running. If the worker
 *    exits (crash, out of memory, terminated) or the WASM emulator throws, that one call fails with
 *    EmulatorFailed; the calls queued behind it go to a fresh worker, in the same order (emulation is
 *    a pure function of its inputs, so sending one again is harmless).
 *  - A worker that dies before it could load the emulator fails every waiting call (sending them
 *    again would fail the same way); the next call tries a new worker.
 *
 * The worker keeps the process alive only while a call is waiting (ref/unref), so a process with an
 * idle pool can exit.
 */
import { Worker } from 'node:worker_threads';
import type { GetRunArgs, GetRunResult, TxRunArgs, TxRunResult } from './emulator.js';
import type { DropRequest, EmulatorWorkerData, GetArgs, StateArgs, TxArgs, WorkerRequest, WorkerResponse } from './emulator-protocol.js';
import type { StateGetArgs, StateGetResult } from './state-get-method.js';
import { EmulatorFailed } from '../errors.js';

/**
 * The worker's file sits next to this module: `.js` in dist/ runs as is. From the TypeScript sources
 * (tests, benches, under tsx), a worker does not inherit the parent's `--import tsx` (Node 20), so a
 * small boot script registers tsx's loader in the worker first, then imports the `.ts` file. Both are
 * resolved here, so the process's working directory does not matter.
 */
/**
 * The emulator's WASM module as the process's first worker compiled it: later workers instantiate it (its code is
 * shared between threads, not copied) instead of each compiling it again.
 */
let compiledEmulator: WebAssembly.Module | undefined;

function spawnWorker(workerData: EmulatorWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./emulator-worker.js', import.meta.url), { workerData });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./emulator-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

export type CallRequest =
  { op: 'init' } | { op: 'tx'; args: TxRunArgs } | { op: 'get'; args: GetRunArgs } | { op: 'getState'; args: StateGetArgs };

/** The config a call runs under: its id in the pool and its BoC (sent once per worker). */
export interface ConfigRef {
  id: number;
  config: string;
}

interface Call {
  id: number;
  cfg: ConfigRef;
  request: CallRequest;
  /** Sent again after its worker crashed: runs alone, not batched with the calls that may have crashed it. */
  alone?: boolean;
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/** What one worker holds for a config id (mirrors ConfigSlot in the worker). */
interface Held {
  prevBlocksInfo: string | null;
  libs: string | null;
}

let nextCallId = 1;

export class EmulatorThread {
  private worker?: Worker;
  /** The worker loaded the emulator (answered 'ready'). */
  private started = false;
  private lastError?: string;
  private readonly calls = new Map<number, Call>();
  private held = new Map<number, Held>();
  /**
   * Get-methods not posted yet: those asked in one turn of the event loop cross in one message (a block's
   * detection asks dozens at once; each postMessage costs the main thread ~50 µs). Anything else flushes them
   * first and goes at once, so the worker still sees every request in the order it was made.
   */
  private outbox: WorkerRequest[] = [];
  private flushScheduled = false;
  private referenced = true;
  private closed = false;

  /**
   * `nice`: the worker runs at this lower CPU priority than the thread serving HTTP (transaction workers:
   * throughput work; the index's get-methods: work nobody waits on), null: read workers answer requests and
   * keep the normal priority.
   */
  constructor(
    readonly label: string,
    private readonly nice: number | null = null,
  ) {}

  /** Calls answered (successfully or not) since the pool started this lane slot. */
  served = 0;

  /** Calls sent and not answered yet. */
  get load(): number {
    return this.calls.size;
  }

  /** Its worker compiled the WASM module itself rather than being handed the one compiled before. */
  compiledHere = false;

  /** Its worker has loaded the emulator. */
  get ready(): boolean {
    return this.started && this.worker !== undefined;
  }

  /** Starts the worker ahead of its first call. */
  warm(): void {
    if (this.closed || this.worker) return;
    this.spawn();
    this.updateRef();
  }

  call(cfg: ConfigRef, request: { op: 'init' }): Promise<null>;
  call(cfg: ConfigRef, request: { op: 'tx'; args: TxRunArgs }): Promise<TxRunResult>;
  call(cfg: ConfigRef, request: { op: 'get'; args: GetRunArgs }): Promise<GetRunResult>;
  call(cfg: ConfigRef, request: { op: 'getState'; args: StateGetArgs }): Promise<StateGetResult>;
  call(cfg: ConfigRef, request: CallRequest): Promise<unknown> {
    if (this.closed) return Promise.reject(new EmulatorFailed(`the ${this.label} emulator worker is closed`));
    return new Promise((resolve, reject) => {
      const call: Call = { id: nextCallId++, cfg, request, resolve, reject };
      this.calls.set(call.id, call);
      try {
        this.send(call);
      } catch (err) {
        // e.g. a value that cannot be cloned: this call never reached the worker
        this.calls.delete(call.id);
        reject(new EmulatorFailed(`the emulator call could not be sent: ${(err as Error).message}`));
      }
      this.updateRef();
    });
  }

  /** The pool no longer uses this config: the worker frees its emulator. */
  drop(cfgId: number): void {
    if (!this.held.delete(cfgId) || !this.worker) return;
    const req: DropRequest = { op: 'drop', cfg: cfgId };
    this.flush();
    this.worker.postMessage(req);
  }

  /**
   * Terminates the worker as a crash would, now: the call it runs fails, the others go to a new
   * worker (its own exit, reported later, is then ignored).
   */
  kill(): void {
    const worker = this.worker;
    if (!worker) return;
    void worker.terminate();
    this.onExit('terminated');
  }

  /** Terminates the worker; waiting calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new EmulatorFailed(`the ${this.label} emulator worker is closed`));
    if (worker) await worker.terminate();
  }

  private spawn(): Worker {
    const worker = spawnWorker({ nice: this.nice, compiled: compiledEmulator });
    this.worker = worker;
    this.started = false;
    this.lastError = undefined;
    this.held = new Map();
    // What was waiting to be posted to the old worker is still in `calls`: resendAll() sends it again.
    this.outbox = [];
    this.referenced = true;
    worker.on('message', (m: WorkerResponse) => {
      if (this.worker === worker) this.onMessage(m);
    });
    worker.on('error', (err) => {
      if (this.worker === worker) this.lastError = err.message;
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.onExit(code);
    });
    return worker;
  }

  private send(call: Call): void {
    const worker = this.worker ?? this.spawn();
    const base = { id: call.id, cfg: call.cfg.id };
    let held = this.held.get(call.cfg.id);
    const sticky: { config?: string; prevBlocksInfo?: string | null; libs?: string | null } = {};
    if (!held) {
      sticky.config = call.cfg.config;
      held = { prevBlocksInfo: null, libs: null };
      this.held.set(call.cfg.id, held);
    }
    const { request } = call;
    let req: WorkerRequest;
    if (request.op === 'init') {
      req = { ...base, ...sticky, op: 'init' };
    } else {
      // Sticky values travel only when they changed; the worker keeps its copy.
      const { prevBlocksInfo = null, libs = null, ...args } = request.args;
      if (prevBlocksInfo !== held.prevBlocksInfo) held.prevBlocksInfo = sticky.prevBlocksInfo = prevBlocksInfo;
      if (libs !== held.libs) held.libs = sticky.libs = libs;
      req =
        request.op === 'tx'
          ? { ...base, ...sticky, op: 'tx', args: args as TxArgs }
          : request.op === 'get'
            ? { ...base, ...sticky, op: 'get', args: args as GetArgs, ...(call.alone ? { alone: true as const } : {}) }
            : { ...base, ...sticky, op: 'getState', args: args as StateArgs, ...(call.alone ? { alone: true as const } : {}) };
    }
    if (req.op === 'get' || req.op === 'getState') {
      this.outbox.push(req);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
      return;
    }
    this.flush();
    worker.postMessage(req);
  }

  /** Posts the get-methods waiting in the outbox, in one message. */
  private flush(): void {
    this.flushScheduled = false;
    const requests = this.outbox;
    if (requests.length === 0 || !this.worker) return;
    this.outbox = [];
    try {
      this.worker.postMessage(requests.length === 1 ? requests[0] : { op: 'many', requests });
    } catch (err) {
      // A value that cannot be cloned: those calls never reached the worker.
      for (const req of requests) {
        const call = this.calls.get(req.id);
        if (!call) continue;
        this.calls.delete(req.id);
        call.reject(new EmulatorFailed(`the emulator call could not be sent: ${(err as Error).message}`));
      }
      this.updateRef();
    }
  }

  private onMessage(m: WorkerResponse): void {
    if (m.op === 'ready') {
      this.started = true;
      this.compiledHere = m.compiled !== undefined;
      compiledEmulator ??= m.compiled;
      return;
    }
    if (m.op === 'results') {
      for (const result of m.results) this.onMessage(result);
      return;
    }
    const call = this.calls.get(m.id);
    if (!call) return;
    this.calls.delete(m.id);
    this.served++;
    this.updateRef();
    if (m.ok) {
      call.resolve(m.result);
      return;
    }
    call.reject(new EmulatorFailed(`the emulator failed: ${m.error}`));
    // The WASM emulator threw: its memory may be corrupt. The worker ignores everything after it.
    if (m.fatal) this.replace();
  }

  private onExit(reason: number | string): void {
    this.worker = undefined;
    if (this.closed) return;
    const why = this.lastError ?? (typeof reason === 'number' ? `exit code ${reason}` : reason);
    if (!this.started) {
      this.failAll(new EmulatorFailed(`the ${this.label} emulator worker could not start: ${why}`));
      return;
    }
    const running = this.calls.values().next().value as Call | undefined;
    if (running) {
      this.calls.delete(running.id);
      running.reject(new EmulatorFailed(`the ${this.label} emulator worker stopped (${why}) while running this call`));
    }
    this.resendAll();
  }

  /** Replaces a worker that must not be used again, and sends it what was waiting. */
  private replace(): void {
    const old = this.worker;
    this.worker = undefined;
    void old?.terminate();
    this.resendAll();
  }

  private resendAll(): void {
    if (this.calls.size > 0) {
      this.spawn();
      // The worker may have crashed on a batch these calls were part of: each runs alone now.
      for (const call of this.calls.values()) {
        call.alone = true;
        this.send(call);
      }
    }
    this.updateRef();
  }

  private failAll(err: EmulatorFailed): void {
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const call of calls) call.reject(err);
    this.updateRef();
  }

  /** Keep the process alive only while a call waits for this worker. */
  private updateRef(): void {
    const want = this.calls.size > 0;
    if (!this.worker || want === this.referenced) return;
    this.referenced = want;
    if (want) this.worker.ref();
    else this.worker.unref();
  }
}
