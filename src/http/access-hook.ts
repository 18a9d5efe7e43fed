/**
 * The access layer as a fastify onRequest hook. Stable API (the HTTP server wires it):
 *
 *   registerAccessHook(app, access)   // after the hook that sets request.network: declares the request fields it
 *                                     // sets (one request shape throughout), adds accessHook(access) and returns it
 *   accessHook(access: AccessLayer): onRequestHookHandler   // the hook alone (works without the declarations)
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
 *   - sets `request.apiKeyId` (the key's public id, never the key) for logs: see accessLogSerializers;
 *     `request.accessJudged`, so the usage counter (usage-counter.ts) counts what was judged without judging it again;
 *     and on an admission `request.accessAt`, the decision's instant, so the usage counter reads no clock of its own.
 * With the embedded stores the hook completes synchronously (no promise on the hot path).
 *
 * requestCounter(access) counts answered API requests for /metrics (admin-routes.ts runs it from its one onResponse hook).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { AccessDecision, AccessLayer, AccessMetrics, CountCell } from '../access/index.js';
import { redactApiKey } from '../access/redact.js';
import { apiVersion, routedPath, routeUrl, targetPath, type ApiVersion } from './request-target.js';
import { docsPaths } from './docs.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Public id of the API key the request presented, once the access layer accepted or limited it. */
    apiKeyId?: string;
    /** Set once the access layer decided on this request (a limited path of a served network): the usage counter reads it. */
    accessJudged?: boolean;
    /** When the access layer admitted this request (ms, its clock): the usage counter counts it in that minute. */
    accessAt?: number;
  }
}

/**
 * Declares the fields the access hook sets on requests, so every request object is built with them (one shape,
 * instead of a shape change in the middle of the request that makes the code reading requests see two), and adds
 * the hook. Call where the hook goes, after the hook that sets `request.network`. The hook is returned: the upstream
 * front door (src/upstream/front.ts) runs the same one on the requests it answers before fastify.
 */
export function registerAccessHook(app: FastifyInstance, access: AccessLayer): onRequestHookHandler {
  app.decorateRequest('apiKeyId', undefined);
  app.decorateRequest('accessJudged', false);
  app.decorateRequest('accessAt', undefined);
  const hook = accessHook(access);
  app.addHook('onRequest', hook);
  return hook;
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
  // The last routed path and whether it is limited: a matched route's path is the same string on each of its requests,
  // so a run of one route's requests skips the prefix tests and the Set read (a string of another path just misses).
  let lastPath = '';
  let lastLimited = false;
  return function accessCheck(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const network = (request as { network?: { name?: unknown } | null }).network;
    if (!access.enabled || reply.sent || !network || typeof network.name !== 'string') {
      done();
      return;
    }
    const path = routedPath(request);
    if (path !== lastPath) {
      lastLimited = isLimitedPath(path);
      lastPath = path;
    }
    if (!lastLimited) {
      done();
      return;
    }
    request.accessJudged = true;
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
    request.accessAt = decision.at;
    if (decision.rateLimit !== undefined) {
      // An Admission: the two values set by name, no headers object built or walked.
      reply.header('ratelimit-policy', decision.rateLimitPolicy!);
      reply.header('ratelimit', decision.rateLimit);
    } else {
      const h = decision.headers;
      for (const name in h) reply.header(name, h[name]);
    }
    done();
    return;
  }
  // Answering from the hook: fastify skips the route; `done` must not be called as well.
  reply.code(decision.status).headers(decision.headers).send(decision.body);
}

/** What an onResponse hook runs for an answered request (admin-routes.ts runs every counter from one hook). */
export type ResponseCounter = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Counts answered requests under /api/v2 and /api/v3 by network, version, method and status. Per route (its URL as
 * registered, the same string object on every request), the version and method label are worked out once, and per
 * network and status the count is a cell kept here: counting is two Map reads and an increment.
 */
export function requestCounter(access: AccessLayer): ResponseCounter {
  const routes = new Map<string, RouteCounts | null>();
  return function countRequest(request: FastifyRequest, reply: FastifyReply): void {
    const network = (request as { network?: { name?: unknown } | null }).network;
    if (!network || typeof network.name !== 'string') return;
    const route = routeUrl(request);
    let counts = route === undefined ? undefined : routes.get(route);
    if (counts === undefined && route !== undefined) routes.set(route, (counts = routeCounts(access.metrics, route)));
    if (counts === undefined) {
      // No route matched: the target's own path says the version; the method is 'unknown' (made-up paths cannot grow the label set).
      const version = apiVersion(targetPath(request.url));
      if (version !== undefined) access.metrics.request(network.name, version, 'unknown', reply.statusCode);
    } else if (counts !== null) {
      counts.count(network.name, request, reply.statusCode);
    }
  };
}

/** The counts of one route: the method label is the route's own last segment (getAddressInformation, jsonRPC, masterchainInfo). */
class RouteCounts {
  /** Per network name, the cells by status (a sparse array indexed by the status code). */
  private readonly cells = new Map<string, CountCell[]>();

  constructor(
    private readonly metrics: AccessMetrics,
    private readonly version: ApiVersion,
    /** undefined: a route with parameters, labelled by the requested path's segment. */
    private readonly label: string | undefined,
  ) {}

  count(network: string, request: FastifyRequest, status: number): void {
    if (this.label === undefined) {
      this.metrics.request(network, this.version, status === 404 ? 'unknown' : segment(targetPath(request.url)), status);
      return;
    }
    let byStatus = this.cells.get(network);
    if (byStatus === undefined) this.cells.set(network, (byStatus = []));
    (byStatus[status] ??= this.metrics.requestCell(network, this.version, this.label, status)).n++;
  }
}

/** null: a route outside /api/v2 and /api/v3, not counted. */
function routeCounts(metrics: AccessMetrics, route: string): RouteCounts | null {
  const version = apiVersion(route);
  if (version === undefined) return null;
  return new RouteCounts(metrics, version, /[:*]/.test(route) ? undefined : segment(route));
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
