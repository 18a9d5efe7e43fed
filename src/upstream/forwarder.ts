/**
 * Forwards the requests of one upstream network: for each API version, its upstream URLs in failover
 * order. A request is sent to the first URL whose circuit breaker lets it through; a read that fails
 * (unreachable, reset, timeout of its attempt, 5xx, not JSON, 429) is sent again to the next URL after a
 * short backoff while the retry budget and the request's deadline allow. A write is sent once (only a
 * refused connection, which proves nothing was sent, lets it try the next URL).
 *
 * Identical reads in flight share one upstream call (single flight), and reads that only change with a
 * block are answered from a small cache for at most --upstream-cache ms.
 */
import type { Clock } from '../util/clock.js';
import type { UpstreamConfig } from '../config/types.js';
import type { ApiVersion } from '../http/request-target.js';
import { UpstreamBudget } from './budget.js';
import { UpstreamFailure } from './failure.js';
import type { UpstreamMetrics } from './metrics.js';
import { ReadCache } from './read-cache.js';
import type { RoutePolicy } from './route-policy.js';
import { SharedBody } from './shared-body.js';
import { UpstreamTarget, WHOLE_BODY_BYTES, type UpstreamAnswer } from './target.js';
import { RetryBudget } from './retry-budget.js';
import { contentCoding, decoded } from './encoding.js';
import { semanticHeadersKey } from './semantic-headers.js';

export interface ForwardRequest {
  version: ApiVersion;
  method: string;
  /** Path and query after /api/vN, the client's key removed. */
  rest: string;
  body?: Buffer;
  contentType?: string;
  /** The codings the client accepts, as encoding.ts spells them (`identity` when none). */
  acceptEncoding: string;
  /** toncenter's request headers that change an answer (semantic-headers.ts), when the client sent any. */
  semanticHeaders?: Record<string, string>;
  policy: RoutePolicy;
  /** Sent beside the version's base (target.ts `sibling`): toncenter's emulate API beside v3. */
  sibling?: string;
}

/** Reads kept "final" (a block by seqno, a transaction by hash) are still dropped after this long. */
const FINAL_KEEP_MS = 10 * 60_000;
const CACHE_BYTES = 32 * 1_048_576;
const BACKOFF_BASE_MS = 20;
const BACKOFF_MAX_MS = 250;
/** An attempt is not started with less time than this (or a tenth of the timeout) left. */
const MIN_ATTEMPT_MS = 50;
/** Attempts of one read at most (each URL once, and at least one second try of a lone URL). */
const MAX_ATTEMPTS = 3;
/** Bodies up to this size are complete before the answer is given (and then sent whole, cheaper than a stream). */
export { WHOLE_BODY_BYTES };

export class UpstreamForwarder {
  readonly targets: Record<ApiVersion, UpstreamTarget[]>;
  private readonly budget: UpstreamBudget;
  private readonly retries = new RetryBudget();
  private readonly flights = new Map<string, Promise<UpstreamAnswer>>();
  private readonly cache: ReadCache;

  constructor(
    readonly network: string,
    private readonly config: UpstreamConfig,
    private readonly deps: { clock: Clock; metrics: UpstreamMetrics },
  ) {
    const make = (version: ApiVersion) => (url: URL) =>
      new UpstreamTarget(url, {
        network,
        version,
        apiKey: config.apiKey,
        connections: config.concurrency,
        breakerOpenMs: config.breakerOpenMs,
        maxResponseBytes: config.maxResponseBytes,
        clock: deps.clock,
        metrics: deps.metrics,
      });
    this.targets = { v2: config.v2.map(make('v2')), v3: config.v3.map(make('v3')) };
    this.budget = new UpstreamBudget({ clock: deps.clock, concurrency: config.concurrency, rps: config.rps });
    this.cache = new ReadCache(deps.clock, CACHE_BYTES);
  }

  serves(version: ApiVersion): boolean {
    return this.targets[version].length > 0;
  }

  /** The upstream's answer (a SharedBody still arriving), or an UpstreamFailure. */
  forward(request: ForwardRequest): Promise<UpstreamAnswer> {
    const { policy } = request;
    if (!policy.read) return this.attempts(request);
    // Keyed by the codings asked too: an answer in gzip is not one for a client that asked for none; and by
    // toncenter's semantic headers: an answer made with X-No-Metadata is not one for a request without it.
    // (The header lines never are empty, so the empty line after them ends them: no body can pass for one.)
    const key = `${request.sibling ?? request.version} ${request.method} ${request.rest}\n${request.acceptEncoding}\n${semanticHeadersKey(request.semanticHeaders)}\n${request.body?.toString('latin1') ?? ''}`;
    if (policy.keep) {
      const cached = this.cache.get(key);
      if (cached) {
        this.deps.metrics.cached(this.network);
        return Promise.resolve({ status: cached.status, headers: cached.headers, body: SharedBody.of(cached.body) });
      }
    }
    const inFlight = this.flights.get(key);
    if (inFlight) {
      this.deps.metrics.coalesced(this.network);
      return inFlight;
    }
    const flight = this.attempts(request);
    this.flights.set(key, flight);
    // The flight stays joinable until its body is complete: a request coming while it streams replays it.
    flight.then(
      (answer) => {
        const complete = answer.body.completeBuffer;
        if (complete !== undefined) this.landed(key, policy, answer, complete);
        else
          answer.body.whole().then(
            (body) => this.landed(key, policy, answer, body),
            () => this.flights.delete(key),
          );
      },
      () => this.flights.delete(key),
    );
    return flight;
  }

  /** A flight's body is complete: it is no longer joinable, and its answer is kept if the policy allows. */
  private landed(key: string, policy: RoutePolicy, answer: UpstreamAnswer, body: Buffer): void {
    this.flights.delete(key);
    if (policy.keep && this.config.cacheMs > 0 && answer.status === 200 && isJson(body, answer.headers['content-encoding'])) {
      const ttl = policy.keep === 'block' ? this.config.cacheMs : Math.max(this.config.cacheMs, FINAL_KEEP_MS);
      this.cache.set(key, { status: answer.status, headers: answer.headers, body }, ttl);
    }
  }

  private async attempts(request: ForwardRequest): Promise<UpstreamAnswer> {
    const { clock, metrics } = this.deps;
    const targets = this.targets[request.version];
    const deadline = clock.now() + this.config.timeoutMs;
    // A read's attempt gets half the time, so a hanging upstream leaves time for a second try (elsewhere first).
    const attemptShare = request.policy.read ? this.config.timeoutMs / 2 : this.config.timeoutMs;
    this.retries.deposit();
    const tried = new Set<UpstreamTarget>();
    let last: UpstreamFailure | undefined;
    for (let attempt = 0; ; attempt++) {
      const target = pick(targets, tried);
      if (!target)
        throw (
          last ??
          new UpstreamFailure(
            502,
            'no-upstream',
            `no ${request.version} upstream of ${this.network} is available (all circuit breakers open)`,
          )
        );
      tried.add(target);
      const granted = this.budget.acquire(deadline);
      // Usually granted at once: no await (and no microtask) then.
      const release = typeof granted === 'function' ? granted : await granted;
      // A slot granted with (almost) no time left would only spend the upstream's capacity on a sure 504.
      if (deadline - clock.now() < Math.max(MIN_ATTEMPT_MS, this.config.timeoutMs / 10)) {
        release();
        throw last ?? new UpstreamFailure(503, 'budget', 'upstream request budget exhausted, retry later', 1);
      }
      try {
        // A small body is complete when send resolves (target.ts), so a connection reset in its middle is
        // still a failed attempt (retried for reads) rather than a cut response.
        return await target.send(request, Math.min(deadline, clock.now() + attemptShare));
      } catch (error) {
        const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure(502, 'reset', (error as Error).message);
        last = failure;
        // A 429 is not asked again of the URL that said it: only another URL may take the read.
        const elsewhere = failure.kind !== 'rate-limited' || tried.size < targets.length;
        const again = ((request.policy.read && failure.transient) || failure.notSent) && elsewhere;
        if (!again || attempt + 1 >= Math.max(MAX_ATTEMPTS, targets.length) || clock.now() >= deadline || !this.retries.withdraw())
          throw failure;
        metrics.retry(this.network);
      } finally {
        release();
      }
      if (tried.size >= targets.length) tried.clear();
      const pause = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      if (clock.now() + pause >= deadline) throw last;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  close(): Promise<unknown> {
    return Promise.all([...this.targets.v2, ...this.targets.v3].map((target) => target.close()));
  }
}

/** The first URL not tried yet whose breaker lets a request through; then any whose breaker does. */
function pick(targets: UpstreamTarget[], tried: Set<UpstreamTarget>): UpstreamTarget | undefined {
  for (const target of targets) if (!tried.has(target) && target.breaker.allow()) return target;
  return undefined;
}

/** A complete body (decoded first when encoded) parses as JSON. */
function isJson(encoded: Buffer, contentEncoding: string | undefined): boolean {
  const coding = contentCoding(contentEncoding);
  const body = coding === undefined ? undefined : decoded(encoded, coding, CACHE_BYTES);
  if (body === undefined) return false;
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
