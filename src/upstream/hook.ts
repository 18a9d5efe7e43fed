/**
 * The fastify onRequest hook that serves networks of kind `upstream`. It runs after the network router
 * and the access layer (src/gateway/gateway.ts adds it last), so a request reaches it only once its key and limits
 * passed. For an upstream network it answers everything under /api/v2/, /api/v3/ (and /api/emulate/, beside v3) that the access
 * layer counts (isLimitedPath) by forwarding it; /healthcheck with the upstreams' health; the docs,
 * /metrics and /admin stay tongate's own. Local networks pass through untouched.
 *
 * The request body is read here, raw (never parsed by fastify), up to --body-limit and within the local
 * parser's bounds on nesting and values, and forwarded byte for byte; JSON bodies are parsed on the side only
 * to tell reads from writes. Of the client's headers only an explicit few travel (semantic-headers.ts:
 * toncenter's X-No-Metadata and the like); its key (X-API-Key, api_key) never does: the upstream gets
 * tongate's own key.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { errorBody } from '../http/errors.js';
import { jsonShapeProblem } from '../http/json-body.js';
import { routedPath, type ApiVersion } from '../http/request-target.js';
import { acceptedCodings } from './encoding.js';
import { UpstreamFailure } from './failure.js';
import { semanticHeaders } from './semantic-headers.js';
import type { ForwardRequest, ForwardWaiter } from './forwarder.js';
import type { UpstreamNetwork } from './network.js';
import { EMULATE_PREFIX, pathRule } from './paths.js';
import { v2Policy, v3Policy, type Params, type RoutePolicy } from './route-policy.js';
import type { UpstreamAnswer } from './target.js';

export interface UpstreamHookOptions {
  bodyLimitBytes: number;
}

export function upstreamHook({ bodyLimitBytes }: UpstreamHookOptions): onRequestHookHandler {
  return function serveUpstream(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const upstream = (request.network as { upstream?: UpstreamNetwork } | null)?.upstream;
    if (upstream === undefined || reply.sent) {
      done();
      return;
    }
    // The path the router serves (as the access layer judges it), so no spelling of the target can reach
    // the upstream without the access decision that path gets. What is done with it: paths.ts, one rule.
    const path = routedPath(request);
    const rule = pathRule(upstream, path);
    if (rule === undefined) {
      done();
      return;
    }
    switch (rule.kind) {
      case 'forward':
        return forward(upstream, rule.version, path, request, reply, bodyLimitBytes);
      case 'health': {
        const report = upstream.health();
        reply.code(report.status).send(report.body);
        return;
      }
      case 'no-faucet':
        fail(reply, undefined, 404, `${upstream.name} is an upstream network: it has no faucet`);
        return;
      case 'emulate':
        // toncenter's emulate API lives beside its v3 (`/api/emulate` next to `/api/v3`): forwarded there, as a read.
        if (!upstream.forwarder.serves('v3')) {
          fail(reply, 'v3', 404, `the Emulate API is forwarded beside the v3 upstream; ${upstream.name} has no v3 upstream`);
          return;
        }
        return forward(upstream, 'v3', path, request, reply, bodyLimitBytes, 'emulate');
      case 'unserved':
        fail(reply, rule.version, 404, `${rule.version} is not served on ${upstream.name} (it has no ${rule.version} upstream)`);
        return;
    }
  };
}

/**
 * Forwards one request: its body read first when it has one (then a promise), else at once; the answer or the
 * failure written by the Exchange when the forwarder settles it (callbacks, no promise per request).
 */
function forward(
  upstream: UpstreamNetwork,
  version: ApiVersion,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  bodyLimit: number,
  sibling?: string,
): void {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') {
    send(upstream, version, path, request, reply, undefined, sibling);
    return;
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > bodyLimit) return void fail(reply, version, 413, 'request body is too large');
  readBody(request, bodyLimit).then(
    (body) => {
      if (body === undefined) return void fail(reply, version, 413, 'request body is too large');
      // The same bounds as the local JSON parser (docs/api.md "Limits"), on the raw bytes, before the body is
      // parsed on the side below or costs the upstream anything.
      const problem = jsonShapeProblem(body);
      if (problem !== undefined) return void fail(reply, version, 400, problem);
      send(upstream, version, path, request, reply, body, sibling);
    },
    (error: unknown) => internalError(request, reply, version, error),
  );
}

function send(
  upstream: UpstreamNetwork,
  version: ApiVersion,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer | undefined,
  sibling: string | undefined,
): void {
  try {
    const exchange = new Exchange(upstream, version, path, request, reply, body, sibling);
    upstream.forwarder.forward(exchange, exchange);
  } catch (error) {
    internalError(request, reply, version, error);
  }
}

/** What went wrong in tongate itself (never the upstream's failure): logged, and a 500 if nothing was sent yet. */
function internalError(request: FastifyRequest, reply: FastifyReply, version: ApiVersion, error: unknown): void {
  request.log.error({ err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'forwarding failed');
  if (!reply.sent) fail(reply, version, 500, 'internal error');
}

/**
 * One forwarded request: what the forwarder sends (ForwardRequest) and who waits for its answer (ForwardWaiter),
 * in one object per request.
 */
class Exchange implements ForwardRequest, ForwardWaiter {
  readonly method: string;
  readonly rest: string;
  readonly contentType: string | undefined;
  readonly acceptEncoding: string;
  readonly semanticHeaders: Record<string, string> | undefined;
  readonly policy: RoutePolicy;

  constructor(
    private readonly upstream: UpstreamNetwork,
    readonly version: ApiVersion,
    path: string,
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    readonly body: Buffer | undefined,
    readonly sibling: string | undefined,
  ) {
    // A HEAD is sent upstream as the GET it asks about, and answered as that GET (its status and headers; Node's
    // server writes no body for a HEAD), as fastify answers a HEAD on a local network's GET route. Not sent as a
    // HEAD: toncenter's v2 (FastAPI) routes no HEAD (405), and an answer without a body fails the JSON check.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const headers = request.headers;
    this.method = method;
    this.rest = restOf(request.url, path, sibling === undefined ? 7 : EMULATE_PREFIX.length - 1);
    this.contentType = body !== undefined && body.length > 0 ? headers['content-type'] : undefined;
    this.acceptEncoding = acceptedCodings(headers['accept-encoding']);
    this.semanticHeaders = semanticHeaders(version, headers);
    // An emulation changes nothing on the chain: a read (sent again on failure, never kept).
    this.policy = sibling === undefined ? policyOf(version, method, path.slice(7), request.query as Params, body) : EMULATION;
  }

  settle(failure: Error | undefined, answer: UpstreamAnswer | undefined): void {
    try {
      if (answer !== undefined) this.answer(answer);
      else if (failure instanceof UpstreamFailure) this.failed(failure);
      else internalError(this.request, this.reply, this.version, failure);
    } catch (error) {
      internalError(this.request, this.reply, this.version, error);
    }
  }

  private failed(failure: UpstreamFailure): void {
    const { reply } = this;
    // Per request at debug: during an outage every request fails; the health checks log the change once (warn).
    this.request.log.debug({ network: this.upstream.name, failure: failure.kind, message: failure.message }, 'upstream failure');
    if (failure.retryAfter !== undefined) reply.header('retry-after', String(failure.retryAfter));
    fail(reply, this.version, failure.status, failure.message);
  }

  private answer(answer: UpstreamAnswer): void {
    const { reply } = this;
    reply.code(answer.status);
    const headers = answer.headers;
    for (const name in headers) if (name !== 'content-length') reply.header(name, headers[name]);
    const shared = answer.body;
    // Small bodies (up to WHOLE_BODY_BYTES) and cached ones are complete by now (target.ts): sent whole.
    const whole = shared.completeBuffer;
    if (whole !== undefined) {
      reply.send(whole);
      return;
    }
    if (headers['content-length'] !== undefined) reply.header('content-length', headers['content-length']);
    // Past this point the status is sent: a failure of the upstream mid-body cuts the client's connection.
    reply.send(shared.reader());
  }
}

const EMULATION: RoutePolicy = Object.freeze({ read: true });
const WRITE: RoutePolicy = Object.freeze({ read: false });

function fail(reply: FastifyReply, version: ApiVersion | undefined, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(version, status, message));
}

/** The body as sent, or undefined when it passes `limit` bytes. */
function readBody(request: FastifyRequest, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const raw = request.raw;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        raw.removeAllListeners('data');
        raw.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    raw.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    raw.once('error', reject);
  });
}

/**
 * The path after /api/vN (after /api/emulate for the emulate API: `prefix` characters) and the query without api_key. The path is sent as the client wrote it when that is
 * the routed path (the usual case); any other spelling (absolute-form, %-escapes) is sent as the routed path.
 */
function restOf(url: string, routed: string, prefix = 7): string {
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const path = rawPath === routed ? rawPath.slice(prefix) : encodeURI(routed.slice(prefix));
  if (q === -1) return path;
  const query = withoutApiKey(url.slice(q + 1));
  return query === '' ? path : `${path}?${query}`;
}

export function withoutApiKey(query: string): string {
  if (!/api|%/i.test(query)) return query;
  return query
    .split('&')
    .filter((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      try {
        return decodeURIComponent(name.replace(/\+/g, ' ')) !== 'api_key';
      } catch {
        return true;
      }
    })
    .join('&');
}

function policyOf(version: ApiVersion, httpMethod: string, subpath: string, query: Params, body: Buffer | undefined): RoutePolicy {
  if (version === 'v3') return v3Policy(httpMethod, subpath, query ?? {});
  const parsed = body && body.length > 0 ? parseObject(body) : {};
  if (parsed === undefined) return WRITE;
  if (subpath === '/jsonRPC') {
    const params = parsed.params;
    return typeof parsed.method === 'string'
      ? v2Policy(parsed.method, params !== null && typeof params === 'object' ? (params as Params) : {})
      : WRITE;
  }
  return v2Policy(subpath.slice(1), body && body.length > 0 ? { ...query, ...parsed } : (query ?? {}));
}

function parseObject(body: Buffer): Params | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : undefined;
  } catch {
    return undefined;
  }
}
