/**
 * The one call the token index makes: with `--fetch-metadata` on, a fetcher and its loop over the index's sink,
 * started; off (the default: no internet is assumed), nothing at all. The caller stops it on shutdown.
 */
import { systemClock, type Clock } from '../../util/clock.js';
import { MetadataFetcher, type MetadataFetcherOptions } from './fetcher.js';
import { MetadataFetchQueue, type MetadataSink, type QueueLogger } from './queue.js';
import { DEFAULT_RETRY_POLICY } from './retry-schedule.js';

/** Fetching tokens' offchain metadata (`--fetch-metadata` and its options; src/config reads them). */
export interface MetadataFetchOptions {
  enabled: boolean;
  /** Metadata uris may reach loopback, private, link-local... addresses. */
  allowPrivate: boolean;
  /** Where ipfs:// uris are fetched; none: they are not. */
  ipfsGateway?: URL;
  /** One attempt's budget (connect, headers, body, redirects). */
  timeoutMs: number;
  /** The largest body read. */
  maxBytes: number;
  /** Fetches in flight at most. */
  concurrency: number;
}

/** What tests change beyond the config: the clock, their server's address, the idle wait. */
export interface MetadataFetchingOverrides {
  clock?: Clock;
  exemptAddresses?: string[];
  idleMs?: number;
}

export function startMetadataFetching(
  config: MetadataFetchOptions,
  sink: MetadataSink,
  log?: QueueLogger,
  overrides: MetadataFetchingOverrides = {},
): MetadataFetchQueue | undefined {
  if (!config.enabled) return undefined;
  const clock = overrides.clock ?? systemClock;
  const fetcher = new MetadataFetcher({
    ...fetcherOptionsFor(config),
    clock,
    exemptAddresses: overrides.exemptAddresses,
  });
  const queue = new MetadataFetchQueue(sink, fetcher, { log, clock, retry: DEFAULT_RETRY_POLICY, idleMs: overrides.idleMs });
  queue.start();
  return queue;
}

/**
 * The fetcher as the loop uses it: one attempt per fetch (the persistent schedule does the retrying, so a dead
 * host costs one timeout per scheduled attempt, not three), and a negative cache shorter than the first retry
 * wait (it only guards against a sink listing a uri again too early; it must not answer a due retry).
 */
function fetcherOptionsFor(config: MetadataFetchOptions): MetadataFetcherOptions {
  return {
    allowPrivate: config.allowPrivate,
    ipfsGateway: config.ipfsGateway,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    concurrency: config.concurrency,
    retries: 0,
    negativeTtlMs: DEFAULT_RETRY_POLICY.firstDelayMs / 2,
  };
}
