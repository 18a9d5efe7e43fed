/**
 * Reads that cannot change (a block by its hashes, transactions by their hash, a config at a key block, a library
 * by its hash) are kept, and identical reads that arrive together share one liteserver query (single flight).
 * Memory is bounded: entries are weighed (roughly their bytes) and the least recently used go first once the
 * total passes `maxWeight`. Failures are not kept.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry) {
      this.hits++;
      // Map order is the recency order: move it to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return Promise.resolve(entry.value);
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
        this.put(key, value);
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

  /** The kept value, without loading. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  get weight(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  private put(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }
}
