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
import { isLimitedPath } from '../http/access-hook.js';
import { errorBody } from '../http/errors.js';
import { jsonShapeProblem } from '../http/json-body.js';
import { apiVersion, routedPath, type ApiVersion } from '../http/request-target.js';
import { acceptedCodings } from './encoding.js';
import { UpstreamFailure } from './failure.js';
import { semanticHeaders } from './semantic-headers.js';
import type { ForwardRequest } from './forwarder.js';
import type { UpstreamNetwork } from './network.js';
import { v2Policy, v3Policy, type Params, type RoutePolicy } from './route-policy.js';
import type { UpstreamAnswer } from './target.js';

const HEALTH_PATHS = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);
/** toncenter's emulate API (src/emulate on local and lite networks). */
const EMULATE_PREFIX = '/api/emulate/';

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
    // the upstream without the access decision that path gets.
    const path = routedPath(request);
    if (HEALTH_PATHS.has(path)) {
      const report = upstream.health();
      reply.code(report.status).send(report.body);
      return;
    }
    if (path === '/devnet/fund') {
      fail(reply, undefined, 404, `${upstream.name} is an upstream network: it has no faucet`);
      return;
    }
    if (path.startsWith(EMULATE_PREFIX)) {
      // toncenter's emulate API lives beside its v3 (`/api/emulate` next to `/api/v3`): forwarded there, as a read.
      if (!upstream.forwarder.serves('v3')) {
        fail(reply, 'v3', 404, `the Emulate API is forwarded beside the v3 upstream; ${upstream.name} has no v3 upstream`);
        return;
      }
      forward(upstream, 'v3', path, request, reply, bodyLimitBytes, 'emulate').catch((error: unknown) => {
        request.log.error({ err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'forwarding failed');
        if (!reply.sent) fail(reply, 'v3', 500, 'internal error');
      });
      return;
    }
    const version = apiVersion(path);
    if (version === undefined || !isLimitedPath(path)) {
      done();
      return;
    }
    if (!upstream.forwarder.serves(version)) {
      fail(reply, version, 404, `${version} is not served on ${upstream.name} (it has no ${version} upstream)`);
      return;
    }
    forward(upstream, version, path, request, reply, bodyLimitBytes).catch((error: unknown) => {
      request.log.error({ err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'forwarding failed');
      if (!reply.sent) fail(reply, version, 500, 'internal error');
    });
  };
}

async function forward(
  upstream: UpstreamNetwork,
  version: ApiVersion,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  bodyLimit: number,
  sibling?: string,
): Promise<void> {
  const method = request.method;
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > bodyLimit) return void fail(reply, version, 413, 'request body is too large');
    body = await readBody(request, bodyLimit);
    if (body === undefined) return void fail(reply, version, 413, 'request body is too large');
    // The same bounds as the local JSON parser (docs/api.md "Limits"), on the raw bytes, before the body is
    // parsed on the side below or costs the upstream anything.
    const problem = jsonShapeProblem(body);
    if (problem !== undefined) return void fail(reply, version, 400, problem);
  }
  const prefix = sibling === undefined ? 7 : EMULATE_PREFIX.length - 1;
  const rest = restOf(request.url, path, prefix);
  const contentType = request.headers['content-type'];
  const forwardRequest: ForwardRequest = {
    version,
    method,
    rest,
    body,
    contentType: body && body.length > 0 ? contentType : undefined,
    acceptEncoding: acceptedCodings(request.headers['accept-encoding']),
    semanticHeaders: semanticHeaders(version, request.headers),
    // An emulation changes nothing on the chain: a read (sent again on failure, never kept).
    policy: sibling === undefined ? policyOf(version, method, path.slice(7), request.query as Params, body) : { read: true },
    ...(sibling === undefined ? {} : { sibling }),
  };
  let answer: UpstreamAnswer;
  try {
    answer = await upstream.forwarder.forward(forwardRequest);
  } catch (error) {
    if (!(error instanceof UpstreamFailure)) throw error;
    // Per request at debug: during an outage every request fails; the health checks log the change once (warn).
    request.log.debug({ network: upstream.name, failure: error.kind, message: error.message }, 'upstream failure');
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return void fail(reply, version, error.status, error.message);
  }
  reply.code(answer.status);
  for (const name in answer.headers) if (name !== 'content-length') reply.header(name, answer.headers[name]);
  const shared = answer.body;
  // Small bodies (up to WHOLE_BODY_BYTES) and cached ones are complete by now (target.ts): sent whole.
  const whole = shared.completeBuffer;
  if (whole !== undefined) {
    reply.send(whole);
    return;
  }
  if (answer.headers['content-length'] !== undefined) reply.header('content-length', answer.headers['content-length']);
  // Past this point the status is sent: a failure of the upstream mid-body cuts the client's connection.
  reply.send(shared.reader());
}

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
  if (parsed === undefined) return { read: false };
  if (subpath === '/jsonRPC') {
    const params = parsed.params;
    return typeof parsed.method === 'string'
      ? v2Policy(parsed.method, params !== null && typeof params === 'object' ? (params as Params) : {})
      : { read: false };
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
