/**
 * One upstream URL (e.g. https://toncenter.com/api/v2): a pool of keep-alive connections to it (undici),
 * its circuit breaker, what its last health check found, and one attempt of a request against it.
 *
 * An attempt resolves once the response headers and the first body bytes are in, with the body still
 * arriving into a SharedBody (a small body: once it is complete); the response's own status decides: 2xx/3xx/4xx are the upstream's answer
 * (passed on as they are), its 429 a 503, its 5xx a 502 with its message, a refusal of tongate's own key
 * (401/403) a 502. Everything the upstream is sent and everything kept about it leaves the key out.
 */
import type { Dispatcher, Pool } from 'undici';
import { undici } from './undici.js';
import type { IncomingHttpHeaders } from 'node:http';
import { CircuitBreaker, type BreakerState } from '../util/circuit-breaker.js';
import type { ApiVersion } from '../http/request-target.js';
import type { Clock } from '../util/clock.js';
import { VERSION } from '../version.js';
import { UpstreamFailure, transportFailure, upstreamMessage } from './failure.js';
import type { AttemptCells, UpstreamMetrics } from './metrics.js';
import { SharedBody } from './shared-body.js';
import { contentCoding, decoded, IDENTITY } from './encoding.js';

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: SharedBody;
}

export interface AttemptRequest {
  method: string;
  /** Path and query after the version's base, e.g. `/getAddressInformation?address=...`. */
  rest: string;
  body?: Buffer;
  contentType?: string;
  /** What to ask the upstream for (encoding.ts `acceptedCodings`): `identity` when absent. */
  acceptEncoding?: string;
  /** toncenter's semantic request headers the client sent (semantic-headers.ts), passed as they are. */
  semanticHeaders?: Record<string, string>;
  /**
   * An API beside the version's base rather than under it: the base's last path segment replaced by this one
   * (`/api/v3` -> `/api/emulate`: toncenter serves its emulate API there, beside v3).
   */
  sibling?: string;
}

export interface TargetHealth {
  state: 'unknown' | 'up' | 'down';
  lastSeqno?: number;
  latencyMs?: number;
  error?: string;
  checkedAt?: number;
}

export interface TargetOptions {
  network: string;
  version: ApiVersion;
  apiKey?: string;
  connections: number;
  /** How long the breaker stays open before one probe (--upstream-breaker-open). */
  breakerOpenMs: number;
  maxResponseBytes: number;
  clock: Clock;
  metrics: UpstreamMetrics;
}

/** Response headers passed on to the client; the upstream's own rate-limit, cookie and hop-by-hop headers are not. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-encoding', 'vary', 'cache-control'];
/** toncenter's words when the key is the problem: "API key does not exist", "Network not allowed", "invalid api key". */
export const KEY_REFUSAL = /api[ _-]?key|network not allowed|unauthori[sz]ed/i;
/** Error bodies are read only this far (their message is all that is kept). */
const ERROR_BODY_BYTES = 64 * 1024;
/**
 * Bodies up to this size (by content-length) are complete before the attempt resolves: a reset in their
 * middle is then a failed attempt (retried for reads), and the client gets one clean answer, sent whole.
 */
export const WHOLE_BODY_BYTES = 64 * 1024;
/** Decoded error bodies are cut at this size (a small compressed body can unfold to much more). */
const DECODED_MAX = 1024 * 1024;

export class UpstreamTarget {
  /** The URL without credentials (the config refuses them): safe for logs, metrics and /healthcheck. */
  readonly label: string;
  readonly breaker: CircuitBreaker;
  health: TargetHealth = { state: 'unknown' };
  /** The injected clock and the response-size cap, read by each attempt. */
  readonly clock: Clock;
  readonly maxResponseBytes: number;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;
  private readonly attempts: AttemptCells;
  /** The request headers per Accept-Encoding asked (a few spellings: the object is not rebuilt per request). */
  private readonly headersByEncoding = new Map<string, Record<string, string>>();

  constructor(
    url: URL,
    private readonly options: TargetOptions,
  ) {
    this.label = url.origin + url.pathname;
    this.clock = options.clock;
    this.maxResponseBytes = options.maxResponseBytes;
    this.basePath = url.pathname;
    this.attempts = options.metrics.attemptCells(options.network, this.label);
    this.pool = new (undici().Pool)(url.origin, {
      connections: options.connections,
      pipelining: 1,
      connect: { timeout: 5000 },
      keepAliveTimeout: 10_000,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    this.headers = { accept: 'application/json', 'user-agent': `tongate/${VERSION}` };
    if (options.apiKey) this.headers['x-api-key'] = options.apiKey;
    this.breaker = new CircuitBreaker({
      clock: options.clock,
      window: 10,
      minFailures: 3,
      failureRatio: 0.5,
      openMs: options.breakerOpenMs,
      onStateChange: (state) => options.metrics.breaker(options.network, this.label, state),
    });
    options.metrics.breaker(options.network, this.label, 'closed');
  }

  get breakerState(): BreakerState {
    return this.breaker.state;
  }

  /**
   * One attempt, as a promise (the health check's way; the forwarder calls `start`, which makes none).
   */
  send(request: AttemptRequest, deadline: number): Promise<UpstreamAnswer> {
    return new Promise<UpstreamAnswer>((resolve, reject) =>
      this.start(request, deadline, {
        attemptDone: (failure, answer) => (failure === undefined ? resolve(answer!) : reject(failure)),
      }),
    );
  }

  /**
   * One attempt, through undici's dispatch API: the response's chunks go straight into a SharedBody (no
   * stream of undici's own in between), and `deadline` (a clock.now() value) aborts it wherever it is (504).
   * `owner.attemptDone` is called once: with the answer, or with an UpstreamFailure. The attempt is one object
   * (it is undici's handler too) and its deadline one timer: nothing else is made per attempt.
   */
  start(request: AttemptRequest, deadline: number, owner: AttemptOwner): void {
    const attempt = new Attempt(this, owner, deadline);
    const encodingHeaders = this.headersFor(request.acceptEncoding ?? IDENTITY);
    // (Built per request only when there is something to add: most requests send the shared object.)
    const requestHeaders =
      request.contentType || request.semanticHeaders
        ? { ...request.semanticHeaders, ...encodingHeaders, ...(request.contentType ? { 'content-type': request.contentType } : {}) }
        : encodingHeaders;
    // undici calls the handler's onError for what it refuses at once (a closed pool, bad options).
    this.pool.dispatch(
      {
        path: (request.sibling === undefined ? this.basePath : siblingPath(this.basePath, request.sibling)) + request.rest,
        method: request.method as Dispatcher.HttpMethod,
        headers: requestHeaders,
        body: request.body,
      },
      attempt,
    );
  }

  private headersFor(acceptEncoding: string): Record<string, string> {
    let headers = this.headersByEncoding.get(acceptEncoding);
    if (headers === undefined) {
      headers = { ...this.headers, 'accept-encoding': acceptEncoding };
      this.headersByEncoding.set(acceptEncoding, headers);
    }
    return headers;
  }

  /** Metrics of one attempt: plain numbers of this URL's cells (metrics.ts), rendered on scrape. */
  recordAttempt(status: string | number, seconds: number): void {
    this.attempts.record(status, seconds);
  }

  /** An upstream error body as the message tongate shows: the key tongate sent replaced, if the upstream echoed it. */
  redacted(message: string): string {
    return this.options.apiKey ? message.replaceAll(this.options.apiKey, '[REDACTED]') : message;
  }

  /** A health check: the newest masterchain block through the API, with a short timeout. */
  async check(timeoutMs: number): Promise<TargetHealth> {
    const { clock } = this.options;
    const started = clock.now();
    this.options.metrics.healthCheck(this.options.network, this.label);
    try {
      const answer = await this.send(
        { method: 'GET', rest: this.options.version === 'v2' ? '/getMasterchainInfo' : '/masterchainInfo' },
        started + timeoutMs,
      );
      const parsed = JSON.parse((await answer.body.whole()).toString('utf8')) as {
        result?: { last?: { seqno?: number } };
        last?: { seqno?: number };
      };
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      const seqno = this.options.version === 'v2' ? parsed.result?.last?.seqno : parsed.last?.seqno;
      this.health = {
        state: 'up',
        lastSeqno: typeof seqno === 'number' ? seqno : undefined,
        latencyMs: Math.round(clock.now() - started),
        checkedAt: clock.now(),
      };
    } catch (error) {
      this.health = {
        state: 'down',
        error: (error as Error).message,
        latencyMs: Math.round(clock.now() - started),
        checkedAt: clock.now(),
      };
    }
    return this.health;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Who waits for an attempt: called once, with the answer or with the failure. */
export interface AttemptOwner {
  attemptDone(failure: UpstreamFailure | undefined, answer: UpstreamAnswer | undefined): void;
}

/**
 * One attempt against one URL, and undici's handler for it: undici's own handler interface (onConnect,
 * onHeaders, onData, onComplete, onError) as methods of one object. Its newer interface (onRequestStart,
 * onResponseStart, ...) is wrapped per request in an adapter that also parses every response header into an
 * object; here only the few headers read are picked from the raw list. Methods rather than closures: an
 * attempt is one object, its deadline one timer given the attempt as its argument.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private readonly started: number;
  private readonly timer: NodeJS.Timeout;
  /** undici's abort of this request, once it started (onConnect). */
  private abort: ((reason?: Error) => void) | undefined = undefined;
  timedOut = false;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = NO_HEADERS;
  /** The body's content coding ('' for none; undefined for one tongate cannot decode: passed unchecked). */
  private coding: ReturnType<typeof contentCoding> = '';
  private body: SharedBody | undefined = undefined;
  /** A small body: the attempt resolves once it is complete, not at its first bytes. */
  private small = false;
  /** The body of a refusal (429, 401/403, a failing 5xx): read only for its message. */
  private refusal: Buffer[] | undefined = undefined;
  private refusalBytes = 0;

  constructor(
    private readonly target: UpstreamTarget,
    private readonly owner: AttemptOwner,
    deadline: number,
  ) {
    this.started = target.clock.now();
    this.timer = setTimeout(attemptTimedOut, Math.max(1, deadline - this.started), this);
  }

  /** The deadline passed: undici's request is aborted wherever it is (504). */
  timeOut(): void {
    this.timedOut = true;
    const failure = timeoutFailure();
    // Still waiting for a connection: give up now (the request is aborted when it starts).
    if (this.abort === undefined) this.fail(failure, true);
    else this.abort(failure);
  }

  private fail(failure: UpstreamFailure, countsAgainst: boolean): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.target.recordAttempt(failure.kind, (this.target.clock.now() - this.started) / 1000);
    if (countsAgainst) this.target.breaker.failure();
    this.owner.attemptDone(failure, undefined);
  }

  private answer(): void {
    this.settled = true;
    this.target.recordAttempt(this.status, (this.target.clock.now() - this.started) / 1000);
    this.target.breaker.success();
    this.owner.attemptDone(undefined, { status: this.status, headers: passedHeaders(this.headers), body: this.body! });
  }

  onConnect(abortRequest: (reason?: Error) => void): void {
    this.abort = abortRequest;
    if (this.timedOut) abortRequest(timeoutFailure());
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx: the real answer follows
    this.status = statusCode;
    const headers = readHeaders(rawHeaders);
    this.headers = headers;
    this.coding = contentCoding(headers['content-encoding']);
    if (statusCode === 429 || statusCode === 401 || statusCode === 403 || isFailureStatus(statusCode, headers)) {
      this.refusal = [];
      return true;
    }
    const length = Number(headers['content-length'] ?? NaN);
    const max = this.target.maxResponseBytes;
    if (length > max) {
      this.abort!(tooLarge(max));
      return true;
    }
    this.small = length <= WHOLE_BODY_BYTES;
    this.body = new SharedBody();
    return true;
  }

  onData(chunk: Buffer): boolean {
    const refusal = this.refusal;
    if (refusal !== undefined) {
      if (this.refusalBytes < ERROR_BODY_BYTES) refusal.push(chunk);
      this.refusalBytes += chunk.length;
      return true;
    }
    const body = this.body;
    if (body === undefined) return true;
    const max = this.target.maxResponseBytes;
    if (body.size + chunk.length > max) {
      this.abort!(tooLarge(max));
      return true;
    }
    const first = body.size === 0;
    body.push(chunk);
    if (first && !this.settled) {
      if (this.status < 300 && !looksLikeJson(chunk, this.coding, this.headers)) this.abort!(notJson(this.status));
      else if (!this.small) this.answer();
    }
    return true;
  }

  onComplete(): void {
    clearTimeout(this.timer);
    if (this.refusal !== undefined) return this.refused(Buffer.concat(this.refusal));
    const body = this.body;
    if (body === undefined) return this.fail(new UpstreamFailure(502, 'reset', 'upstream connection failed (no response)'), true);
    if (!this.settled && this.status < 300 && body.size === 0) return this.fail(notJson(this.status), true);
    body.end();
    if (!this.settled) this.answer();
  }

  onError(error: Error): void {
    clearTimeout(this.timer);
    const failure = transportFailure(error, this.timedOut);
    if (this.settled) {
      this.body?.fail(failure);
      return;
    }
    this.fail(failure, failure.kind !== 'too-large');
  }

  /** A refusal's body is complete: what the client gets instead (a 503, a 502 with its message, or the answer itself). */
  private refused(raw: Buffer): void {
    const { status, headers, coding } = this;
    // Rewritten into the version's shape, so read as text: decoded when the upstream encoded it.
    const text =
      (coding === undefined ? undefined : decoded(raw.subarray(0, ERROR_BODY_BYTES), coding, DECODED_MAX, true)) ?? Buffer.alloc(0);
    // An upstream that echoes the key it was sent must not make tongate show it.
    const message = this.target.redacted(upstreamMessage(text, status));
    if (status === 429)
      return this.fail(new UpstreamFailure(503, 'rate-limited', 'upstream rate limit reached, retry later', retryAfterOf(headers)), false);
    if (status === 401 || status === 403) {
      // toncenter also answers 401 for a missing field of a v3 POST ("boc is required"): that is an
      // answer for the client. Only a refusal that names the key (or the network) is about tongate's key.
      if (!KEY_REFUSAL.test(message)) {
        this.body = SharedBody.of(raw);
        return this.answer();
      }
      return this.fail(new UpstreamFailure(502, 'refused-key', `upstream refused tongate's API key (${status}): ${message}`), false);
    }
    // A 5xx in JSON is the upstream API answering (toncenter's LITE_SERVER_... errors): worth a retry of
    // a read, but not a sign the upstream is down: only bare 5xx (a proxy's error page) trip its breaker,
    // so clients sending bad calls cannot open it for everyone.
    return this.fail(new UpstreamFailure(502, 'upstream-error', message), !String(headers['content-type'] ?? '').includes('json'));
  }
}

const NO_HEADERS: IncomingHttpHeaders = Object.freeze({}) as IncomingHttpHeaders;

function attemptTimedOut(attempt: Attempt): void {
  attempt.timeOut();
}

function timeoutFailure(): UpstreamFailure {
  return new UpstreamFailure(504, 'timeout', 'upstream did not answer in time');
}

/** Response headers tongate reads or passes on, by the length of their name (the raw list's names are only decoded when the length matches). */
const READ_HEADERS: Array<string[] | undefined> = [];
for (const name of [...PASSED_HEADERS, 'retry-after']) (READ_HEADERS[name.length] ??= []).push(name);

/**
 * The headers of `PASSED_HEADERS` and `retry-after` from undici's raw list (name, value, name, value, ...), lower-case
 * names, a repeated header as an array of its values (as node and undici's parseHeaders give it), the others left out.
 */
function readHeaders(raw: Buffer[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const candidates = READ_HEADERS[raw[i].length];
    if (candidates === undefined) continue;
    const name = raw[i].toString('latin1').toLowerCase();
    if (!candidates.includes(name)) continue;
    const value = raw[i + 1].toString('latin1');
    const seen = headers[name];
    headers[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return headers;
}

/** The upstream failed (as opposed to answering): 500, 502, 503, 504, or any 5xx without a JSON body. 501 and 533 with JSON are toncenter's answers. */
function isFailureStatus(status: number, headers: IncomingHttpHeaders): boolean {
  if (status < 500) return false;
  if (status === 500 || status === 502 || status === 503 || status === 504) return true;
  return !String(headers['content-type'] ?? '').includes('json');
}

/**
 * Whether a 2xx body is the API's JSON rather than a load balancer's page: a plain body by its first bytes;
 * an encoded one by its Content-Type (decoding the start of every compressed answer would cost ~20-40 µs
 * of the front's CPU per request, measured, for pages that say text/html anyway).
 */
function looksLikeJson(first: Buffer, coding: ReturnType<typeof contentCoding>, headers: IncomingHttpHeaders): boolean {
  if (coding !== '') return String(headers['content-type'] ?? '').includes('json');
  for (const byte of first) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b /* { */ || byte === 0x5b; /* [ */
  }
  return false;
}

function notJson(status: number): UpstreamFailure {
  return new UpstreamFailure(502, 'invalid', `upstream answered ${status} with a body that is not JSON`);
}

function tooLarge(max: number): UpstreamFailure {
  return new UpstreamFailure(502, 'too-large', `upstream response is larger than ${max} bytes (--upstream-max-response)`);
}

export function retryAfterOf(headers: IncomingHttpHeaders): number {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 1 ? Math.min(Math.ceil(value), 3600) : 1;
}

function passedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') passed[name] = value;
  }
  // An encoded answer was chosen by the client's Accept-Encoding: a shared cache must not give it to others.
  if (passed['content-encoding'] !== undefined && !/accept-encoding|\*/i.test(passed.vary ?? ''))
    passed.vary = passed.vary ? `${passed.vary}, Accept-Encoding` : 'Accept-Encoding';
  return passed;
}

/** `/api/v3` with its last segment replaced by `sibling` (`/api/emulate`); a base without a path gets `/<sibling>`. */
export function siblingPath(basePath: string, sibling: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return `${trimmed.slice(0, Math.max(0, trimmed.lastIndexOf('/')))}/${sibling}`;
}
