/**
 * The API's reads of a SQLite index, off the thread serving HTTP: better-sqlite3 runs a query start to
 * finish without yielding, so a deep offset or a filter that scans (tens to thousands of milliseconds
 * at a million transactions) would stall every other client. Here each query goes to a reader thread
 * (read-worker.ts, a read-only connection of its own to the WAL file) and the HTTP thread only waits.
 *
 * - Threads: one starts with the first query (or every one with warm(), as a server does: the first, then the rest); a
 *   second (up to `readers`) when every one is busy and a query waits. Queries go to idle threads in arrival order; the ones asked in the same tick (the
 *   three lookups of a page of transactions) go out together, each idle thread taking its share in
 *   one message: a page costs one round trip per thread, not one per query (each crossing wakes a
 *   thread, which on a busy machine is where the time goes).
 * - Time budget: a query not answered `timeoutMs` after it was asked (waiting for a busy thread
 *   included; waiting while the only threads are still loading not) fails with QueryTimeoutError
 *   (the API answers 504). better-sqlite3 has no way to interrupt SQLite, and a
 *   terminated worker runs on until its native call returns; so the thread is given up: replaced at
 *   once, terminated, unreferenced and set to the lowest CPU priority while it winds down. At most
 *   `readers` given-up threads are kept winding down; past that no replacement starts until one has
 *   ended (queries then wait, within their own budget), so a stream of expensive questions cannot
 *   pile up threads.
 *   Queries sent to a given-up thread with the expired one go to another thread (reads: asking again
 *   is harmless), within their own budgets.
 * - A thread that dies (or cannot open the file) fails its queries with StoreUnavailableError (503);
 *   the next query starts a new one.
 * - Cost: a query crosses threads twice (~0.07 ms for both at p50, see bench/v3-reads.ts), rows are copied
 *   by structured clone and their bytes come back as Buffers sharing the copied memory.
 */
import type { Worker } from 'node:worker_threads';
import { ABANDONED_NICE, lowerThreadPriority } from '../../util/thread-priority.js';
import {
  DEFAULT_QUERY_TIMEOUT_MS,
  QueryTimeoutError,
  StoreUnavailableError,
  type SqlReads,
  type SqlRow,
  type SqlValue,
} from '../sql/driver.js';
import type { ReadReply, ReadRequest, ReadWorkerData } from './read-worker.js';
import { spawnIndexWorker } from './spawn.js';
import { buffer } from './transfer.js';

export const DEFAULT_READERS = 2;

export interface ReaderPoolOptions {
  /** Most reader threads (default 2). */
  readers?: number;
  /** A query's time budget, waiting included (default 2000 ms). */
  timeoutMs?: number;
}

interface Job {
  id: number;
  sql: string;
  params: readonly SqlValue[];
  resolve(rows: SqlRow[]): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
  reader?: Reader;
  settled?: boolean;
}

interface Reader {
  worker: Worker;
  ready: boolean;
  tid?: number;
  /** Sent to it and not answered yet, by id. */
  jobs: Map<number, Job>;
}

const closedError = () => new StoreUnavailableError('the index is closed');

export class SqliteReaderPool implements SqlReads {
  readonly readers: number;
  readonly timeoutMs: number;
  private readonly live = new Set<Reader>();
  /** Threads given up on a query past its budget, until they end. */
  private readonly abandoned = new Set<Reader>();
  private readonly queue: Job[] = [];
  /** Callers of ready() waiting for a thread to be up. */
  private waiters: { resolve(): void; reject(error: Error): void }[] = [];
  private pumpScheduled = false;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    options: ReaderPoolOptions = {},
  ) {
    this.readers = positive('readers', options.readers ?? DEFAULT_READERS);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  }

  /** Resolves once a reader thread is up (starting one): benchmarks and tests, before timing anything. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    if (this.anyReady()) return Promise.resolve();
    if (this.live.size === 0) this.spawn();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /**
   * Starts every reader thread before the load asks for them (a server: no thread loads, and takes a core for it,
   * while requests wait): one now, the others once it is up, so the first read, which waits for a thread, does not
   * share the cores with the others' loading (a start-up's v3 waits on it); resolves once one is up.
   */
  warm(): Promise<void> {
    const first = this.ready();
    first.then(
      () => {
        while (!this.closed && this.live.size < this.readers) this.spawn();
      },
      () => {},
    );
    return first;
  }

  /** Threads answering queries, and threads given up on (winding down). */
  threads(): { live: number; abandoned: number } {
    return { live: this.live.size, abandoned: this.abandoned.size };
  }

  all(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    if (this.closed) return Promise.reject(closedError());
    return new Promise<SqlRow[]>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, sql, params, resolve, reject });
      // Sent once this tick's queries are all asked (a microtask later), so they travel together.
      if (!this.pumpScheduled) {
        this.pumpScheduled = true;
        queueMicrotask(() => {
          this.pumpScheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Fails what waits, ends every thread (one still inside a query ends when SQLite returns; not waited for). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(closedError());
    for (const job of this.queue.splice(0)) this.settle(job, closedError());
    const idle: Promise<number>[] = [];
    for (const reader of [...this.live, ...this.abandoned]) {
      const busy = reader.jobs.size > 0;
      for (const job of reader.jobs.values()) this.settle(job, closedError());
      reader.jobs.clear();
      reader.worker.unref();
      const ended = reader.worker.terminate();
      if (this.live.has(reader) && !busy) idle.push(ended);
    }
    this.live.clear();
    this.abandoned.clear();
    await Promise.all(idle);
  }

  /**
   * Hands waiting queries to idle threads, each its share in one message; starts another thread when all
   * are busy and one may start; starts the budget of the queries still waiting (unless the only threads
   * are still loading).
   */
  private pump(): void {
    if (this.closed) return;
    const idle = [...this.live].filter((r) => r.ready && r.jobs.size === 0);
    while (this.queue.length > 0 && idle.length > 0) {
      const reader = idle.shift()!;
      const batch = this.queue.splice(0, Math.ceil(this.queue.length / (idle.length + 1)));
      const requests: ReadRequest[] = [];
      for (const job of batch) {
        job.reader = reader;
        reader.jobs.set(job.id, job);
        if (!job.timer) this.arm(job);
        requests.push({ id: job.id, sql: job.sql, params: job.params });
      }
      reader.worker.ref();
      reader.worker.postMessage(requests);
    }
    if (
      this.queue.length > 0 &&
      !this.anyStarting() &&
      this.live.size < this.readers &&
      this.live.size + this.abandoned.size < 2 * this.readers
    ) {
      this.spawn();
    }
    if (this.anyReady() || !this.anyStarting()) for (const job of this.queue) if (!job.timer) this.arm(job);
  }

  private spawn(): void {
    const reader: Reader = {
      worker: spawnIndexWorker('read-worker', { file: this.file } satisfies ReadWorkerData),
      ready: false,
      jobs: new Map(),
    };
    reader.worker.unref();
    this.live.add(reader);
    reader.worker.on('message', (reply: ReadReply) => this.onReply(reader, reply));
    reader.worker.on('error', (error) => this.onExit(reader, error.message));
    reader.worker.on('exit', (code) => this.onExit(reader, `exited with code ${code}`));
  }

  private onReply(reader: Reader, reply: ReadReply): void {
    if ('ready' in reply) {
      reader.ready = true;
      reader.tid = reply.tid;
      for (const waiter of this.waiters.splice(0)) waiter.resolve();
      return this.pump();
    }
    if ('failed' in reply) return this.onExit(reader, `cannot open the index: ${reply.failed}`);
    if (!this.live.has(reader)) return;
    for (const result of reply.results) {
      const job = reader.jobs.get(result.id);
      if (!job) continue;
      reader.jobs.delete(result.id);
      if ('rows' in result) this.settle(job, undefined, reviveRows(result.rows));
      else this.settle(job, new Error(`index query failed: ${result.error}`));
    }
    if (reader.jobs.size === 0) reader.worker.unref();
    this.pump();
  }

  /** A thread ended or failed: given up on, it is forgotten; otherwise its queries fail and another may start. */
  private onExit(reader: Reader, why: string): void {
    if (this.abandoned.delete(reader)) return this.pump();
    if (!this.live.delete(reader)) return;
    void reader.worker.terminate();
    // What went wrong stays in `cause` (it may name files); the API's answer says only that.
    const error = new StoreUnavailableError('the index cannot be read: a reader thread failed', {
      cause: new Error(`index reader thread: ${why}`),
    });
    for (const job of reader.jobs.values()) this.settle(job, error);
    reader.jobs.clear();
    if (!reader.ready && !this.anyReady() && !this.anyStarting()) {
      // No thread could start: what waits would wait for the next one to fail the same way.
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      for (const job of this.queue.splice(0)) this.settle(job, error);
    }
    this.pump();
  }

  private anyStarting(): boolean {
    for (const reader of this.live) if (!reader.ready) return true;
    return false;
  }

  private anyReady(): boolean {
    for (const reader of this.live) if (reader.ready) return true;
    return false;
  }

  private arm(job: Job): void {
    job.timer = setTimeout(() => this.expire(job), this.timeoutMs);
  }

  private expire(job: Job): void {
    const reader = job.reader;
    if (reader && reader.jobs.has(job.id)) {
      reader.jobs.delete(job.id);
      // The others sent with it wait for another thread, first in line, within their own budgets.
      const others = [...reader.jobs.values()];
      reader.jobs.clear();
      for (const other of others) other.reader = undefined;
      this.queue.unshift(...others);
      this.abandon(reader);
    } else {
      const at = this.queue.indexOf(job);
      if (at !== -1) this.queue.splice(at, 1);
    }
    this.settle(job, new QueryTimeoutError(this.timeoutMs));
    this.pump();
  }

  private abandon(reader: Reader): void {
    this.live.delete(reader);
    this.abandoned.add(reader);
    lowerThreadPriority(reader.tid, ABANDONED_NICE);
    reader.worker.unref();
    void reader.worker.terminate();
  }

  private settle(job: Job, error: Error | undefined, rows?: SqlRow[]): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    if (error) job.reject(error);
    else job.resolve(rows!);
  }
}

/** Structured clone made every Buffer a Uint8Array; the readers expect Buffers (same memory, no copy). */
function reviveRows(rows: SqlRow[]): SqlRow[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array) row[key] = buffer(value);
    }
  }
  return rows;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: expected a positive integer, got ${value}`);
  return value;
}
