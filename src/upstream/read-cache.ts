/**
 * Answers of reads that only change with a new block (or never, once they exist), kept for a while and
 * bounded in memory: entries expire by the injected clock and the least recently used go first when the
 * total of kept bodies passes `maxBytes`. Only complete 200 answers are kept.
 *
 * The bookkeeping is `lru-cache`'s: recency lives in its typed arrays, so a hit moves no entry of a Map (a
 * Map deleted from and set again on every hit rebuilds its table in the old generation once it is old, the
 * pattern `forwarder.ts`'s flight table avoids).
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../util/clock.js';

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What an entry weighs beyond its body: its key and the bookkeeping around it. */
const ENTRY_OVERHEAD = 256;

export class ReadCache {
  private readonly entries: LRUCache<string, CachedAnswer>;

  constructor(clock: Clock, maxBytes: number) {
    this.entries = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      // An answer larger than an eighth of the cache would push out many small ones: not kept.
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (answer, key) => answer.body.length + key.length + ENTRY_OVERHEAD,
      perf: clock,
      // Read the clock at every look-up: an injected clock moves by steps, and an entry is stale from its instant.
      ttlResolution: 0,
    });
  }

  get(key: string): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, answer: CachedAnswer, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, answer, { ttl: ttlMs });
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }
}
