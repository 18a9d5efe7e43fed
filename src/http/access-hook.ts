/**
 * The access layer as a fastify onRequest hook. Stable API (the HTTP server wires it):
 *
 *   accessHook(access: AccessLayer): onRequestHookHandler
 *     app.addHook('onRequest', accessHook(access))   // after the hook that sets request.network
 *
 * What it does, per request:
 *   - decides on the path the router actually serves (request-target.ts `routedPath`: the matched route's own
 *     URL, so absolute-form targets, %-escapes and other spellings cannot dodge it; a target no route matches
 *     is judged by its decoded path, so probing unknown methods is limited too);
 *   - acts only on limited paths (`isLimitedPath`): everything under /api/v2/, /api/v3/ and /api/emulate/ except
 *     health (/api/v2/healthcheck, /api/v3/healthcheck) and docs (/api/v{2,3}/, /api/v{2,3}/openapi.json,
 *     toncenter's own doc paths (docs.ts), /api/v{2,3}/docs/*); /healthcheck and anything outside /api are never
 *     limited either;
 *   - and only when the network router has set `request.network` (an object with `.name`);
 *   - key: header X-API-Key, else query api_key; the header wins; an empty value counts as no key;
 *   - client address: `request.ip` (fastify's trustProxy makes it the forwarded one behind trusted proxies);
 *   - allowed: adds RateLimit-Policy / RateLimit to the response and continues; refused: answers
 *     with the decision's status, headers and body (toncenter's v2 envelope on both versions);
 *   - sets `request.apiKeyId` (the key's public id, never the key) for logs: see accessLogSerializers.
 * With the embedded stores the hook completes synchronously (no promise on the hot path).
 *
 * requestMetricsHook(access): onResponseHookHandler counts answered API requests for /metrics.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import type { AccessDecision, AccessLayer } from '../access/index.js';
import { redactApiKey } from '../access/redact.js';
import { apiVersion, routedPath, targetPath } from './request-target.js';
import { docsPaths } from './docs.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Public id of the API key the request presented, once the access layer accepted or limited it. */
    apiKeyId?: string;
  }
}

const UNLIMITED = new Set([
  '/api/v2/healthcheck',
  '/api/v3/healthcheck',
  ...['/api/v2', '/api/v3'].flatMap((prefix) => Object.values(docsPaths(prefix)).flat()),
]);

/** Is this (routed or decoded) path subject to keys and limits? */
export function isLimitedPath(path: string): boolean {
  if (path.startsWith('/api/emulate/')) return true;
  if (!(path.startsWith('/api/v2/') || path.startsWith('/api/v3/'))) return false;
  if (UNLIMITED.has(path)) return false;
  // Swagger UI assets: /api/v2/docs/swagger-ui.css ...
  return !(path.startsWith('/docs/', 7) || (path.length === 12 && path.endsWith('/docs')));
}

/** The API key of a request: header X-API-Key wins over query api_key; empty values count as absent. */
export function extractApiKey(request: FastifyRequest): string | undefined {
  const header = first(request.headers['x-api-key']);
  if (header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query ? first(query.api_key) : undefined;
  return fromQuery || undefined;
}

function first(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export function accessHook(access: AccessLayer): onRequestHookHandler {
  return function accessCheck(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const network = (request as { network?: { name?: unknown } | null }).network;
    if (!access.enabled || reply.sent || !network || typeof network.name !== 'string' || !isLimitedPath(routedPath(request))) {
      done();
      return;
    }
    const key = extractApiKey(request);
    // The address only matters without a key; behind trusted proxies reading it parses X-Forwarded-For.
    const decision = access.check({ network: network.name, key, clientIp: key === undefined ? request.ip : '' });
    if (decision instanceof Promise) {
      decision.then(
        (d) => apply(d, request, reply, done),
        (error: unknown) => done(error as Error),
      );
    } else {
      apply(decision, request, reply, done);
    }
  };
}

function apply(decision: AccessDecision, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (decision.keyId !== undefined) request.apiKeyId = decision.keyId;
  if (decision.allowed) {
    const h = decision.headers;
    for (const name in h) reply.header(name, h[name]);
    done();
    return;
  }
  // Answering from the hook: fastify skips the route; `done` must not be called as well.
  reply.code(decision.status).headers(decision.headers).send(decision.body);
}

/** Counts answered requests under /api/v2 and /api/v3 by network, version, method and status. */
export function requestMetricsHook(access: AccessLayer): onResponseHookHandler {
  const labels = new Map<string, string>();
  return function countRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const version = apiVersion(routedPath(request));
    const network = (request as { network?: { name?: unknown } | null }).network;
    if (version !== undefined && network && typeof network.name === 'string') {
      access.metrics.request(network.name, version, methodLabel(labels, request, reply.statusCode), reply.statusCode);
    }
    done();
  };
}

/**
 * The method label: the route's own last segment (getAddressInformation, jsonRPC, masterchainInfo),
 * remembered per route. Paths that matched no route are 'unknown', so made-up paths cannot grow the
 * label set; routes with parameters use the requested path's segment.
 */
function methodLabel(cache: Map<string, string>, request: FastifyRequest, status: number): string {
  const route = request.routeOptions?.url;
  if (route === undefined) return 'unknown';
  let label = cache.get(route);
  if (label === undefined) {
    if (/[:*]/.test(route)) {
      if (status === 404) return 'unknown';
      return segment(targetPath(request.url));
    }
    label = segment(route);
    cache.set(route, label);
  }
  return label;
}

function segment(path: string): string {
  const s = path.split('/').filter(Boolean)[2] ?? '';
  return s === '' ? 'index' : s.slice(0, 64);
}

/**
 * Log serializers that never print a key: the URL with `api_key` cut out (any spelling the query
 * parser decodes to api_key), no headers, and the key's public id where the access layer set it.
 * Use as fastify's logger `serializers`.
 */
export const accessLogSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactApiKey(request.url), remoteAddress: request.ip, keyId: request.apiKeyId };
  },
  res(reply: FastifyReply) {
    return { statusCode: reply.statusCode, keyId: reply.request?.apiKeyId };
  },
};
