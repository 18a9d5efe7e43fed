/**
 * /metrics of upstream networks, in the access layer's prom-client registry (served by GET /metrics):
 * per upstream URL a latency histogram, answers by status (or failure kind), retries, the circuit
 * breaker's state; per network requests coalesced onto another and answered from the cache. Labels hold
 * network names and upstream URLs (which carry no credentials: the config refuses them), never a key.
 *
 * The two figures bumped on every attempt (latency, answers by status) are plain numbers in cells each target
 * keeps (`AttemptCells`), rendered when /metrics is scraped: prom-client's own Histogram and Counter hash their
 * label values on every observe/inc, even through a child from labels(), and write the bucket by a number key
 * turned into a string (~3-5 µs of the front's CPU per forwarded request, measured). So are the answers shared
 * without an upstream call (coalesced, cached): one per request that joins a flight, which prom-client's labelled
 * counter cost ~0.3 % of the front's CPU per v3 request under the bench's load (profiled).
 */
import { Counter, Gauge, type Metric, type Registry } from 'prom-client';
import type { BreakerState } from '../util/circuit-breaker.js';

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };
const LATENCY = 'tongate_upstream_request_duration_seconds';
const LATENCY_HELP = 'Time to the upstream response headers, per upstream URL';
/** Upper bounds of the latency buckets, in seconds. */
const BOUNDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The attempt figures of one upstream URL: latency buckets (not cumulative: the last is past every bound), sum, count; answers by status. */
export class AttemptCells {
  readonly buckets = new Float64Array(BOUNDS.length + 1);
  sum = 0;
  count = 0;
  /** Answers by status (a number: no string made per attempt) or failure kind (a few of each). */
  readonly answers = new Map<string | number, number>();

  constructor(readonly labels: { network: string; upstream: string }) {}

  record(status: string | number, seconds: number): void {
    let bucket = 0;
    while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]) bucket++;
    this.buckets[bucket]++;
    this.sum += seconds;
    this.count++;
    this.answers.set(status, (this.answers.get(status) ?? 0) + 1);
  }

  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
    this.answers.clear();
  }
}

/** The latency histogram as prom-client reads a metric (its `get()`), rendered from the cells on scrape. */
class AttemptHistogram {
  readonly name = LATENCY;
  readonly help = LATENCY_HELP;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly cells: AttemptCells[] = [];

  /** Zeroes the figures (prom-client's Registry.resetMetrics); the cells stay with their targets. */
  reset(): void {
    for (const cell of this.cells) cell.reset();
  }

  async get() {
    const values: Array<{
      labels: Record<string, string | number>;
      sharedLabels?: Record<string, string>;
      value: number;
      metricName: string;
    }> = [];
    for (const cell of this.cells) {
      if (cell.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i <= BOUNDS.length; i++) {
        cumulative += cell.buckets[i];
        // `le` first, then the cell's labels: as prom-client's own Histogram writes a bucket line.
        values.push({
          labels: { le: i < BOUNDS.length ? BOUNDS[i] : '+Inf' },
          sharedLabels: cell.labels,
          value: cumulative,
          metricName: `${LATENCY}_bucket`,
        });
      }
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${LATENCY}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${LATENCY}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** Requests of one network answered without an upstream call of their own, rendered on scrape. */
interface SharedTally {
  coalesced: number;
  cached: number;
}
type SharedCounter = Counter<'network' | 'how'> & { tallies: Map<string, SharedTally> };

export class UpstreamMetrics {
  private readonly latency: AttemptHistogram;
  private readonly retries: Counter<'network'>;
  private readonly breakers: Gauge<'network' | 'upstream'>;
  private readonly shared: Map<string, SharedTally>;
  private readonly checks: Counter<'network' | 'upstream'>;

  constructor(registry: Registry) {
    const existing = registry.getSingleMetric('tongate_upstream_request_duration_seconds');
    if (existing) {
      // One registry, several upstream networks: they share the metric objects (labels tell them apart).
      this.latency = existing as unknown as AttemptHistogram;
      this.retries = registry.getSingleMetric('tongate_upstream_retries_total') as Counter<'network'>;
      this.breakers = registry.getSingleMetric('tongate_upstream_breaker_state') as Gauge<'network' | 'upstream'>;
      this.shared = (registry.getSingleMetric('tongate_upstream_shared_answers_total') as SharedCounter).tallies;
      this.checks = registry.getSingleMetric('tongate_upstream_health_checks_total') as Counter<'network' | 'upstream'>;
      return;
    }
    const latency = new AttemptHistogram();
    this.latency = latency;
    registry.registerMetric(latency as unknown as Metric);
    new Counter({
      name: 'tongate_upstream_responses_total',
      help: 'Upstream attempts by HTTP status, or by failure (timeout, unreachable, reset, invalid, too-large)',
      labelNames: ['network', 'upstream', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const cell of latency.cells) for (const [status, n] of cell.answers) this.inc({ ...cell.labels, status: String(status) }, n);
      },
    });
    this.retries = new Counter({
      name: 'tongate_upstream_retries_total',
      help: 'Reads sent again after a failed attempt',
      labelNames: ['network'] as const,
      registers: [registry],
    });
    this.breakers = new Gauge({
      name: 'tongate_upstream_breaker_state',
      help: 'Circuit breaker per upstream URL: 0 closed, 1 half-open, 2 open',
      labelNames: ['network', 'upstream'] as const,
      registers: [registry],
    });
    const tallies = new Map<string, SharedTally>();
    this.shared = tallies;
    const shared = new Counter({
      name: 'tongate_upstream_shared_answers_total',
      help: 'Requests answered without an upstream call of their own: coalesced onto an identical one in flight, or from the cache',
      labelNames: ['network', 'how'] as const,
      registers: [registry],
      collect() {
        Counter.prototype.reset.call(this);
        for (const [network, tally] of tallies) {
          if (tally.coalesced > 0) this.inc({ network, how: 'coalesced' }, tally.coalesced);
          if (tally.cached > 0) this.inc({ network, how: 'cached' }, tally.cached);
        }
      },
    });
    // Zeroed with the others (prom-client's Registry.resetMetrics): the tallies, not only what was rendered from them.
    shared.reset = () => {
      for (const tally of tallies.values()) tally.coalesced = tally.cached = 0;
      Counter.prototype.reset.call(shared);
    };
    Object.assign(shared, { tallies });
    // Health checks are upstream calls no client made: counted apart, so the calls clients caused can be told.
    this.checks = new Counter({
      name: 'tongate_upstream_health_checks_total',
      help: 'Health checks sent per upstream URL (every --upstream-health-interval); also counted in tongate_upstream_responses_total',
      labelNames: ['network', 'upstream'] as const,
      registers: [registry],
    });
  }

  /** A health check sent (its answer is counted with the others in tongate_upstream_responses_total). */
  healthCheck(network: string, upstream: string): void {
    this.checks.labels(network, upstream).inc();
  }

  /** The attempt figures of one upstream URL, for its target to keep and bump. */
  attemptCells(network: string, upstream: string): AttemptCells {
    const cells = new AttemptCells({ network, upstream });
    this.latency.cells.push(cells);
    return cells;
  }

  retry(network: string): void {
    this.retries.labels(network).inc();
  }

  breaker(network: string, upstream: string, state: BreakerState): void {
    this.breakers.labels(network, upstream).set(BREAKER_VALUE[state]);
  }

  coalesced(network: string): void {
    this.tally(network).coalesced++;
  }

  cached(network: string): void {
    this.tally(network).cached++;
  }

  private tally(network: string): SharedTally {
    let tally = this.shared.get(network);
    if (tally === undefined) this.shared.set(network, (tally = { coalesced: 0, cached: 0 }));
    return tally;
  }
}
