/**
 * Exact sliding-log limiter in process memory. Per identity it keeps the timestamps of the last
 * `limit` admitted requests in a ring; a request is admitted iff fewer than `limit` of them are
 * inside (now - window, now]. One decision is a few array reads: synchronous, so concurrent requests of one
 * client cannot race (Node runs it to completion), and nothing is allocated on the steady path but the answer.
 */
import type { Clock } from '../../util/clock.js';
import type { LimitResult, Limiter } from './limiter.js';

export interface MemorySlidingLogOptions {
  clock: Clock;
  windowMs?: number;
  /** Upper bound on tracked identities (a flood of distinct client addresses must not exhaust memory). */
  maxIdentities?: number;
}

/** One identity's admitted timestamps, oldest at `head`. Grows on demand up to `limit` slots (`limit` is the latest one asked for). */
class Log {
  times: Float64Array;
  head = 0;
  count = 0;
  newest = -Infinity;
  /** Where this log sits in the limiter's sweep list. */
  slot = 0;
  constructor(
    readonly identity: string,
    public limit: number,
  ) {
    this.times = new Float64Array(Math.min(limit, 4));
  }

  dropOlderThan(edge: number): void {
    const cap = this.times.length;
    while (this.count > 0 && this.times[this.head] <= edge) {
      this.head = this.head + 1 === cap ? 0 : this.head + 1;
      this.count--;
    }
  }

  oldest(): number {
    return this.times[this.head];
  }

  push(t: number): void {
    if (this.count === this.times.length) this.grow(Math.min(this.limit, this.times.length * 2));
    const cap = this.times.length;
    let tail = this.head + this.count;
    if (tail >= cap) tail -= cap;
    this.times[tail] = t;
    this.count++;
    this.newest = t;
  }

  /**
   * The time at which the window will hold fewer than `limit` admissions: when the limit-th newest
   * leaves it. (After a limit was lowered the log may hold more than `limit` entries: they are kept,
   * so raising the limit again within the window cannot over-admit.)
   */
  freeAt(limit: number, windowMs: number): number {
    const cap = this.times.length;
    return this.times[(this.head + this.count - limit) % cap] + windowMs;
  }

  private grow(capacity: number): void {
    const next = new Float64Array(Math.max(capacity, 1));
    const cap = this.times.length;
    for (let i = 0; i < this.count; i++) next[i] = this.times[(this.head + i) % cap];
    this.times = next;
    this.head = 0;
  }
}

export class MemorySlidingLog implements Limiter {
  readonly windowMs: number;
  private readonly clock: Clock;
  private readonly maxIdentities: number;
  private readonly logs = new Map<string, Log>();
  /**
   * The same logs in an array, for the incremental sweep: its cursor is an index, so a sweep step allocates nothing
   * (a Map iterator's step allocates its result and the entry pair, about 0.1 KB a decision, which every request paid).
   */
  private readonly list: Log[] = [];
  private sweepCursor = 0;

  constructor(options: MemorySlidingLogOptions) {
    this.clock = options.clock;
    this.windowMs = options.windowMs ?? 1000;
    this.maxIdentities = options.maxIdentities ?? 2_000_000;
  }

  /** Number of identities currently tracked (for tests and metrics). */
  get size(): number {
    return this.logs.size;
  }

  consume(identity: string, limit: number, at?: number): LimitResult {
    let now = at ?? this.clock.now();
    const edge = now - this.windowMs;
    this.sweepStep(edge);
    let log = this.logs.get(identity);
    if (log === undefined) {
      if (this.logs.size >= this.maxIdentities && !this.makeRoom(edge)) {
        // Every tracked identity is live: refusing a newcomer is safe, forgetting a live log is not.
        return { allowed: false, limit, remaining: 0, resetMs: this.windowMs };
      }
      log = new Log(identity, limit);
      log.slot = this.list.length;
      this.list.push(log);
      this.logs.set(identity, log);
    } else {
      log.limit = limit;
    }
    // A clock step backwards must not reorder the log: treat it as "still at the newest instant".
    if (now < log.newest) now = log.newest;
    log.dropOlderThan(now - this.windowMs);
    if (log.count < limit) {
      log.push(now);
      return { allowed: true, limit, remaining: limit - log.count, resetMs: log.oldest() + this.windowMs - now };
    }
    return { allowed: false, limit, remaining: 0, resetMs: log.freeAt(limit, this.windowMs) - now };
  }

  /** Forget an identity's history (used when its limit owner changes hands, and by tests). */
  reset(identity: string): void {
    const log = this.logs.get(identity);
    if (log !== undefined) this.forget(log);
  }

  async close(): Promise<void> {
    this.logs.clear();
    this.list.length = 0;
  }

  /** Drops a log from the map and the sweep list (the list's last log takes its slot). */
  private forget(log: Log): void {
    this.logs.delete(log.identity);
    const last = this.list.pop()!;
    if (last !== log) {
      this.list[log.slot] = last;
      last.slot = log.slot;
    }
  }

  /**
   * Incremental garbage collection: each decision inspects the log under a cursor that walks the sweep list round
   * and round, and drops it if its newest timestamp has left the window. No timers, no pauses proportional to the
   * number of identities; a dead entry is found within one full pass of the list (a dropped log's slot is taken
   * by the list's last, which the cursor inspects next).
   */
  private sweepStep(edge: number): void {
    const list = this.list;
    if (list.length === 0) return;
    if (this.sweepCursor >= list.length) this.sweepCursor = 0;
    const log = list[this.sweepCursor];
    if (log.newest <= edge) this.forget(log);
    else this.sweepCursor++;
  }

  private makeRoom(edge: number): boolean {
    for (let inspected = 0; inspected < 64 && this.logs.size >= this.maxIdentities; inspected++) this.sweepStep(edge);
    return this.logs.size < this.maxIdentities;
  }
}
