/**
 * The metadata fetcher: a TEP-64 `uri` in, its JSON object out, or a MetadataFetchError that says why not.
 * Adds to one attempt (fetch-json.ts): the uri -> URL mapping (ipfs through the gateway), retries of what may
 * pass later (5xx, 429, timeouts, refused or reset connections) after a doubling backoff, the slots (total and per host), and the
 * negative cache (a uri that failed fails again at once for a while).
 */
import type { Agent } from 'undici';
import { systemClock, type Clock } from '../../util/clock.js';
import { addressRefusal, createGuardedAgent, type AddressRefusal } from './guarded-agent.js';
import { fetchJsonOnce } from './fetch-json.js';
import { MetadataFetchError } from './errors.js';
import { NegativeCache } from './negative-cache.js';
import { FetchSlots } from './slots.js';
import { fetchUrlOf } from './uri.js';

export interface MetadataFetcherOptions {
  /** Connect to loopback/private/link-local/... addresses (tests, a private deployment). Default false. */
  allowPrivate?: boolean;
  /** Where ipfs:// uris are fetched, e.g. https://ipfs.io/ipfs; none: ipfs uris fail as unsupported. */
  ipfsGateway?: URL;
  /** One attempt's budget, redirects and body included. Default 10 s. */
  timeoutMs?: number;
  /** The largest body read. Default 1 MiB. */
  maxBytes?: number;
  /** Default 3. */
  maxRedirects?: number;
  /** Attempts after the first one for retryable failures. Default 2. */
  retries?: number;
  /** The first retry's wait; each next one doubles. Default 1 s. */
  backoffMs?: number;
  /** Fetches in flight at most. Default 4. */
  concurrency?: number;
  /** Fetches in flight to one host at most. Default 2. */
  perHost?: number;
  /** How long a failed uri fails at once. Default 10 min. */
  negativeTtlMs?: number;
  /** Failed uris remembered at most. Default 10,000. */
  negativeEntries?: number;
  clock?: Clock;
  /** How backoff waits (tests pass one that records and returns). Must end early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Extra CA certificates trusted for https (tests' own servers). */
  ca?: string | Buffer;
  /** Addresses that pass even when private ones are refused (tests: their server on 127.0.0.1, and no other). */
  exemptAddresses?: string[];
}

export class MetadataFetcher {
  private readonly agent: Agent;
  private readonly slots: FetchSlots;
  private readonly negative: NegativeCache;
  private readonly stopAll = new AbortController();
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly refusal: AddressRefusal;
  readonly options: Required<Omit<MetadataFetcherOptions, 'ipfsGateway' | 'ca' | 'clock' | 'sleep' | 'exemptAddresses'>> &
    Pick<MetadataFetcherOptions, 'ipfsGateway'>;

  constructor(options: MetadataFetcherOptions = {}) {
    this.options = {
      allowPrivate: options.allowPrivate ?? false,
      ipfsGateway: options.ipfsGateway,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 1_048_576,
      maxRedirects: options.maxRedirects ?? 3,
      retries: options.retries ?? 2,
      backoffMs: options.backoffMs ?? 1000,
      concurrency: options.concurrency ?? 4,
      perHost: options.perHost ?? 2,
      negativeTtlMs: options.negativeTtlMs ?? 600_000,
      negativeEntries: options.negativeEntries ?? 10_000,
    };
    const { allowPrivate, timeoutMs, perHost, concurrency, negativeTtlMs, negativeEntries } = this.options;
    this.refusal = addressRefusal(allowPrivate, options.exemptAddresses);
    this.agent = createGuardedAgent({ refusal: this.refusal, timeoutMs, connectionsPerHost: perHost, ca: options.ca });
    this.slots = new FetchSlots(concurrency, perHost);
    this.negative = new NegativeCache(options.clock ?? systemClock, negativeTtlMs, negativeEntries);
    this.sleep = options.sleep ?? sleepUnlessAborted;
  }

  /** The JSON object behind `uri`. Throws MetadataFetchError; an AbortError once `close()` was called. */
  async fetch(uri: string): Promise<Record<string, unknown>> {
    const cached = this.negative.get(uri);
    if (cached) throw cached;
    try {
      const url = fetchUrlOf(uri, this.options.ipfsGateway);
      return await this.slots.run(url.host, () => this.withRetries(url));
    } catch (err) {
      if (this.stopAll.signal.aborted) throw new DOMException('the metadata fetcher was closed', 'AbortError');
      if (err instanceof MetadataFetchError) this.negative.remember(uri, err);
      throw err;
    }
  }

  /** True when `uri` failed lately and would fail at once (no network). */
  knownToFail(uri: string): boolean {
    return this.negative.get(uri) !== undefined;
  }

  /** Aborts fetches in flight and backoff waits, closes the connections. */
  async close(): Promise<void> {
    this.stopAll.abort();
    await this.agent.destroy().catch(() => undefined);
  }

  private async withRetries(url: URL): Promise<Record<string, unknown>> {
    const { timeoutMs, maxBytes, maxRedirects, retries, backoffMs } = this.options;
    const refusal = this.refusal;
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetchJsonOnce(url, this.agent, { timeoutMs, maxBytes, maxRedirects, refusal }, this.stopAll.signal);
      } catch (err) {
        const retry = err instanceof MetadataFetchError && err.retryable && attempt < retries && !this.stopAll.signal.aborted;
        if (!retry) throw err;
        await this.sleep(backoffMs * 2 ** attempt, this.stopAll.signal);
      }
    }
  }
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
