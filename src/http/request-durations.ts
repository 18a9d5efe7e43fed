/**
 * `tongate_http_request_duration_seconds`: how long tongate took to answer, by network, route class and status,
 * for every answer it gives (its own, the access layer's refusals, and those of upstream networks, whose calls
 * upstream are timed apart in `tongate_upstream_request_duration_seconds`).
 *
 * The request path pays one `observe` on a pre-bound child: each route gets its own onResponse hook, made when
 * the route is added (fastify's onRoute), that knows its class; the child is found by the network object and the
 * status in small tables filled on first use. Nothing is allocated per request (reading the route's URL per
 * request would build fastify's routeOptions object each time). Requests no route matched are timed by one
 * global hook that only reads `request.is404`.
 */
import { Histogram, type Registry } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler, RouteOptions } from 'fastify';

export type RouteClass = 'v2' | 'v3' | 'devnet' | 'admin' | 'metrics' | 'docs' | 'health' | 'landing' | 'other' | 'unmatched';

const METRIC = 'tongate_http_request_duration_seconds';
const HEALTH = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);
const DOCS = /^\/(api\/v[23]|devnet)\/(openapi\.json|docs\/:asset)?$/;

/** The class of a route, by its URL as registered. */
export function routeClass(url: string): RouteClass {
  if (url === '/') return 'landing';
  if (HEALTH.has(url)) return 'health';
  if (DOCS.test(url)) return 'docs';
  if (url === '/metrics') return 'metrics';
  if (url === '/admin' || url.startsWith('/admin/')) return 'admin';
  if (url.startsWith('/api/v2/')) return 'v2';
  if (url.startsWith('/api/v3/')) return 'v3';
  if (url.startsWith('/devnet/')) return 'devnet';
  return 'other';
}

interface Observer {
  observe(value: number): void;
}

/** A request's network as the router set it (null when no network is served at its Host). */
type NetworkKey = { name: string } | null;

export class RequestDurations {
  private readonly histogram: Histogram<'network' | 'class' | 'status'>;

  constructor(registry: Registry) {
    this.histogram =
      (registry.getSingleMetric(METRIC) as Histogram<'network' | 'class' | 'status'> | undefined) ??
      new Histogram({
        name: METRIC,
        help: "Time tongate took to answer a request (first byte of the request to the last of the answer), by network, route class and status",
        labelNames: ['network', 'class', 'status'] as const,
        buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      });
  }

  /** An onResponse hook for the requests of one route class. */
  hook(routeClass: RouteClass): onResponseHookHandler {
    // Per network: the children by status (a sparse table indexed by the status code).
    const byNetwork = new Map<NetworkKey, Observer[]>();
    const histogram = this.histogram;
    const child = (network: NetworkKey, status: number): Observer => {
      let byStatus = byNetwork.get(network);
      if (byStatus === undefined) {
        byStatus = [];
        byNetwork.set(network, byStatus);
      }
      return (byStatus[status] ??= histogram.labels(network?.name ?? 'none', routeClass, String(status)));
    };
    return function observeDuration(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      child(request.network as NetworkKey, reply.statusCode).observe(reply.elapsedTime / 1000);
      done();
    };
  }

  /**
   * Times every route of `app` (and of the plugins registered in it afterwards) by its class, and the requests no
   * route matched as `unmatched`. Call before any route is added.
   */
  attach(app: FastifyInstance): void {
    const hooks = new Map<RouteClass, onResponseHookHandler>();
    const hookOf = (cls: RouteClass) => {
      let hook = hooks.get(cls);
      if (hook === undefined) hooks.set(cls, (hook = this.hook(cls)));
      return hook;
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      const own = route.onResponse;
      const hook = hookOf(routeClass(route.url));
      route.onResponse = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
    });
    const unmatched = this.hook('unmatched');
    app.addHook('onResponse', function observeUnmatched(request, reply, done) {
      if (request.is404) unmatched.call(this, request, reply, done);
      else done();
    });
  }
}
