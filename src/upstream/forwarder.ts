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
import { UpstreamTarget, WHOLE_BODY_BYTES, type AttemptOwner, type UpstreamAnswer } from './target.js';
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

/** Who waits for a forwarded request: called once, with the answer or with why there is none (an UpstreamFailure). */
export interface ForwardWaiter {
  settle(failure: Error | undefined, answer: UpstreamAnswer | undefined): void;
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
  /** (Read by this file's UpstreamCall.) */
  readonly budget: UpstreamBudget;
  readonly retries = new RetryBudget();
  private readonly flights = new FlightTable();
  private readonly cache: ReadCache;

  constructor(
    readonly network: string,
    readonly config: UpstreamConfig,
    readonly deps: { clock: Clock; metrics: UpstreamMetrics },
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

  /**
   * The upstream's answer (a SharedBody still arriving), or an UpstreamFailure, given to `waiter` once
   * (possibly before this returns: a cached answer, a refusal of the budget). Callbacks rather than promises:
   * an answer reaches the client in the same turn of the event loop as the upstream's last bytes.
   */
  forward(request: ForwardRequest, waiter: ForwardWaiter): void {
    const { policy } = request;
    if (!policy.read) {
      new UpstreamCall(this, request, waiter).next();
      return;
    }
    // Keyed by the codings asked too: an answer in gzip is not one for a client that asked for none; and by
    // toncenter's semantic headers: an answer made with X-No-Metadata is not one for a request without it.
    // (The header lines never are empty, so the empty line after them ends them: no body can pass for one.)
    const key = `${request.sibling ?? request.version} ${request.method} ${request.rest}\n${request.acceptEncoding}\n${semanticHeadersKey(request.semanticHeaders)}\n${request.body?.toString('latin1') ?? ''}`;
    if (policy.keep) {
      const cached = this.cache.get(key);
      if (cached) {
        this.deps.metrics.cached(this.network);
        waiter.settle(undefined, { status: cached.status, headers: cached.headers, body: SharedBody.of(cached.body) });
        return;
      }
    }
    const inFlight = this.flights.get(key);
    if (inFlight) {
      this.deps.metrics.coalesced(this.network);
      inFlight.join(waiter);
      return;
    }
    const flight = new Flight(this, key, policy, waiter);
    this.flights.set(key, flight);
    new UpstreamCall(this, request, flight).next();
  }

  /** A flight's body is complete: it is no longer joinable, and its answer is kept if the policy allows. */
  landed(flight: Flight, answer: UpstreamAnswer, body: Buffer): void {
    this.dropFlight(flight);
    const { key, policy } = flight;
    if (policy.keep && this.config.cacheMs > 0 && answer.status === 200 && isJson(body, answer.headers['content-encoding'])) {
      const ttl = policy.keep === 'block' ? this.config.cacheMs : Math.max(this.config.cacheMs, FINAL_KEEP_MS);
      this.cache.set(key, { status: answer.status, headers: answer.headers, body }, ttl);
    }
  }

  /** A flight failed or its body did: no longer joinable (only this flight: a newer one may hold the key). */
  dropFlight(flight: Flight): void {
    if (this.flights.get(flight.key) === flight) this.flights.delete(flight.key);
  }

  close(): Promise<unknown> {
    return Promise.all([...this.targets.v2, ...this.targets.v3].map((target) => target.close()));
  }
}

/**
 * The flights in the air, by key: a prototype-less object (V8 keeps it in dictionary mode from the start) rather than
 * a Map. A Map written and deleted once per request, once its table has reached the old generation (a mark-compact
 * promotes whatever is live then, the table among it), builds its next tables there, one every few requests; each table
 * left behind is old garbage still pointing at the flights it held, and a scavenge takes old objects' pointers as roots:
 * every flight, and through it the request, its reply and the upstream's answer, survived the scavenges until the next
 * mark-compact and was promoted. Measured: ~3 kB promoted per request on bench:upstream's v2 load (~2 MB a scavenge;
 * a heap snapshot, taken after a full GC, finds none of it), ~10 B with this table, as with no table at all
 * (src/upstream/README.md, "Seventh stage"; test/upstream/flights-gc.test.ts).
 */
class FlightTable {
  private readonly byKey: Record<string, Flight | undefined> = Object.create(null) as Record<string, Flight | undefined>;

  get(key: string): Flight | undefined {
    return this.byKey[key];
  }

  set(key: string, flight: Flight): void {
    this.byKey[key] = flight;
  }

  delete(key: string): void {
    Reflect.deleteProperty(this.byKey, key);
  }
}

/**
 * One read in flight that identical reads join (single flight): each joiner gets the same answer. It stays joinable
 * until its body is complete (a request coming while it streams replays it), then its answer may be kept.
 */
class Flight implements ForwardWaiter {
  private others: ForwardWaiter[] | undefined = undefined;
  private settled = false;
  private failure: Error | undefined = undefined;
  private answer: UpstreamAnswer | undefined = undefined;

  constructor(
    private readonly forwarder: UpstreamForwarder,
    readonly key: string,
    readonly policy: RoutePolicy,
    private readonly first: ForwardWaiter,
  ) {}

  join(waiter: ForwardWaiter): void {
    if (this.settled) waiter.settle(this.failure, this.answer);
    else (this.others ??= []).push(waiter);
  }

  settle(failure: Error | undefined, answer: UpstreamAnswer | undefined): void {
    this.settled = true;
    this.failure = failure;
    this.answer = answer;
    // Landed first (no longer joinable, kept if the policy allows), then every waiter answered.
    if (answer === undefined) this.forwarder.dropFlight(this);
    else {
      const complete = answer.body.completeBuffer;
      if (complete !== undefined) this.forwarder.landed(this, answer, complete);
      else
        answer.body.whole().then(
          (body) => this.forwarder.landed(this, answer, body),
          () => this.forwarder.dropFlight(this),
        );
    }
    this.first.settle(failure, answer);
    const others = this.others;
    if (others !== undefined) for (const waiter of others) waiter.settle(failure, answer);
  }
}

/**
 * The attempts of one upstream call: the next URL first, backoff between attempts, within the request's deadline,
 * the budget and the retry budget. A state machine of callbacks (no async function: each await was a promise and
 * a microtask per request); the usual call is one attempt granted at once.
 */
class UpstreamCall implements AttemptOwner {
  private readonly deadline: number;
  /** A read's attempt gets half the time, so a hanging upstream leaves time for a second try (elsewhere first). */
  private readonly attemptShare: number;
  private readonly tried: UpstreamTarget[] = [];
  private last: UpstreamFailure | undefined = undefined;
  private attempt = 0;
  private release: (() => void) | undefined = undefined;

  constructor(
    private readonly forwarder: UpstreamForwarder,
    private readonly request: ForwardRequest,
    private readonly waiter: ForwardWaiter,
  ) {
    const { timeoutMs } = forwarder.config;
    this.deadline = forwarder.deps.clock.now() + timeoutMs;
    this.attemptShare = request.policy.read ? timeoutMs / 2 : timeoutMs;
    forwarder.retries.deposit();
  }

  next(): void {
    const { forwarder, request } = this;
    const target = pick(forwarder.targets[request.version], this.tried);
    if (!target)
      return this.waiter.settle(
        this.last ??
          new UpstreamFailure(
            502,
            'no-upstream',
            `no ${request.version} upstream of ${forwarder.network} is available (all circuit breakers open)`,
          ),
        undefined,
      );
    this.tried.push(target);
    let granted: ReturnType<UpstreamBudget['acquire']>;
    try {
      granted = forwarder.budget.acquire(this.deadline);
    } catch (error) {
      return this.waiter.settle(error as Error, undefined);
    }
    // Usually granted at once: no promise then.
    if (typeof granted === 'function') this.begin(target, granted);
    else
      granted.then(
        (release) => this.begin(target, release),
        (error: unknown) => this.waiter.settle(error as Error, undefined),
      );
  }

  private begin(target: UpstreamTarget, release: () => void): void {
    const { clock } = this.forwarder.deps;
    const { timeoutMs } = this.forwarder.config;
    const now = clock.now();
    // A slot granted with (almost) no time left would only spend the upstream's capacity on a sure 504.
    if (this.deadline - now < Math.max(MIN_ATTEMPT_MS, timeoutMs / 10)) {
      release();
      return this.waiter.settle(
        this.last ?? new UpstreamFailure(503, 'budget', 'upstream request budget exhausted, retry later', 1),
        undefined,
      );
    }
    this.release = release;
    // A small body is complete when the attempt answers (target.ts), so a connection reset in its middle is
    // still a failed attempt (retried for reads) rather than a cut response.
    try {
      target.start(this.request, Math.min(this.deadline, now + this.attemptShare), this);
    } catch (error) {
      if (this.release !== undefined) this.attemptDone(new UpstreamFailure(502, 'reset', (error as Error).message), undefined);
    }
  }

  attemptDone(error: UpstreamFailure | undefined, answer: UpstreamAnswer | undefined): void {
    const release = this.release!;
    this.release = undefined;
    if (error === undefined) {
      release();
      return this.waiter.settle(undefined, answer);
    }
    const { forwarder, request } = this;
    const { clock, metrics } = forwarder.deps;
    const targets = forwarder.targets[request.version];
    const failure = error instanceof UpstreamFailure ? error : new UpstreamFailure(502, 'reset', (error as Error).message);
    this.last = failure;
    // A 429 is not asked again of the URL that said it: only another URL may take the read.
    const elsewhere = failure.kind !== 'rate-limited' || this.tried.length < targets.length;
    const again = ((request.policy.read && failure.transient) || failure.notSent) && elsewhere;
    if (
      !again ||
      this.attempt + 1 >= Math.max(MAX_ATTEMPTS, targets.length) ||
      clock.now() >= this.deadline ||
      !forwarder.retries.withdraw()
    ) {
      release();
      return this.waiter.settle(failure, undefined);
    }
    metrics.retry(forwarder.network);
    release();
    if (this.tried.length >= targets.length) this.tried.length = 0;
    const pause = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    if (clock.now() + pause >= this.deadline) return this.waiter.settle(failure, undefined);
    this.attempt++;
    setTimeout(nextAttempt, pause, this);
  }
}

function nextAttempt(call: UpstreamCall): void {
  call.next();
}

/** The first URL not tried yet whose breaker lets a request through; then any whose breaker does. */
function pick(targets: UpstreamTarget[], tried: UpstreamTarget[]): UpstreamTarget | undefined {
  for (const target of targets) if (!tried.includes(target) && target.breaker.allow()) return target;
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
