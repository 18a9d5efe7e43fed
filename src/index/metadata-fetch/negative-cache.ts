/**
 * URIs that failed lately, and why: asked again within `ttlMs` they fail at once without touching the network.
 * Bounded: past `maxEntries` the oldest failure is forgotten first (a Map keeps insertion order).
 */
import type { Clock } from '../../util/clock.js';
import { MetadataFetchError } from './errors.js';

export class NegativeCache {
  private readonly entries = new Map<string, { until: number; error: MetadataFetchError }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(uri: string): MetadataFetchError | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    if (this.clock.now() < entry.until) return entry.error;
    this.entries.delete(uri);
    return undefined;
  }

  remember(uri: string, error: MetadataFetchError): void {
    this.entries.delete(uri);
    this.entries.set(uri, { until: this.clock.now() + this.ttlMs, error });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
