/**
 * The API's reads of a SQLite index, off the thread serving HTTP: better-sqlite3 runs a query start to
 * finish without yielding, so a deep offset or a filter that scans (tens to thousands of milliseconds
 * at a million transactions) would stall every other client. Here each query goes to a reader thread
 * (read-worker.ts, a read-only connection of its own to the WAL file) and the HTTP thread only waits.
 *
 * - Threads: one starts with the first query; a second (up to `readers`) when every one is busy and
 *   a query waits. A query goes to an idle thread, in arrival order.
 * - Time budget: a query not answered `timeoutMs` after it was asked (waiting for a busy thread
 *   included; waiting while the only threads are still loading not) fails with QueryTimeoutError
 *   (the API answers 504). better-sqlite3 has no way to interrupt SQLite, and a
 *   terminated worker runs on until its native call returns; so the thread is given up: replaced at
 *   once, terminated, unreferenced and set to the lowest CPU priority while it winds down. At most
 *   `readers` given-up threads are kept winding down; past that no replacement starts until one has
 *   ended (queries then wait, within their own budget), so a stream of expensive questions cannot
 *   pile up threads.
 * - A thread that dies (or cannot open the file) fails its query with StoreUnavailableError (503); the
 *   next query starts a new one.
 * - Cost: a query crosses threads twice (~0.05-0.1 ms each way, see bench/v3-reads.ts), rows are copied
 *   by structured clone and their bytes come back as Buffers sharing the copied memory.
 */
import type { Worker } from 'node:worker_threads';
import { ABANDONED_NICE, lowerThreadPriority } from '../../util/thread-priority.js';
import { DEFAULT_QUERY_TIMEOUT_MS, QueryTimeoutError, StoreUnavailableError, type SqlReads, type SqlRow, type SqlValue } from '../sql/driver.js';
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
  job?: Job;
}

export class SqliteReaderPool implements SqlReads {
  readonly readers: number;
  readonly timeoutMs: number;
  private readonly live = new Set<Reader>();
  /** Threads given up on a query past its budget, until they end. */
  private readonly abandoned = new Set<Reader>();
  private readonly queue: Job[] = [];
  /** Callers of ready() waiting for a thread to be up. */
  private waiters: { resolve(): void; reject(error: Error): void }[] = [];
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
    if (this.closed) return Promise.reject(new StoreUnavailableError('the index is closed'));
    if (this.anyReady()) return Promise.resolve();
    if (this.live.size === 0) this.spawn();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Threads answering queries, and threads given up on (winding down). */
  threads(): { live: number; abandoned: number } {
    return { live: this.live.size, abandoned: this.abandoned.size };
  }

  all(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the index is closed'));
    return new Promise<SqlRow[]>((resolve, reject) => {
      const job: Job = { id: this.nextId++, sql, params, resolve, reject };
      this.queue.push(job);
      this.pump();
      // While the only threads are still loading (~0.1 s built, ~1 s under tsx), the budget waits for them.
      if (!job.settled && !job.timer && !(this.anyStarting() && !this.anyReady())) this.arm(job);
    });
  }

  /** Fails what waits, ends every thread (one still inside a query ends when SQLite returns; not waited for). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new StoreUnavailableError('the index is closed'));
    for (const job of this.queue.splice(0)) this.settle(job, new StoreUnavailableError('the index is closed'));
    const idle: Promise<number>[] = [];
    for (const reader of [...this.live, ...this.abandoned]) {
      if (reader.job) this.settle(reader.job, new StoreUnavailableError('the index is closed'));
      reader.worker.unref();
      const ended = reader.worker.terminate();
      if (this.live.has(reader) && !reader.job) idle.push(ended);
    }
    this.live.clear();
    await Promise.all(idle);
  }

  /** Hands waiting queries to idle threads; starts another thread when all are busy and one may start. */
  private pump(): void {
    while (this.queue.length > 0) {
      const reader = [...this.live].find((r) => r.ready && !r.job);
      if (!reader) break;
      const job = this.queue.shift()!;
      job.reader = reader;
      reader.job = job;
      reader.worker.ref();
      reader.worker.postMessage({ id: job.id, sql: job.sql, params: job.params } satisfies ReadRequest);
    }
    if (this.queue.length > 0 && !this.anyStarting() && this.live.size < this.readers && this.live.size + this.abandoned.size < 2 * this.readers) {
      this.spawn();
    }
  }

  private spawn(): void {
    const reader: Reader = { worker: spawnIndexWorker('read-worker', { file: this.file } satisfies ReadWorkerData), ready: false };
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
      for (const job of this.queue) if (!job.timer) this.arm(job);
      for (const waiter of this.waiters.splice(0)) waiter.resolve();
      return this.pump();
    }
    if ('failed' in reply) return this.onExit(reader, `cannot open the index: ${reply.failed}`);
    const job = reader.job;
    if (!job || job.id !== reply.id || !this.live.has(reader)) return;
    reader.job = undefined;
    reader.worker.unref();
    if ('rows' in reply) this.settle(job, undefined, reviveRows(reply.rows));
    else this.settle(job, new Error(`index query failed: ${reply.error}`));
    this.pump();
  }

  /** A thread ended or failed: given up on, it is forgotten; otherwise its query fails and another may start. */
  private onExit(reader: Reader, why: string): void {
    if (this.abandoned.delete(reader)) return this.pump();
    if (!this.live.delete(reader)) return;
    void reader.worker.terminate();
    // What went wrong stays in `cause` (it may name files); the API's answer says only that.
    const error = new StoreUnavailableError('the index cannot be read: a reader thread failed', { cause: new Error(`index reader thread: ${why}`) });
    if (reader.job) this.settle(reader.job, error);
    if (!reader.ready && [...this.live].every((r) => !r.ready)) {
      // No thread could start: what waits would wait for the next one to fail the same way.
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      for (const job of this.queue.splice(0)) this.settle(job, error);
    }
    if (!this.closed) this.pump();
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
    if (reader) {
      reader.job = undefined;
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
