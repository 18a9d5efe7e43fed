/**
 * Gauges of the chains behind the networks, in the access layer's registry (served at /metrics): how far each
 * network's v3 index is behind its chain, and, for lite networks, each liteserver's state as the pool sees it.
 * Read when /metrics is scraped (prom-client's collect()), nothing on the hot path.
 */
import { Gauge, type Registry } from 'prom-client';
import type { NetworkContext } from '../api/network-context.js';
import { LiteChain } from '../chain/lite/index.js';

const BREAKER_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

export function registerChainMetrics(registry: Registry, networks: NetworkContext[]): void {
  new Gauge({
    name: 'tongate_index_lag_blocks',
    help: 'Masterchain blocks the v3 index is behind its chain',
    labelNames: ['network'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const n of networks) if (n.indexLag) this.set({ network: n.name }, n.indexLag());
    },
  });
  const lite = networks.filter((n) => n.chain instanceof LiteChain);
  if (lite.length === 0) return;
  const servers = () => lite.flatMap((n) => (n.chain as LiteChain).pool.status().map((s) => ({ network: n.name, ...s })));
  const gauge = (name: string, help: string, value: (s: ReturnType<typeof servers>[number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['network', 'server'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of servers()) {
          const v = value(s);
          if (v !== null) this.set({ network: s.network, server: s.server }, v);
        }
      },
    });
  gauge('tongate_liteserver_connected', 'Whether tongate is connected to the liteserver (1) or not (0)', (s) => (s.connected ? 1 : 0));
  gauge('tongate_liteserver_breaker_state', "The liteserver's circuit breaker: 0 closed, 1 half-open, 2 open", (s) => BREAKER_VALUE[s.breaker]);
  gauge('tongate_liteserver_latency_ms', 'Round trip to the liteserver (moving average)', (s) => s.latencyMs);
  gauge('tongate_liteserver_in_flight', 'Queries waiting for the liteserver', (s) => s.inFlight);
  gauge('tongate_liteserver_mc_seqno', 'Newest masterchain seqno the liteserver reported', (s) => s.mcSeqno);
}
