/**
 * The emulator, off the main thread: every transaction, get-method and emulation runs in a worker
 * thread (emulator-worker.ts), so the thread serving HTTP is never held by TVM execution (a
 * get-method that burns its whole gas limit takes ~1-2 s).
 *
 * Two lanes of workers, shared by every chain of the process (each worker keeps one emulator per
 * config, so the networks do not rebuild each other's):
 *  - `tx`: one worker for the block producers' transactions. Each producer sends one transaction at a
 *    time from its serial lane and the worker answers in order, so the lane's order is kept.
 *  - `read`: get-methods and emulations (estimateFee): read-only, so they run concurrently with block
 *    production. Up to `readWorkers` (default 2) workers; a second one is started only when every
 *    running one is busy, so one endless get-method does not queue every other behind it.
 *
 * Cost: a call crosses threads twice (~0.05-0.1 ms each way), against 0.3-2 ms of emulation.
 */
import type { GetRunArgs, GetRunResult, TxRunArgs, TxRunResult } from './emulator.js';
import { EmulatorThread, type ConfigRef } from './emulator-thread.js';
import { EmulatorFailed } from './errors.js';

export const DEFAULT_READ_WORKERS = 2;

export type EmulatorLane = 'tx' | 'read';

export interface EmulatorPoolOptions {
  /** Most workers for get-methods and emulations (default 2). */
  readWorkers?: number;
}

let shared: EmulatorPool | undefined;

export class EmulatorPool {
  private readonly tx = new EmulatorThread('tx');
  private readonly reads: EmulatorThread[] = [new EmulatorThread('read 1')];
  private readonly maxReads: number;
  private readonly configs = new Map<string, ConfigRef & { refs: number }>();
  private nextConfigId = 1;
  private closed = false;

  constructor(options: EmulatorPoolOptions = {}) {
    const reads = options.readWorkers ?? DEFAULT_READ_WORKERS;
    if (!Number.isInteger(reads) || reads < 1) throw new Error(`readWorkers: expected a positive integer, got ${reads}`);
    this.maxReads = reads;
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
    for (const thread of lane === 'tx' ? [this.tx] : this.reads) thread.kill();
  }

  /** Calls waiting for each worker: the transaction worker, then the read workers. */
  stats(): { tx: number; read: number[] } {
    return { tx: this.tx.load, read: this.reads.map((t) => t.load) };
  }

  /** Terminates every worker; waiting calls fail with EmulatorFailed. */
  async close(): Promise<void> {
    this.closed = true;
    if (shared === this) shared = undefined;
    await Promise.all([this.tx, ...this.reads].map((t) => t.close()));
  }

  /** @internal */
  txThread(): EmulatorThread {
    return this.tx;
  }

  /**
   * @internal The least loaded read worker that is up. When all are busy and the lane may grow, one
   * more starts; it takes calls once it has loaded the emulator (~0.3 s), not before.
   */
  readThread(): EmulatorThread {
    const up = this.reads.filter((t) => t.ready);
    let best = up[0] ?? this.reads[0];
    for (const thread of up) if (thread.load < best.load) best = thread;
    if (best.load > 0 && up.length === this.reads.length && this.reads.length < this.maxReads) {
      const more = new EmulatorThread(`read ${this.reads.length + 1}`);
      this.reads.push(more);
      more.warm();
    }
    return best;
  }

  /** @internal */
  release(ref: ConfigRef & { refs: number }): void {
    if (--ref.refs > 0) return;
    this.configs.delete(ref.config);
    for (const thread of [this.tx, ...this.reads]) thread.drop(ref.id);
  }
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
   * open without it). A read worker loads it meanwhile, not waited for: a failure there shows on the
   * first read, which then tries a new worker.
   */
  async ready(): Promise<void> {
    if (this.closed) throw closedError();
    this.pool
      .readThread()
      .call(this.ref, { op: 'init' })
      .catch(() => undefined);
    await this.pool.txThread().call(this.ref, { op: 'init' });
  }

  /** A transaction that becomes part of the chain: on the transaction worker, in call order. */
  runTransaction(args: TxRunArgs): Promise<TxRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.txThread().call(this.ref, { op: 'tx', args });
  }

  /** A transaction only emulated (nothing is kept): on a read worker. */
  emulateTransaction(args: TxRunArgs): Promise<TxRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.readThread().call(this.ref, { op: 'tx', args });
  }

  runGetMethod(args: GetRunArgs): Promise<GetRunResult> {
    if (this.closed) return Promise.reject(closedError());
    return this.pool.readThread().call(this.ref, { op: 'get', args });
  }

  /** Idempotent. Calls already sent still answer. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pool.release(this.ref);
  }
}

const closedError = (): EmulatorFailed => new EmulatorFailed('the emulator is closed (its chain was stopped)');
