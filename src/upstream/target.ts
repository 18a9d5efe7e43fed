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
   * One attempt, through undici's dispatch API: the response's chunks go straight into a SharedBody (no
   * stream of undici's own in between), and `deadline` (a clock.now() value) aborts it wherever it is (504).
   */
  send(request: AttemptRequest, deadline: number): Promise<UpstreamAnswer> {
    const { clock } = this.options;
    const max = this.options.maxResponseBytes;
    const started = clock.now();
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      /** undici's abort of this request, once it started (onConnect). */
      let abort: ((reason?: Error) => void) | undefined;
      let timedOut = false;
      let settled = false;
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      /** The body's content coding ('' for none; undefined for one tongate cannot decode: passed unchecked). */
      let coding: ReturnType<typeof contentCoding> = '';
      let body: SharedBody | undefined;
      /** A small body: the attempt resolves once it is complete, not at its first bytes. */
      let small = false;
      /** The body of a refusal (429, 401/403, a failing 5xx): read only for its message. */
      let refusal: Buffer[] | undefined;
      let refusalBytes = 0;

      const timer = setTimeout(
        () => {
          timedOut = true;
          const failure = new UpstreamFailure(504, 'timeout', 'upstream did not answer in time');
          // Still waiting for a connection: give up now (the request is aborted when it starts).
          if (abort === undefined) fail(failure, true);
          else abort(failure);
        },
        Math.max(1, deadline - started),
      );
      const outcome = (label: string) => this.recordAttempt(label, (clock.now() - started) / 1000);
      const fail = (failure: UpstreamFailure, countsAgainst: boolean) => {
        settled = true;
        clearTimeout(timer);
        outcome(failure.kind);
        if (countsAgainst) this.breaker.failure();
        reject(failure);
      };
      const answer = () => {
        settled = true;
        outcome(String(status));
        this.breaker.success();
        resolve({ status, headers: passedHeaders(headers), body: body! });
      };

      // undici's own handler interface (onConnect, onHeaders, onData, onComplete, onError): its newer one
      // (onRequestStart, onResponseStart, ...) is wrapped per request in an adapter that also parses every
      // response header into an object; here only the few headers read are picked from the raw list.
      const handler: Dispatcher.DispatchHandler = {
        onConnect: (abortRequest) => {
          abort = abortRequest;
          if (timedOut) abortRequest(new UpstreamFailure(504, 'timeout', 'upstream did not answer in time'));
        },
        onHeaders: (statusCode, rawHeaders) => {
          if (statusCode < 200) return true; // 1xx: the real answer follows
          status = statusCode;
          const responseHeaders = readHeaders(rawHeaders);
          headers = responseHeaders;
          coding = contentCoding(responseHeaders['content-encoding']);
          if (statusCode === 429 || statusCode === 401 || statusCode === 403 || isFailureStatus(statusCode, responseHeaders)) {
            refusal = [];
            return true;
          }
          const length = Number(responseHeaders['content-length'] ?? NaN);
          if (length > max) {
            abort!(tooLarge(max));
            return true;
          }
          small = length <= WHOLE_BODY_BYTES;
          body = new SharedBody();
          return true;
        },
        onData: (chunk) => {
          if (refusal) {
            if (refusalBytes < ERROR_BODY_BYTES) refusal.push(chunk);
            refusalBytes += chunk.length;
            return true;
          }
          if (!body) return true;
          if (body.size + chunk.length > max) {
            abort!(tooLarge(max));
            return true;
          }
          const first = body.size === 0;
          body.push(chunk);
          if (first && !settled) {
            if (status < 300 && !looksLikeJson(chunk, coding, headers)) abort!(notJson(status));
            else if (!small) answer();
          }
          return true;
        },
        onComplete: () => {
          clearTimeout(timer);
          if (refusal) {
            const raw = Buffer.concat(refusal);
            // Rewritten into the version's shape, so read as text: decoded when the upstream encoded it.
            const text =
              (coding === undefined ? undefined : decoded(raw.subarray(0, ERROR_BODY_BYTES), coding, DECODED_MAX, true)) ?? Buffer.alloc(0);
            // An upstream that echoes the key it was sent must not make tongate show it.
            const message = this.options.apiKey
              ? upstreamMessage(text, status).replaceAll(this.options.apiKey, '[REDACTED]')
              : upstreamMessage(text, status);
            if (status === 429)
              return fail(
                new UpstreamFailure(503, 'rate-limited', 'upstream rate limit reached, retry later', retryAfterOf(headers)),
                false,
              );
            if (status === 401 || status === 403) {
              // toncenter also answers 401 for a missing field of a v3 POST ("boc is required"): that is an
              // answer for the client. Only a refusal that names the key (or the network) is about tongate's key.
              if (!KEY_REFUSAL.test(message)) {
                body = SharedBody.of(raw);
                return answer();
              }
              return fail(new UpstreamFailure(502, 'refused-key', `upstream refused tongate's API key (${status}): ${message}`), false);
            }
            // A 5xx in JSON is the upstream API answering (toncenter's LITE_SERVER_... errors): worth a retry of
            // a read, but not a sign the upstream is down: only bare 5xx (a proxy's error page) trip its breaker,
            // so clients sending bad calls cannot open it for everyone.
            return fail(new UpstreamFailure(502, 'upstream-error', message), !String(headers['content-type'] ?? '').includes('json'));
          }
          if (!body) return fail(new UpstreamFailure(502, 'reset', 'upstream connection failed (no response)'), true);
          if (!settled && status < 300 && body.size === 0) return fail(notJson(status), true);
          body.end();
          if (!settled) answer();
        },
        onError: (error) => {
          clearTimeout(timer);
          const failure = transportFailure(error, timedOut);
          if (settled) {
            body?.fail(failure);
            return;
          }
          fail(failure, failure.kind !== 'too-large');
        },
      };
      const encodingHeaders = this.headersFor(request.acceptEncoding ?? IDENTITY);
      // (Built per request only when there is something to add: most requests send the shared object.)
      const requestHeaders =
        request.contentType || request.semanticHeaders
          ? { ...request.semanticHeaders, ...encodingHeaders, ...(request.contentType ? { 'content-type': request.contentType } : {}) }
          : encodingHeaders;
      this.pool.dispatch(
        {
          path: (request.sibling === undefined ? this.basePath : siblingPath(this.basePath, request.sibling)) + request.rest,
          method: request.method as Dispatcher.HttpMethod,
          headers: requestHeaders,
          body: request.body,
        },
        handler,
      );
    });
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
  private recordAttempt(status: string, seconds: number): void {
    this.attempts.record(status, seconds);
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
