/**
 * The background fetch loop: asks the sink (the token index's metadata table) which uris still wait, fetches a
 * batch of them through the fetcher and hands each outcome back. Runs on its own timers, never inside an HTTP
 * request; holds at most one batch of uris in memory; `stop()` aborts what is in flight and returns once the
 * loop has ended (nothing is stored after it resolves).
 */
import type { MetadataFetcher } from './fetcher.js';
import { MetadataFetchError, type FetchFailureKind } from './errors.js';

export type FetchOutcome =
  | { ok: true; json: Record<string, unknown> }
  | { ok: false; kind: FetchFailureKind; error: string };

/**
 * What the token index implements for the fetcher (the seam). `pendingUris` lists uris that have no stored
 * outcome yet; `storeFetched` stores one, after which that uri must leave `pendingUris` (until the sink itself
 * decides to try it again, e.g. a failure older than a day).
 */
export interface MetadataSink {
  pendingUris(limit: number): Promise<string[]>;
  storeFetched(uri: string, outcome: FetchOutcome): Promise<void>;
}

export interface QueueLogger {
  warn(object: Record<string, unknown>, message: string): void;
  debug?(object: Record<string, unknown>, message: string): void;
}

export interface MetadataFetchQueueOptions {
  /** Uris asked of the sink and fetched at a time. Default 32. */
  batchSize?: number;
  /** Wait after an empty (or sink-failed) round before asking again, unless `wake()` comes first. Default 5 s. */
  idleMs?: number;
  log?: QueueLogger;
}

export class MetadataFetchQueue {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeIdle: (() => void) | undefined;
  private woken = false;
  private readonly batchSize: number;
  private readonly idleMs: number;

  constructor(
    private readonly sink: MetadataSink,
    private readonly fetcher: MetadataFetcher,
    private readonly options: MetadataFetchQueueOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 32;
    this.idleMs = options.idleMs ?? 5000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** New uris may be pending (the token index just stored some): ask now instead of after the idle wait. */
  wake(): void {
    this.woken = true;
    this.wakeIdle?.();
  }

  /** Ends the loop: fetches in flight are aborted, their outcomes not stored. Also closes the fetcher. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.fetcher.close();
    this.wakeIdle?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let fetchedAny = false;
      try {
        const uris = await this.sink.pendingUris(this.batchSize);
        fetchedAny = await this.round(uris.slice(0, this.batchSize));
      } catch (err) {
        this.options.log?.warn({ err: (err as Error).message }, 'metadata fetch: the token index could not list or store uris');
      }
      // A round that reached the network may have left more to do; one that did not (nothing pending, all
      // answered by the negative cache, a sink error) waits, so a sink that keeps listing a uri cannot spin.
      if (!fetchedAny && this.running && !this.woken) await this.idle();
    }
  }

  private async round(uris: string[]): Promise<boolean> {
    let fetchedAny = false;
    await Promise.all(
      uris.map(async (uri) => {
        if (!this.fetcher.knownToFail(uri)) fetchedAny = true;
        const outcome = await this.outcomeOf(uri);
        if (outcome && this.running) await this.sink.storeFetched(uri, outcome);
      }),
    );
    return fetchedAny;
  }

  private async outcomeOf(uri: string): Promise<FetchOutcome | undefined> {
    try {
      return { ok: true, json: await this.fetcher.fetch(uri) };
    } catch (err) {
      if (err instanceof MetadataFetchError) {
        this.options.log?.debug?.({ uri, kind: err.kind, error: err.message }, 'metadata fetch failed');
        return { ok: false, kind: err.kind, error: err.message };
      }
      if (!this.running) return undefined; // stopped: aborted, not a failure of the uri
      throw err;
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.idleMs);
      timer.unref();
      this.wakeIdle = done;
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wakeIdle = undefined;
        resolve();
      }
    });
  }
}
