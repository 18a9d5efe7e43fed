/**
 * `tongate_http_request_duration_seconds`: how long tongate took to answer, by network, route class and status,
 * for every answer it gives (its own, the access layer's refusals, and those of upstream networks, whose calls
 * upstream are timed apart in `tongate_upstream_request_duration_seconds`).
 *
 * The request path bumps three numbers of a pre-bound cell: each route gets its own onResponse hook, made when
 * the route is added (fastify's onRoute), that knows its class; the cell is found by the network object and the
 * status in small tables filled on first use; the exposition text is built only when /metrics is scraped. Nothing
 * is allocated per request (reading the route's URL per request would build fastify's routeOptions object each
 * time). Requests no route matched are timed by one global hook that only reads `request.is404`.
 */
import type { Metric } from 'prom-client';
import type { AccessMetrics } from '../access/metrics.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler, RouteOptions } from 'fastify';

export type RouteClass = 'v2' | 'v3' | 'devnet' | 'admin' | 'metrics' | 'docs' | 'health' | 'landing' | 'other' | 'unmatched';

const METRIC = 'tongate_http_request_duration_seconds';
const HELP =
  'Time tongate took to answer a request (first byte of the request to the last of the answer), by network, route class and status';
/** Upper bounds of the buckets, in seconds. */
const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HEALTH = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);
/** The docs of each API: its document and page (toncenter's paths too, docs.ts) and the page's assets. */
const DOCS = /^\/(api\/v[23]|devnet)\/(openapi\.json|doc\.json|index\.html|docs\/:asset)?$/;

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

/** The figures of one label set: counts per bucket (not cumulative: the last is past every bound), sum, count. */
interface Cell {
  labels: { network: string; class: RouteClass; status: string };
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A request's network as the router set it (null when no network is served at its Host). */
type NetworkKey = { name: string } | null;

/**
 * A Prometheus histogram whose hot path bumps plain numbers; it is rendered when /metrics is scraped. prom-client's
 * own Histogram hashes the label values on every observe, even through a child from labels() (about 3 us here).
 */
class DurationHistogram {
  readonly name = METRIC;
  readonly help = HELP;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private cells: Cell[] = [];

  cell(network: string, routeClass: RouteClass, status: number): Cell {
    const cell: Cell = {
      labels: { network, class: routeClass, status: String(status) },
      buckets: new Float64Array(BOUNDS.length + 1),
      sum: 0,
      count: 0,
    };
    this.cells.push(cell);
    return cell;
  }

  /** Zeroes the figures (prom-client's Registry.resetMetrics); the cells stay bound to their hooks. */
  reset(): void {
    for (const cell of this.cells) {
      cell.buckets.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }

  /** prom-client's Metric.get(): the exposition values (cumulative buckets with `le`, then sum and count). */
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const cell of this.cells) {
      if (cell.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i <= BOUNDS.length; i++) {
        cumulative += cell.buckets[i];
        values.push({
          labels: { ...cell.labels, le: i < BOUNDS.length ? BOUNDS[i] : '+Inf' },
          value: cumulative,
          metricName: `${METRIC}_bucket`,
        });
      }
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${METRIC}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${METRIC}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** One histogram per registry (gateways built on one access layer share it), registered once it is made. */
const histograms = new WeakMap<AccessMetrics, DurationHistogram>();
function histogramOf(metrics: AccessMetrics): DurationHistogram {
  let histogram = histograms.get(metrics);
  if (histogram === undefined) {
    const made = (histogram = new DurationHistogram());
    histograms.set(metrics, made);
    metrics.whenRegistry((registry) => registry.registerMetric(made as unknown as Metric));
  }
  return histogram;
}

export class RequestDurations {
  private readonly histogram: DurationHistogram;
  private readonly hooks = new Map<RouteClass, onResponseHookHandler>();

  constructor(metrics: AccessMetrics) {
    this.histogram = histogramOf(metrics);
  }

  /**
   * The one onResponse hook of a route class (the same for every route of the class, and for the upstream front
   * door's answers: src/upstream/front.ts), so each (network, class, status) has one cell.
   */
  hookOf(cls: RouteClass): onResponseHookHandler {
    let hook = this.hooks.get(cls);
    if (hook === undefined) this.hooks.set(cls, (hook = this.hook(cls)));
    return hook;
  }

  /** An onResponse hook for the requests of one route class (a new set of cells: see hookOf). */
  private hook(routeClass: RouteClass): onResponseHookHandler {
    // Per network: the cells by status (a sparse table indexed by the status code).
    const byNetwork = new Map<NetworkKey, Cell[]>();
    const histogram = this.histogram;
    const cellOf = (network: NetworkKey, status: number): Cell => {
      let byStatus = byNetwork.get(network);
      if (byStatus === undefined) {
        byStatus = [];
        byNetwork.set(network, byStatus);
      }
      return (byStatus[status] ??= histogram.cell(network?.name ?? 'none', routeClass, status));
    };
    return function observeDuration(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const cell = cellOf(request.network as NetworkKey, reply.statusCode);
      const seconds = reply.elapsedTime / 1000;
      let bucket = 0;
      while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]) bucket++;
      cell.buckets[bucket]++;
      cell.sum += seconds;
      cell.count++;
      done();
    };
  }

  /**
   * Times every route of `app` (and of the plugins registered in it afterwards) by its class, and the requests no
   * route matched as `unmatched`. Call before any route is added.
   */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      const own = route.onResponse;
      const hook = this.hookOf(routeClass(route.url));
      route.onResponse = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
    });
    const unmatched = this.hook('unmatched');
    app.addHook('onResponse', function observeUnmatched(request, reply, done) {
      if (request.is404) unmatched.call(this, request, reply, done);
      else done();
    });
  }
}
