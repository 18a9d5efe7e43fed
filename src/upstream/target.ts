/**
 * One upstream URL (e.g. https://toncenter.com/api/v2): a pool of keep-alive connections to it (undici),
 * its circuit breaker, what its last health check found, and one attempt of a request against it.
 *
 * An attempt resolves once the response headers and the first body bytes are in, with the body still
 * arriving into a SharedBody; the response's own status decides: 2xx/3xx/4xx are the upstream's answer
 * (passed on as they are), its 429 a 503, its 5xx a 502 with its message, a refusal of tongate's own key
 * (401/403) a 502. Everything the upstream is sent and everything kept about it leaves the key out.
 */
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { CircuitBreaker, type BreakerState } from '../access/circuit-breaker.js';
import type { Clock } from '../util/clock.js';
import { VERSION } from '../version.js';
import { UpstreamFailure, transportFailure, upstreamMessage } from './failure.js';
import type { UpstreamMetrics } from './metrics.js';
import { SharedBody } from './shared-body.js';

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
  /** clock.now() past which the attempt is abandoned (504). */
  deadline: number;
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
  version: 'v2' | 'v3';
  apiKey?: string;
  connections: number;
  maxResponseBytes: number;
  clock: Clock;
  metrics: UpstreamMetrics;
}

/** Response headers passed on to the client; the upstream's own rate-limit, cookie and hop-by-hop headers are not. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-encoding', 'cache-control'];
/** Error bodies are read only this far (their message is all that is kept). */
const ERROR_BODY_BYTES = 64 * 1024;

export class UpstreamTarget {
  /** The URL without credentials (the config refuses them): safe for logs, metrics and /healthcheck. */
  readonly label: string;
  readonly breaker: CircuitBreaker;
  health: TargetHealth = { state: 'unknown' };
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly headers: Record<string, string>;

  constructor(
    url: URL,
    private readonly options: TargetOptions,
  ) {
    this.label = url.origin + url.pathname;
    this.basePath = url.pathname;
    this.pool = new Pool(url.origin, { connections: options.connections, pipelining: 1, connect: { timeout: 5000 }, keepAliveTimeout: 10_000 });
    this.headers = { accept: 'application/json', 'user-agent': `tongate/${VERSION}` };
    if (options.apiKey) this.headers['x-api-key'] = options.apiKey;
    this.breaker = new CircuitBreaker({
      clock: options.clock,
      window: 10,
      minFailures: 3,
      failureRatio: 0.5,
      openMs: 2000,
      onStateChange: (state) => options.metrics.breaker(options.network, this.label, state),
    });
    options.metrics.breaker(options.network, this.label, 'closed');
  }

  get breakerState(): BreakerState {
    return this.breaker.state;
  }

  async send(request: AttemptRequest): Promise<UpstreamAnswer> {
    const { clock, metrics, network } = this.options;
    const started = clock.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, Math.max(1, request.deadline - started));
    const outcome = (status: string) => metrics.attempt(network, this.label, (clock.now() - started) / 1000, status);

    let response: Awaited<ReturnType<Pool['request']>>;
    try {
      const headers = request.contentType ? { ...this.headers, 'content-type': request.contentType } : this.headers;
      response = await this.pool.request({ path: this.basePath + request.rest, method: request.method as 'GET', headers, body: request.body, signal: controller.signal });
    } catch (error) {
      clearTimeout(timer);
      const failure = transportFailure(error, timedOut);
      outcome(failure.kind);
      this.breaker.failure();
      throw failure;
    }

    const status = response.statusCode;
    const refusal = status === 429 || status === 401 || status === 403 || isFailureStatus(status, response.headers);
    if (refusal) {
      const text = await readCapped(response.body, ERROR_BODY_BYTES).catch(() => Buffer.alloc(0));
      clearTimeout(timer);
      outcome(String(status));
      // An upstream that echoes the key it was sent must not make tongate show it.
      const message = this.options.apiKey ? upstreamMessage(text, status).replaceAll(this.options.apiKey, '[REDACTED]') : upstreamMessage(text, status);
      if (status === 429) throw new UpstreamFailure(503, 'rate-limited', 'upstream rate limit reached, retry later', retryAfterOf(response.headers));
      if (status === 401 || status === 403) throw new UpstreamFailure(502, 'refused-key', `upstream refused tongate's API key (${status}): ${message}`);
      this.breaker.failure();
      throw new UpstreamFailure(502, 'upstream-error', message);
    }

    const length = Number(response.headers['content-length'] ?? NaN);
    if (length > this.options.maxResponseBytes) {
      clearTimeout(timer);
      response.body.destroy();
      outcome('too-large');
      throw tooLarge(this.options.maxResponseBytes);
    }

    const body = new SharedBody();
    const max = this.options.maxResponseBytes;
    response.body.on('data', (chunk: Buffer) => {
      if (body.size + chunk.length > max) {
        response.body.destroy();
        body.fail(tooLarge(max));
        return;
      }
      body.push(chunk);
    });
    response.body.once('end', () => {
      clearTimeout(timer);
      body.end();
    });
    response.body.once('error', (error) => {
      clearTimeout(timer);
      body.fail(transportFailure(error, timedOut));
    });
    response.body.once('close', () => clearTimeout(timer));

    const first = await body.started();
    if (body.error) {
      outcome((body.error as UpstreamFailure).kind ?? 'reset');
      if ((body.error as UpstreamFailure).kind !== 'too-large') this.breaker.failure();
      throw body.error;
    }
    if (status >= 200 && status < 300 && !startsLikeJson(first)) {
      response.body.destroy();
      outcome('invalid');
      this.breaker.failure();
      throw new UpstreamFailure(502, 'invalid', `upstream answered ${status} with a body that is not JSON`);
    }
    outcome(String(status));
    this.breaker.success();
    return { status, headers: passedHeaders(response.headers), body };
  }

  /** A health check: the newest masterchain block through the API, with a short timeout. */
  async check(timeoutMs: number): Promise<TargetHealth> {
    const { clock } = this.options;
    const started = clock.now();
    try {
      const answer = await this.send({ method: 'GET', rest: this.options.version === 'v2' ? '/getMasterchainInfo' : '/masterchainInfo', deadline: started + timeoutMs });
      const parsed = JSON.parse((await answer.body.whole()).toString('utf8')) as { result?: { last?: { seqno?: number } }; last?: { seqno?: number } };
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      const seqno = this.options.version === 'v2' ? parsed.result?.last?.seqno : parsed.last?.seqno;
      this.health = { state: 'up', lastSeqno: typeof seqno === 'number' ? seqno : undefined, latencyMs: Math.round(clock.now() - started), checkedAt: clock.now() };
    } catch (error) {
      this.health = { state: 'down', error: (error as Error).message, latencyMs: Math.round(clock.now() - started), checkedAt: clock.now() };
    }
    return this.health;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The upstream failed (as opposed to answering): 500, 502, 503, 504, or any 5xx without a JSON body. 501 and 533 with JSON are toncenter's answers. */
function isFailureStatus(status: number, headers: IncomingHttpHeaders): boolean {
  if (status < 500) return false;
  if (status === 500 || status === 502 || status === 503 || status === 504) return true;
  return !String(headers['content-type'] ?? '').includes('json');
}

function startsLikeJson(first: Buffer): boolean {
  for (const byte of first) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b /* { */ || byte === 0x5b /* [ */;
  }
  return false;
}

function tooLarge(max: number): UpstreamFailure {
  return new UpstreamFailure(502, 'too-large', `upstream response is larger than ${max} bytes (--upstream-max-response)`);
}

function retryAfterOf(headers: IncomingHttpHeaders): number {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 1 ? Math.min(Math.ceil(value), 3600) : 1;
}

function passedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') passed[name] = value;
  }
  return passed;
}

async function readCapped(body: NodeJS.ReadableStream & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, max);
}
