/**
 * The background fetch loop: asks the sink (the token index's metadata table) which uris are due, fetches a
 * batch of them through the fetcher and hands each outcome back: fetched, failed for good, or failed for now
 * with the time of the next attempt (retry-schedule.ts). Runs on its own timers, never inside an HTTP request;
 * holds at most one batch of uris in memory; `stop()` aborts what is in flight and returns once the loop has
 * ended (nothing is stored after it resolves).
 */
import type { MetadataFetcher } from './fetcher.js';
import { MetadataFetchError, type FetchFailureKind } from './errors.js';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, type RetryPolicy } from './retry-schedule.js';
import { systemClock, type Clock } from '../../util/clock.js';

/** What a uri gave for good: its JSON, or a failure that will not be tried again. */
export type FetchOutcome = { ok: true; json: Record<string, unknown> } | { ok: false; kind: FetchFailureKind; error: string };

/** A uri to fetch now, and how many attempts at it failed so far (0: never tried). */
export interface DueUri {
  uri: string;
  failures: number;
}

/** A failure that may pass later: the failures so far (this one counted) and when to try again. */
export interface RetryLater {
  failures: number;
  at: number;
  kind: FetchFailureKind;
  error: string;
}

/**
 * What the token index implements for the fetcher (the seam). `dueUris` lists uris never tried or whose
 * retry time has come, at most `limit`, and on a store shared by several instances claims them (another
 * instance does not get them while this one fetches). After `storeFetched` a uri is never due again (unless
 * its content changes to another uri); after `storeRetry` it is due again at `retry.at`.
 */
export interface MetadataSink {
  dueUris(limit: number, now: number): Promise<DueUri[]>;
  storeFetched(uri: string, outcome: FetchOutcome): Promise<void>;
  storeRetry(uri: string, retry: RetryLater): Promise<void>;
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
  /** When a failed uri is tried again. Default DEFAULT_RETRY_POLICY (1 min doubling to a day, 14 attempts). */
  retry?: RetryPolicy;
  /** What `now` is for the schedule (tests: a ManualClock, advanced instead of waiting). */
  clock?: Clock;
}

export class MetadataFetchQueue {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeIdle: (() => void) | undefined;
  private woken = false;
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly retry: RetryPolicy;
  private readonly clock: Clock;

  constructor(
    private readonly sink: MetadataSink,
    private readonly fetcher: MetadataFetcher,
    private readonly options: MetadataFetchQueueOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 32;
    this.idleMs = options.idleMs ?? 5000;
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.clock = options.clock ?? systemClock;
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
        const due = await this.sink.dueUris(this.batchSize, this.clock.now());
        fetchedAny = await this.round(due.slice(0, this.batchSize));
      } catch (err) {
        this.options.log?.warn({ err: (err as Error).message }, 'metadata fetch: the token index could not list or store uris');
      }
      // A round that reached the network may have left more to do; one that did not (nothing due, all
      // answered by the negative cache, a sink error) waits, so a sink that keeps listing a uri cannot spin.
      if (!fetchedAny && this.running && !this.woken) await this.idle();
    }
  }

  private async round(due: DueUri[]): Promise<boolean> {
    let fetchedAny = false;
    await Promise.all(
      due.map(async ({ uri, failures }) => {
        // Listed again before its retry time (a sink that ignores the schedule): left as it is, not counted.
        if (this.fetcher.knownToFail(uri)) return;
        fetchedAny = true;
        await this.attempt(uri, failures);
      }),
    );
    return fetchedAny;
  }

  private async attempt(uri: string, failuresBefore: number): Promise<void> {
    let json: Record<string, unknown>;
    try {
      json = await this.fetcher.fetch(uri);
    } catch (err) {
      if (!(err instanceof MetadataFetchError)) {
        if (!this.running) return; // stopped: aborted, not a failure of the uri
        throw err;
      }
      if (!this.running) return;
      const failures = failuresBefore + 1;
      const at = nextAttemptAt(this.retry, failures, err, this.clock.now());
      this.options.log?.debug?.({ uri, kind: err.kind, error: err.message, failures, retryAt: at }, 'metadata fetch failed');
      if (at === undefined) await this.sink.storeFetched(uri, { ok: false, kind: err.kind, error: err.message });
      else await this.sink.storeRetry(uri, { failures, at, kind: err.kind, error: err.message });
      return;
    }
    if (this.running) await this.sink.storeFetched(uri, { ok: true, json });
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeIdle = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.idleMs);
      timer.unref();
      this.wakeIdle = done;
    });
  }
}
