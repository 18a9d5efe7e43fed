/**
 * Prometheus metrics of the access layer (prom-client), in a registry of its own so that several
 * layers (tests) never collide. Labels never hold a key: decisions are counted by result and policy;
 * requests by network, API version, method and status.
 *
 * The hot path only bumps plain numbers (a prom-client inc() costs about 0.4 µs, several per
 * request): a cell per label set, which the request path keeps (the controller one per key and
 * policy, the request hook one per route, network and status), so counting builds no label key; the
 * counters read the cells when /metrics is scraped (prom-client's collect()).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { BreakerState } from '../util/circuit-breaker.js';
import type { PolicyName, RefusalReason } from './decision.js';

export type DecisionResult = 'allowed' | RefusalReason;

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** One label set's count: the request path keeps a reference and bumps `n` (no key built, no lookup). */
export interface CountCell {
  n: number;
}

/** Counts per label set, bumped on the hot path, exported on scrape (a label set is exported once counted). */
class Tally<L extends string> {
  private readonly counts = new Map<string, CountCell & { labels: Record<L, string> }>();
  constructor(private readonly maxLabelSets = 10_000) {}

  /** The cell of one label set, to bump directly; past the bound, a cell nobody exports. */
  cell(key: string, labels: () => Record<L, string>): CountCell {
    let entry = this.counts.get(key);
    if (entry === undefined) {
      entry = { labels: labels(), n: 0 };
      if (this.counts.size < this.maxLabelSets) this.counts.set(key, entry);
    }
    return entry;
  }

  exportTo(counter: Counter<L>): void {
    counter.reset();
    for (const { labels, n } of this.counts.values()) if (n > 0) counter.inc(labels, n);
  }
}

export class AccessMetrics {
  readonly registry = new Registry();
  private readonly requestTally = new Tally<'network' | 'version' | 'method' | 'status'>();
  private readonly decisionTally = new Tally<'result' | 'policy'>();
  private readonly cacheTally = { hit: 0, miss: 0 };

  constructor() {
    // The process's own figures operators expect beside ours: event-loop delay (`nodejs_eventloop_lag_*`,
    // percentiles since the previous scrape), resident memory, heap, GC. npm run soak reads them.
    collectDefaultMetrics({ register: this.registry });
    const requestTally = this.requestTally;
    const decisionTally = this.decisionTally;
    const cacheTally = this.cacheTally;
    new Counter({
      name: 'tongate_http_requests_total',
      help: 'API requests answered, by network, API version, method and HTTP status',
      labelNames: ['network', 'version', 'method', 'status'] as const,
      registers: [this.registry],
      collect() {
        requestTally.exportTo(this);
      },
    });
    new Counter({
      name: 'tongate_access_decisions_total',
      help: 'Access decisions by result and by the limit policy that applied (key, account, ip, none)',
      labelNames: ['result', 'policy'] as const,
      registers: [this.registry],
      collect() {
        decisionTally.exportTo(this);
      },
    });
    new Counter({
      name: 'tongate_key_cache_lookups_total',
      help: 'Key cache lookups by result (hit, miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, cacheTally.hit);
        this.inc({ result: 'miss' }, cacheTally.miss);
      },
    });
  }

  private readonly storeErrors = new Counter({
    name: 'tongate_store_errors_total',
    help: 'Errors and timeouts of the key store and of the shared limiter',
    labelNames: ['store', 'operation'] as const,
    registers: [this.registry],
  });
  private readonly fallbacks = new Counter({
    name: 'tongate_limiter_fallback_decisions_total',
    help: 'Limiter decisions taken without Redis, by failure mode (local, open, closed)',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });
  private readonly breakers = new Gauge({
    name: 'tongate_circuit_breaker_state',
    help: 'Circuit breaker state per store: 0 closed, 1 half-open, 2 open',
    labelNames: ['store'] as const,
    registers: [this.registry],
  });

  decision(result: DecisionResult, policy: PolicyName | 'none'): void {
    this.decisionCell(result, policy).n++;
  }

  /** The count of one (result, policy), for a caller that bumps it on every request. */
  decisionCell(result: DecisionResult, policy: PolicyName | 'none'): CountCell {
    return this.decisionTally.cell(`${result} ${policy}`, () => ({ result, policy }));
  }

  keyCacheHit(): void {
    this.cacheTally.hit++;
  }

  keyCacheMiss(): void {
    this.cacheTally.miss++;
  }

  request(network: string, version: string, method: string, status: number): void {
    this.requestCell(network, version, method, status).n++;
  }

  /** The count of one (network, version, method, status), for a caller that keeps it (src/http/access-hook.ts). */
  requestCell(network: string, version: string, method: string, status: number): CountCell {
    return this.requestTally.cell(`${network}\n${version}\n${method}\n${status}`, () => ({
      network,
      version,
      method,
      status: String(status),
    }));
  }

  storeError(store: 'keys' | 'limiter', operation: string): void {
    this.storeErrors.labels(store, operation).inc();
  }

  fallback(mode: string): void {
    this.fallbacks.labels(mode).inc();
  }

  breakerState(store: 'keys' | 'limiter', state: BreakerState): void {
    this.breakers.labels(store).set(BREAKER_VALUE[state]);
  }

  /** The exposition text and its content type, for a /metrics route. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
