/**
 * The in-process cache in front of the key store: one Map lookup per request on the hot path.
 *
 * - Entries are positive (the key's record) or negative (no such key), each with a short TTL as a
 *   safety net; negatives stop a flood of made-up keys from reaching the store.
 * - Freshness comes from the store's revision counter, polled every `pollMs` (a cheap read) on the
 *   timers of the injected clock (util/scheduler.ts: a test moves a manual clock instead of waiting),
 *   and from `invalidate()` calls (Redis pub/sub, or the admin API in this process): a created key is
 *   honoured and a revoked one refused within one poll interval, on every instance.
 * - A lookup that was in flight while an invalidation happened is not cached (its answer may
 *   predate the change): the classic revoke-vs-cache-fill race.
 * - Store trouble never yields a false 401: a stale positive entry is served, an unknown key
 *   gets KeyStoreUnavailableError (-> 503). A circuit breaker stops waiting on a dead store.
 * With SQLite everything here is synchronous; with PostgreSQL only misses return a promise.
 */
import type { Clock } from '../../util/clock.js';
import type { CircuitBreaker } from '../../util/circuit-breaker.js';
import { schedulerOf } from '../../util/scheduler.js';
import { StoreTimeoutError, withTimeout } from '../timeout.js';
import type { KeyRecord, KeyStore } from './key-store.js';

export class KeyStoreUnavailableError extends Error {
  override name = 'KeyStoreUnavailableError';
}

export interface KeyDirectoryEvents {
  onHit?(): void;
  onMiss?(): void;
  onStoreError?(operation: 'lookup' | 'poll', error: unknown): void;
}

export interface KeyDirectoryOptions {
  store: KeyStore;
  clock: Clock;
  breaker: CircuitBreaker;
  /** Longest a request waits for the store on a miss. */
  timeoutMs: number;
  pollMs: number;
  positiveTtlMs?: number;
  negativeTtlMs?: number;
  maxEntries?: number;
  events?: KeyDirectoryEvents;
}

interface Entry {
  record: KeyRecord | null;
  freshUntil: number;
}

export class KeyDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<KeyRecord | null>>();
  private readonly positiveTtlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  /** Bumped by every invalidation; a lookup only caches its answer if no invalidation happened meanwhile. */
  private epoch = 0;
  private revision = 0;
  private stopPolling: (() => void) | undefined;
  private polling: Promise<void> | undefined;

  constructor(private readonly o: KeyDirectoryOptions) {
    this.positiveTtlMs = o.positiveTtlMs ?? 10_000;
    this.negativeTtlMs = o.negativeTtlMs ?? 5_000;
    this.maxEntries = o.maxEntries ?? 100_000;
  }

  /** Reads the current revision and starts polling for changes. */
  async start(): Promise<void> {
    this.revision = await this.o.store.revision();
    this.stopPolling = schedulerOf(this.o.clock).every(this.o.pollMs, () => this.poll());
  }

  /**
   * The record of the key with this hash, or null if no such (non-revoked) key exists. Synchronous
   * on a cache hit and with a synchronous store; a promise only for a miss on an asynchronous store.
   * Throws/rejects KeyStoreUnavailableError when the store cannot answer and nothing usable is cached.
   * `now`: the request's instant when the caller already read the clock (one read per decision).
   */
  lookup(hash: string, now = this.o.clock.now()): KeyRecord | null | Promise<KeyRecord | null> {
    const entry = this.entries.get(hash);
    if (entry !== undefined && entry.freshUntil > now) {
      this.o.events?.onHit?.();
      return entry.record;
    }
    this.o.events?.onMiss?.();
    const stale = entry?.record ?? null;
    const pending = this.inflight.get(hash);
    if (pending !== undefined) return stale ?? this.wait(pending);
    if (!this.o.breaker.allow()) {
      if (stale !== null) return stale;
      throw new KeyStoreUnavailableError('key store circuit open');
    }
    const epoch = this.epoch;
    let answer: KeyRecord | null | Promise<KeyRecord | null>;
    try {
      answer = this.o.store.findByHash(hash);
    } catch (error) {
      this.o.breaker.failure();
      this.o.events?.onStoreError?.('lookup', error);
      if (stale !== null) return stale;
      throw new KeyStoreUnavailableError('key store lookup failed');
    }
    if (!(answer instanceof Promise)) {
      this.o.breaker.success();
      this.remember(hash, answer, epoch);
      return answer;
    }
    const loading = answer.then(
      (record) => {
        this.o.breaker.success();
        this.remember(hash, record, epoch);
        return record;
      },
      (error: unknown) => {
        this.o.breaker.failure();
        this.o.events?.onStoreError?.('lookup', error);
        throw error;
      },
    );
    this.inflight.set(hash, loading);
    loading.then(
      () => this.inflight.delete(hash),
      () => this.inflight.delete(hash),
    );
    // Stale-while-revalidate: a known key keeps working while its entry is refreshed.
    return stale ?? this.wait(loading);
  }

  /** Drops these keys' entries (created, revoked or changed elsewhere). */
  invalidate(hashes: Iterable<string>): void {
    this.epoch++;
    for (const h of hashes) this.entries.delete(h);
  }

  /** Drops everything (an account limit changed: every key of that account is stale). */
  invalidateAll(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** One poll of the store's change feed; returns when done (tests call it to avoid waiting for the timer). */
  poll(): Promise<void> {
    if (this.polling === undefined) {
      this.polling = this.pollOnce().finally(() => {
        this.polling = undefined;
      });
    }
    return this.polling;
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.stopPolling?.();
    await this.polling;
    this.entries.clear();
  }

  private async pollOnce(): Promise<void> {
    try {
      const changes = await this.o.store.changesSince(this.revision);
      if (changes.revision === this.revision) return;
      if (changes.accountsChanged) this.invalidateAll();
      else this.invalidate(changes.hashes);
      this.revision = changes.revision;
    } catch (error) {
      this.o.events?.onStoreError?.('poll', error);
    }
  }

  private wait(loading: Promise<KeyRecord | null>): Promise<KeyRecord | null> {
    return withTimeout(loading, this.o.timeoutMs, this.o.clock).catch((error: unknown) => {
      // Too slow counts as failing: a hung store must trip the breaker, not make every request wait.
      if (error instanceof StoreTimeoutError) {
        this.o.breaker.failure();
        this.o.events?.onStoreError?.('lookup', error);
      }
      throw new KeyStoreUnavailableError(`key store unavailable: ${(error as Error).message}`);
    });
  }

  private remember(hash: string, record: KeyRecord | null, epoch: number): void {
    if (epoch !== this.epoch) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(hash)) {
      // Oldest-inserted first: a bounded cache must not grow with a flood of made-up keys.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const ttl = record === null ? this.negativeTtlMs : this.positiveTtlMs;
    this.entries.set(hash, { record, freshUntil: this.o.clock.now() + ttl });
  }
}
