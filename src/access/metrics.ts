/**
 * Prometheus metrics of the access layer (prom-client), in a registry of its own so that several
 * layers (tests) never collide. Labels never hold a key: decisions are counted by result and policy;
 * requests by network, API version, method and status. Hot-path counters are pre-bound children.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { BreakerState } from './circuit-breaker.js';
import type { PolicyName, RefusalReason } from './decision.js';

export type DecisionResult = 'allowed' | RefusalReason;

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export class AccessMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'tongate_http_requests_total',
    help: 'API requests answered, by network, API version, method and HTTP status',
    labelNames: ['network', 'version', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly decisions = new Counter({
    name: 'tongate_access_decisions_total',
    help: 'Access decisions by result and by the limit policy that applied (key, account, ip, none)',
    labelNames: ['result', 'policy'] as const,
    registers: [this.registry],
  });
  private readonly keyCache = new Counter({
    name: 'tongate_key_cache_lookups_total',
    help: 'Key cache lookups by result (hit, miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
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

  private readonly decisionChildren = new Map<string, Counter.Internal>();
  readonly keyCacheHit = this.keyCache.labels('hit');
  readonly keyCacheMiss = this.keyCache.labels('miss');

  decision(result: DecisionResult, policy: PolicyName | 'none'): void {
    const k = result + '/' + policy;
    let child = this.decisionChildren.get(k);
    if (child === undefined) {
      child = this.decisions.labels(result, policy);
      this.decisionChildren.set(k, child);
    }
    child.inc();
  }

  private readonly requestChildren = new Map<string, Counter.Internal>();

  request(network: string, version: string, method: string, status: number): void {
    // Label sets are few (networks x methods x statuses): remember each bound child.
    const k = `${network}\n${version}\n${method}\n${status}`;
    let child = this.requestChildren.get(k);
    if (child === undefined) {
      child = this.requests.labels(network, version, method, String(status));
      if (this.requestChildren.size < 10_000) this.requestChildren.set(k, child);
    }
    child.inc();
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
