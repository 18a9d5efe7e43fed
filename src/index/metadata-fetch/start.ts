/**
 * The one call the token index makes: with `--fetch-metadata` on, a fetcher and its loop over the index's sink,
 * started; off (the default: no internet is assumed), nothing at all. The caller stops it on shutdown.
 */
import type { MetadataFetchConfig } from '../../config/types.js';
import { MetadataFetcher } from './fetcher.js';
import { MetadataFetchQueue, type MetadataSink, type QueueLogger } from './queue.js';

export function startMetadataFetching(config: MetadataFetchConfig, sink: MetadataSink, log?: QueueLogger): MetadataFetchQueue | undefined {
  if (!config.enabled) return undefined;
  const fetcher = new MetadataFetcher({
    allowPrivate: config.allowPrivate,
    ipfsGateway: config.ipfsGateway,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    concurrency: config.concurrency,
  });
  const queue = new MetadataFetchQueue(sink, fetcher, { log });
  queue.start();
  return queue;
}
