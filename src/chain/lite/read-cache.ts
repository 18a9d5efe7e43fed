/**
 * Reads that cannot change (a block by its hashes, transactions by their hash, a config at a key block, a library
 * by its hash) are kept, and identical reads that arrive together share one liteserver query (single flight).
 * Memory is bounded: entries are weighed (roughly their bytes) and the least recently used go first once the
 * total passes `maxWeight` (`lru-cache`'s bookkeeping: a hit moves no Map entry). Failures are not kept.
 */
import { LRUCache } from 'lru-cache';

export class ReadCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V>;
  private readonly inFlight = new Map<string, Promise<V>>();
  hits = 0;
  misses = 0;

  constructor(maxWeight: number, weigh: (value: V) => number) {
    this.entries = new LRUCache<string, V>({ maxSize: maxWeight, maxEntrySize: maxWeight, sizeCalculation: weigh });
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.hits++;
      return Promise.resolve(kept);
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.hits++;
      return pending;
    }
    this.misses++;
    const promise = load().then(
      (value) => {
        this.inFlight.delete(key);
        this.entries.set(key, value);
        return value;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** The kept value, without loading (and without making it the most recently used). */
  peek(key: string): V | undefined {
    return this.entries.peek(key);
  }

  get weight(): number {
    return this.entries.calculatedSize;
  }

  get size(): number {
    return this.entries.size;
  }
}
