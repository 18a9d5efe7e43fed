/**
 * /metrics of upstream networks, in the access layer's prom-client registry (served by GET /metrics):
 * per upstream URL a latency histogram, answers by status (or failure kind), retries, the circuit
 * breaker's state; per network requests coalesced onto another and answered from the cache. Labels hold
 * network names and upstream URLs (which carry no credentials: the config refuses them), never a key.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BreakerState } from '../util/circuit-breaker.js';

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export class UpstreamMetrics {
  private readonly latency: Histogram<'network' | 'upstream'>;
  private readonly answers: Counter<'network' | 'upstream' | 'status'>;
  private readonly retries: Counter<'network'>;
  private readonly breakers: Gauge<'network' | 'upstream'>;
  private readonly shared: Counter<'network' | 'how'>;
  private readonly checks: Counter<'network' | 'upstream'>;

  constructor(registry: Registry) {
    const existing = registry.getSingleMetric('tongate_upstream_request_duration_seconds');
    if (existing) {
      // One registry, several upstream networks: they share the metric objects (labels tell them apart).
      this.latency = existing as Histogram<'network' | 'upstream'>;
      this.answers = registry.getSingleMetric('tongate_upstream_responses_total') as Counter<'network' | 'upstream' | 'status'>;
      this.retries = registry.getSingleMetric('tongate_upstream_retries_total') as Counter<'network'>;
      this.breakers = registry.getSingleMetric('tongate_upstream_breaker_state') as Gauge<'network' | 'upstream'>;
      this.shared = registry.getSingleMetric('tongate_upstream_shared_answers_total') as Counter<'network' | 'how'>;
      this.checks = registry.getSingleMetric('tongate_upstream_health_checks_total') as Counter<'network' | 'upstream'>;
      return;
    }
    this.latency = new Histogram({
      name: 'tongate_upstream_request_duration_seconds',
      help: 'Time to the upstream response headers, per upstream URL',
      labelNames: ['network', 'upstream'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.answers = new Counter({
      name: 'tongate_upstream_responses_total',
      help: 'Upstream attempts by HTTP status, or by failure (timeout, unreachable, reset, invalid, too-large)',
      labelNames: ['network', 'upstream', 'status'] as const,
      registers: [registry],
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
    this.shared = new Counter({
      name: 'tongate_upstream_shared_answers_total',
      help: 'Requests answered without an upstream call of their own: coalesced onto an identical one in flight, or from the cache',
      labelNames: ['network', 'how'] as const,
      registers: [registry],
    });
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

  /** The labelled children of one upstream URL and status, for the caller to keep. */
  attemptChildren(network: string, upstream: string, status: string): { latency: { observe(v: number): void }; count: { inc(): void } } {
    return { latency: this.latency.labels(network, upstream), count: this.answers.labels(network, upstream, status) };
  }

  retry(network: string): void {
    this.retries.labels(network).inc();
  }

  breaker(network: string, upstream: string, state: BreakerState): void {
    this.breakers.labels(network, upstream).set(BREAKER_VALUE[state]);
  }

  coalesced(network: string): void {
    this.shared.labels(network, 'coalesced').inc();
  }

  cached(network: string): void {
    this.shared.labels(network, 'cached').inc();
  }
}
