/**
 * Prometheus metrics of the access layer (prom-client), in a registry of its own so that several
 * layers (tests) never collide. Labels never hold a key: decisions are counted by result and policy;
 * requests by network, API version, method and status.
 *
 * The hot path only bumps plain numbers (a prom-client inc() costs about 0.4 µs, several per
 * request): a cell per label set, which the request path keeps (the controller one per key and
 * policy, the request hook one per route, network and status), so counting builds no label key; the
 * counters read the cells when /metrics is scraped (prom-client's collect()).
 *
 * The registry itself, and prom-client with it, is made on first need: at start when the admin API is on (so the
 * process's own figures count from boot), when an upstream network registers its metrics, or at the first
 * /metrics. Without the admin API nobody can read the figures, and loading prom-client cost the main thread some
 * 35 ms before the API served. Other rooms register their metrics through `whenRegistry`.
 */
import type { Counter, Registry } from 'prom-client';
import type { BreakerState } from '../util/circuit-breaker.js';
import type { PolicyName, RefusalReason } from './decision.js';

export type DecisionResult = 'allowed' | RefusalReason;

type PromClient = typeof import('prom-client');
/** A room's metrics, put into the registry once it is made. */
export type RegistryUser = (registry: Registry, prom: PromClient) => void;

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
  private readonly requestTally = new Tally<'network' | 'version' | 'method' | 'status'>();
  private readonly decisionTally = new Tally<'result' | 'policy'>();
  private readonly cacheTally = { hit: 0, miss: 0 };
  private readonly storeErrorTally = new Tally<'store' | 'operation'>();
  private readonly fallbackTally = new Tally<'mode'>();
  private readonly breakers = new Map<'keys' | 'limiter', BreakerState>();
  private readonly users: RegistryUser[] = [];
  private made: { registry: Registry; prom: PromClient } | undefined;
  private making: Promise<Registry> | undefined;

  /** The registry, made (and prom-client loaded) the first time it is asked for. */
  registry(): Promise<Registry> {
    this.making ??= import('prom-client').then((prom) => {
      const registry = new prom.Registry();
      this.define(registry, prom);
      this.made = { registry, prom };
      for (const user of this.users.splice(0)) user(registry, prom);
      return registry;
    });
    return this.making;
  }

  /** `user` puts its metrics into the registry: now if it is made, else when it is. */
  whenRegistry(user: RegistryUser): void {
    if (this.made) user(this.made.registry, this.made.prom);
    else this.users.push(user);
  }

  private define(registry: Registry, prom: PromClient): void {
    // The process's own figures operators expect beside ours: event-loop delay (`nodejs_eventloop_lag_*`,
    // percentiles since the previous scrape), resident memory, heap, GC. npm run soak reads them.
    prom.collectDefaultMetrics({ register: registry });
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[], tally: Tally<L>) =>
      new prom.Counter({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          tally.exportTo(this);
        },
      });
    counter(
      'tongate_http_requests_total',
      'API requests answered, by network, API version, method and HTTP status',
      ['network', 'version', 'method', 'status'],
      this.requestTally,
    );
    counter(
      'tongate_access_decisions_total',
      'Access decisions by result and by the limit policy that applied (key, account, ip, none)',
      ['result', 'policy'],
      this.decisionTally,
    );
    const cacheTally = this.cacheTally;
    new prom.Counter({
      name: 'tongate_key_cache_lookups_total',
      help: 'Key cache lookups by result (hit, miss)',
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, cacheTally.hit);
        this.inc({ result: 'miss' }, cacheTally.miss);
      },
    });
    counter(
      'tongate_store_errors_total',
      'Errors and timeouts of the key store and of the shared limiter',
      ['store', 'operation'],
      this.storeErrorTally,
    );
    counter(
      'tongate_limiter_fallback_decisions_total',
      'Limiter decisions taken without Redis, by failure mode (local, open, closed)',
      ['mode'],
      this.fallbackTally,
    );
    const breakers = this.breakers;
    new prom.Gauge({
      name: 'tongate_circuit_breaker_state',
      help: 'Circuit breaker state per store: 0 closed, 1 half-open, 2 open',
      labelNames: ['store'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [store, state] of breakers) this.set({ store }, BREAKER_VALUE[state]);
      },
    });
  }

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
    this.storeErrorTally.cell(`${store} ${operation}`, () => ({ store, operation })).n++;
  }

  fallback(mode: string): void {
    this.fallbackTally.cell(mode, () => ({ mode })).n++;
  }

  breakerState(store: 'keys' | 'limiter', state: BreakerState): void {
    this.breakers.set(store, state);
  }

  /** The exposition text and its content type, for a /metrics route. */
  async render(): Promise<{ contentType: string; body: string }> {
    const registry = await this.registry();
    return { contentType: registry.contentType, body: await registry.metrics() };
  }
}
