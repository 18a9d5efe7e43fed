/**
 * The upstream networks' front door: a request that an upstream network forwards is taken from the listening socket
 * before fastify's router, and answered by the same hooks fastify would run on it, called directly: CORS, the access
 * hook (key, limits, RateLimit headers, 401/403/429), the upstream hook (route policy, body, forwarding, the error
 * shapes), then the same answer counters (the route class's duration cell, /metrics' request counts, /admin/usage).
 * What it saves is fastify's part of the way: the route table's walk (~300 routes, case-insensitive), its request
 * and reply objects, its hook runners, its send pipeline and response listeners. No rule is written here.
 *
 * It takes a request only when it can tell it is one the upstream hook forwards, exactly as fastify would route it:
 *   - GET or POST, to a route fastify has under /api/v2/ or /api/v3/ with no parameter (the declared URL, or its
 *     spelling in another case or with a trailing slash, as the router matches it; a %-escape, an absolute-form
 *     target or a path no static route has goes to fastify), paths.ts's rule (the upstream hook's own) saying it is
 *     forwarded (not health, not the emulate API, a version the network has an upstream for);
 *   - on a socket whose (scheme, Host) finds a network of kind upstream, with the network router's own finder;
 *   - while the logger is above debug (the per-response debug line is fastify's hook), and not once the gateway
 *     is closing (fastify answers those); the gateway does not install it behind trusted proxies (trustProxy).
 * Everything else (OPTIONS preflights, HEAD, admin, docs, health, streaming, unknown paths, local networks) goes to
 * fastify unchanged. `test/upstream/front-door.test.ts` sends the same requests both ways and compares the answers.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  onResponseHookHandler,
  RouteOptions,
} from 'fastify';
import type { ResponseCounter } from '../http/access-hook.js';
import { errorHandler } from '../http/errors.js';
import type { NetworkContext } from '../http/network-context.js';
import type { NetworkFinder } from '../http/network-router.js';
import { PlainReply, PlainRequest } from '../http/plain-exchange.js';
import { parseQuery } from '../http/query.js';
import { routeClass, type RequestDurations } from '../http/request-durations.js';
import { listenerOf } from '../http/sockets.js';
import type { UpstreamNetwork } from './network.js';
import { pathRule } from './paths.js';

/** A route fastify has that the front door may answer: its declared URL and its class's duration hook. */
interface ForwardRoute {
  url: string;
  timed: onResponseHookHandler;
}

/**
 * fastify's static GET and POST routes under /api/v2/ and /api/v3/, as they are added (fastify's onRoute), keyed by
 * the declared URL and by the spelling the router compares (lower case, no trailing slash: the gateway's router
 * options `caseSensitive: false`, `ignoreTrailingSlash: true`).
 */
export class ForwardRoutes {
  readonly get = new Map<string, ForwardRoute>();
  readonly post = new Map<string, ForwardRoute>();

  constructor(private readonly durations: RequestDurations) {}

  /** Collects the routes added to `app` from now on: call before the API routes are registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => this.added(route));
  }

  added(route: RouteOptions): void {
    const url = route.url;
    if (!(url.startsWith('/api/v2/') || url.startsWith('/api/v3/')) || /[:*]/.test(url)) return;
    const entry: ForwardRoute = { url, timed: this.durations.hookOf(routeClass(url)) };
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const table = method === 'GET' ? this.get : method === 'POST' ? this.post : undefined;
      if (table === undefined) continue;
      table.set(url, entry);
      table.set(routerSpelling(url), entry);
    }
  }
}

function routerSpelling(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

export interface UpstreamFrontOptions {
  routes: ForwardRoutes;
  /** Per listening socket (sockets.ts `listenerOf`), the finder of the networks planned on it (the network router's). */
  finders: NetworkFinder[];
  /** The finder of a request no socket tagged (every network served). */
  anySocket: NetworkFinder;
  /** The onRequest hooks fastify runs after the network router, in its order: CORS, the access hook, the upstream hook. */
  hooks: onRequestHookHandler[];
  /** The answer counters of the admin routes' onResponse hook (admin-routes.ts). */
  countAnswer: ResponseCounter;
  /** The app's logger (each request's is its child bound to the request id, as fastify makes them). */
  log: FastifyBaseLogger;
  /** fastify's request ids (its `genReqId`), so ids stay one sequence whoever answers. */
  nextRequestId: () => string;
}

export class UpstreamFront {
  private open = true;
  /** Requests answered here rather than by fastify (tests read it). */
  taken = 0;

  constructor(private readonly options: UpstreamFrontOptions) {}

  /** The sockets' request handler: the front door first, fastify's routing (`fallback`) for what it does not take. */
  handler(fallback: RequestListener): RequestListener {
    return (request, response) => {
      if (!this.take(request, response)) fallback(request, response);
    };
  }

  /** From now on every request goes to fastify (it answers requests that arrive while the gateway closes). */
  close(): void {
    this.open = false;
  }

  /** Answers `raw` when it is a request an upstream network forwards; false (nothing done) otherwise. */
  take(raw: IncomingMessage, response: ServerResponse): boolean {
    if (!this.open) return false;
    const { routes, finders, anySocket, log } = this.options;
    const method = raw.method;
    const table = method === 'GET' ? routes.get : method === 'POST' ? routes.post : undefined;
    if (table === undefined) return false;
    const url = raw.url!;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = table.get(path) ?? table.get(routerSpelling(path));
    if (route === undefined) return false;
    const plan = listenerOf(raw);
    const protocol = (raw.socket as TLSSocket).encrypted ? 'https' : 'http';
    const network = (plan === undefined ? anySocket : finders[plan])(protocol, raw.headers.host ?? '');
    const upstream = (network as { upstream?: UpstreamNetwork } | null)?.upstream;
    if (upstream === undefined || pathRule(upstream, route.url)?.kind !== 'forward') return false;
    const level = log.level;
    if (level === 'debug' || level === 'trace') return false;
    const query = parseQuery(q === -1 ? '' : url.slice(q + 1));
    const request = new PlainRequest(raw, network as NetworkContext, route.url, query, log, this.options.nextRequestId());
    this.taken++;
    new FrontCall(this.options, route, request, response).next(undefined);
    return true;
  }
}

/** One request through the hooks: each hook's `done` calls the next, until one answers. */
class FrontCall {
  private step = 0;
  private readonly reply: PlainReply;
  private readonly done: (error?: Error) => void;

  constructor(
    private readonly options: UpstreamFrontOptions,
    private readonly route: ForwardRoute,
    private readonly request: PlainRequest,
    response: ServerResponse,
  ) {
    this.reply = new PlainReply(response, request, this);
    this.done = (error) => this.next(error);
  }

  next(error: Error | undefined): void {
    const { request, reply } = this;
    if (reply.sent) return;
    if (error !== undefined && error !== null) return this.failed(error);
    const hook = this.options.hooks[this.step++];
    // The upstream hook, last, answers every request the front door takes (paths.ts: the rule says `forward`).
    if (hook === undefined) return this.failed(new Error('no hook answered a forwarded request'));
    try {
      hook.call(undefined as unknown as FastifyInstance, asFastify(request), asFastify(reply), this.done);
    } catch (thrown) {
      this.failed(thrown as Error);
    }
  }

  /** What fastify does with a hook's error: the gateway's error handler answers it (a 500 in the version's shape). */
  private failed(error: Error): void {
    errorHandler(error as FastifyError, asFastify(this.request), asFastify(this.reply));
  }

  /** The reply is written: the counters fastify's onResponse hooks run. */
  answered(reply: PlainReply): void {
    const request = asFastify(this.request);
    const fastifyReply = asFastify(reply);
    this.route.timed.call(undefined as unknown as FastifyInstance, request, fastifyReply, noop);
    this.options.countAnswer(request, fastifyReply);
  }
}

function noop(): void {}

/** The hooks are typed for fastify's objects; they read and call only what PlainRequest and PlainReply have. */
function asFastify(value: PlainRequest): FastifyRequest;
function asFastify(value: PlainReply): FastifyReply;
function asFastify(value: PlainRequest | PlainReply): FastifyRequest | FastifyReply {
  return value as unknown as FastifyRequest & FastifyReply;
}
