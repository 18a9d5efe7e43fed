/**
 * The emulator, off the main thread: every transaction, get-method and emulation runs in a worker
 * thread (emulator-worker.ts), so the thread serving HTTP is never held by TVM execution (a
 * get-method that burns its whole gas limit takes ~1-2 s).
 *
 * Two lanes of workers, shared by every chain of the process (each worker keeps one emulator per
 * config, so the networks do not rebuild each other's):
 *  - `tx`: the block producers' transactions. Up to `txWorkers` workers (default: 2, or 1 on a
 *    single-core machine). A producer never has two transactions of one account in flight and applies
 *    results in its own send order (chain/local/tx-pipeline.ts), so independent accounts' transactions may run on
 *    two workers at once: emulation is most of a transaction's cost, and one worker held the producer
 *    to one core.
 *  - `read`: get-methods and emulations (estimateFee): read-only, so they run concurrently with block
 *    production. Up to `readWorkers` (default 2) workers.
 *  - background reads: get-methods asked at a lower priority (GetMethodOptions.nice: the index's token
 *    detection, dozens per block, which nobody waits on), one worker per nice value asked for, started on
 *    first use and running at that nice value: they no longer outrank the transaction workers (nice 10) nor
 *    compete with requests somebody waits for. A single worker also lets a block's calls meet in one
 *    emulator call (get-method-batch.ts).
 * In each lane a further worker is started only when every running one is busy (so an idle chain
 * keeps one of each, and one endless get-method does not queue every other behind it); a call goes to
 * the least loaded worker that is up.
 *
 * Cost: a call crosses threads twice (~0.05-0.1 ms each way), against 0.3-2 ms of emulation.
 */
import { availableParallelism } from 'node:os';
import type { GetRunArgs, GetRunResult, TxRunArgs, TxRunResult } from './emulator.js';
import type { StateGetArgs, StateGetResult } from './state-get-method.js';
import { EmulatorThread, type ConfigRef } from './emulator-thread.js';
import { EmulatorFailed } from '../errors.js';
import { WORKER_NICE } from '../../util/thread-priority.js';

export const DEFAULT_READ_WORKERS = 2;
export const DEFAULT_TX_WORKERS = Math.min(2, availableParallelism());

export type EmulatorLane = 'tx' | 'read';

export interface WorkerStats {
  load: number;
  served: number;
  ready: boolean;
  /** Its worker compiled the WASM module itself (the process's first); false: it was handed the module, or is loading. */
  compiled: boolean;
}

export interface EmulatorPoolOptions {
  /** Most workers for get-methods and emulations (default 2). */
  readWorkers?: number;
  /** Most workers for the producers' transactions (default 2; 1 on a single core). */
  txWorkers?: number;
}

let shared: EmulatorPool | undefined;

export class EmulatorPool {
  private readonly txs: WorkerLane;
  private readonly reads: WorkerLane;
  /** Background read lanes, by nice value. */
  private readonly backgroundReads = new Map<number, WorkerLane>();
  private readonly configs = new Map<string, ConfigRef & { refs: number }>();
  private nextConfigId = 1;
  private closed = false;

  constructor(options: EmulatorPoolOptions = {}) {
    this.reads = new WorkerLane('read', positive('readWorkers', options.readWorkers ?? DEFAULT_READ_WORKERS), null);
    this.txs = new WorkerLane('tx', positive('txWorkers', options.txWorkers ?? DEFAULT_TX_WORKERS), WORKER_NICE);
  }

  /** The process-wide pool every chain uses unless given its own. Its idle workers do not keep the process alive. */
  static shared(): EmulatorPool {
    shared ??= new EmulatorPool();
    return shared;
  }

  /** The emulator for one blockchain config. Close it when done: the workers free it when nobody uses it. */
  emulator(configBase64: string): PooledEmulator {
    if (this.closed) throw new EmulatorFailed('the emulator pool is closed');
    let ref = this.configs.get(configBase64);
    if (!ref) {
      ref = { id: this.nextConfigId++, config: configBase64, refs: 0 };
      this.configs.set(configBase64, ref);
    }
    ref.refs++;
    return new PooledEmulator(this, ref);
  }

  /** Terminates the workers of one lane as a crash would: what they were running fails, the rest goes to new workers. */
  kill(lane: EmulatorLane): void {
    for (const thread of (lane === 'tx' ? this.txs : this.reads).threads) thread.kill();
  }

  /** Each worker of each lane: calls waiting for it, calls it answered, whether it is up (background: by nice value). */
  stats(): { tx: WorkerStats[]; read: WorkerStats[]; background: Record<number, WorkerStats[]> } {
    const of = (t: EmulatorThread): WorkerStats => ({ load: t.load, served: t.served, ready: t.ready, compiled: t.compiledHere });
    const background: Record<number, WorkerStats[]> = {};
    for (const [nice, lane] of this.backgroundReads) background[nice] = lane.threads.map(of);
    return { tx: this.txs.threads.map(of), read: this.reads.threads.map(of), background };
  }

  /** Terminates every worker; waiting calls fail with EmulatorFailed. */
  async close(): Promise<void> {
    this.closed = true;
    if (shared === this) shared = undefined;
    await Promise.all(this.allThreads().map((t) => t.close()));
  }

  /** @internal The worker the first transaction of a chain is sent to (it must be able to load the emulator). */
  firstTxThread(): EmulatorThread {
    return this.txs.threads[0];
  }

  /** @internal */
  txThread(): EmulatorThread {
    return this.txs.pick();
  }

  /** @internal The read worker for a call: at the normal priority, or the background worker of `nice`. */
  readThread(nice?: number): EmulatorThread {
    if (nice === undefined || nice <= 0) return this.reads.pick();
    let lane = this.backgroundReads.get(nice);
    if (!lane) {
      lane = new WorkerLane(`read (nice ${nice})`, 1, nice);
      this.backgroundReads.set(nice, lane);
    }
    return lane.pick();
  }

  /** @internal */
  release(ref: ConfigRef & { refs: number }): void {
    if (--ref.refs > 0) return;
    this.configs.delete(ref.config);
    for (const thread of this.allThreads()) thread.drop(ref.id);
  }

  private allThreads(): EmulatorThread[] {
    return [...this.txs.threads, ...this.reads.threads, ...[...this.backgroundReads.values()].flatMap((lane) => lane.threads)];
  }
}

/** The workers of one lane: one to begin with, more (up to `max`) while all are busy. */
class WorkerLane {
  readonly threads: EmulatorThread[] = [];

  constructor(
    private readonly name: string,
    private readonly max: number,
    private readonly nice: number | null,
  ) {
    this.threads.push(this.newThread());
  }

  /**
   * The least loaded worker that is up. When all are busy and the lane may grow, one more starts; it
   * takes calls once it has loaded the emulator (~0.3 s), not before.
   */
  pick(): EmulatorThread {
    const up = this.threads.filter((t) => t.ready);
    let best = up[0] ?? this.threads[0];
    for (const thread of up) if (thread.load < best.load) best = thread;
    if (best.load > 0 && up.length === this.threads.length && this.threads.length < this.max) {
      const more = this.newThread();
      this.threads.push(more);
      more.warm();
    }
    return best;
  }

  private newThread(): EmulatorThread {
    return new EmulatorThread(`${this.name} ${this.threads.length + 1}`, this.nice);
  }
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: expected a positive integer, got ${value}`);
  return value;
}

/** One config's emulator in a pool: what the chain calls. Every method answers or fails with EmulatorFailed. */
export class PooledEmulator {
  private closed = false;

  constructor(
    private readonly pool: EmulatorPool,
    private readonly ref: ConfigRef & { refs: number },
  ) {}

  /**
   * Resolves once the transaction worker has loaded the emulator for this config (a chain does not
   * open without it). A read worker loads it next, not waited for: a failure there shows on the
   * first read, which then tries a new worker. Next, not beside it: it then instantiates the WASM module the
   * transaction worker compiled instead of compiling its own on the same cores (emulator-thread.ts).
   * `warmReadAfter`: and not before this settles (a read call before then starts its worker itself): `tongate
   * start` holds it until the v3 indexes are open, whose reader threads load meanwhile on the same cores.
   */
  async ready({ warmReadAfter }: { warmReadAfter?: Promise<unknown> } = {}): Promise<void> {
    if (this.closed) throw closedError();
    const loaded = this.pool.firstTxThread().call(this.ref, { op: 'init' });
    const warmRead = () =>
      this.closed
        ? undefined
        : this.pool
            .readThread()
            .call(this.ref, { op: 'init' })
            .catch(() => undefined);
    loaded.then(
      () => (warmReadAfter ? warmReadAfter.then(warmRead, warmRead) : warmRead()),
      () => undefined,
    );
    await loaded;
  }

  /** A transaction that becomes part of the chain: on the least busy transaction worker. */
  runTransaction(args: TxRunArgs): Promise<TxRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.txThread().call(this.ref, { op: 'tx', args });
  }

  /** A transaction only emulated (nothing is kept): on a read worker. */
  emulateTransaction(args: TxRunArgs): Promise<TxRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.readThread().call(this.ref, { op: 'tx', args });
  }

  /** `nice`: a background call (GetMethodOptions.nice), on the read worker of that priority. */
  runGetMethod(args: GetRunArgs, nice?: number): Promise<GetRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.readThread(nice).call(this.ref, { op: 'get', args });
  }

  /** A get-method on a stored account state, parsed on the read worker (state-get-method.ts). */
  runGetMethodOnState(args: StateGetArgs, nice?: number): Promise<StateGetResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.readThread(nice).call(this.ref, { op: 'getState', args });
  }

  /** Idempotent. Calls already sent still answer. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pool.release(this.ref);
  }
}

const closedError = (): EmulatorFailed => new EmulatorFailed('the emulator is closed (its chain was stopped)');
