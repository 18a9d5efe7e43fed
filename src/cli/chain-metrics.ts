/**
 * Gauges of the chains behind the networks, in the access layer's registry (served at /metrics): per network of
 * kind local or lite, its newest masterchain seqno, that block's age, the transactions of the newest indexed
 * masterchain block and the shard blocks it commits, and how far the v3 index is behind; for lite networks, each
 * liteserver's state as the pool sees it. Networks of kind upstream have no chain of their own: only the seqno their
 * upstreams last reported (the rest of their figures are the tongate_upstream_* metrics). Read when /metrics is scraped (prom-client's collect()), nothing
 * on the hot path.
 */
import type { Registry } from 'prom-client';
import type { NetworkContext } from '../http/network-context.js';
import type { LiteChain } from '../chain/lite/index.js';
import { lastBlockAgeMs } from '../http/health.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { UpstreamNetwork } from '../upstream/network.js';

const BREAKER_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

/** More shard blocks than one masterchain block commits on any TON network today. */
const SHARD_BLOCKS_READ = 256;

export function registerChainMetrics(
  registry: Registry,
  { Gauge }: typeof import('prom-client'),
  networks: NetworkContext[],
  clock: Clock = systemClock,
): void {
  // An upstream network's context has no chain.
  const chained = networks.filter((n) => n.chain !== undefined);
  const perNetwork = (name: string, help: string, value: (n: NetworkContext) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['network'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const n of chained) this.set({ network: n.name }, value(n));
      },
    });
  new Gauge({
    name: 'tongate_chain_last_seqno',
    help: "Seqno of the network's newest masterchain block (an upstream network: the newest its upstreams reported in their health checks)",
    labelNames: ['network'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const n of chained) this.set({ network: n.name }, n.chain.masterchainInfo().last.id.seqno);
      for (const n of networks) {
        const seqno = (n as { upstream?: UpstreamNetwork }).upstream?.lastSeqno();
        if (seqno !== undefined) this.set({ network: n.name }, seqno);
      }
    },
  });
  perNetwork(
    'tongate_chain_last_block_age_seconds',
    "Age of the network's newest masterchain block (a local chain's on its own clock, which /devnet/time moves)",
    (n) => lastBlockAgeMs(n.chain, clock) / 1000,
  );
  new Gauge({
    name: 'tongate_chain_block_transactions',
    help: 'Transactions in the newest indexed masterchain block and the shard blocks it commits',
    labelNames: ['network'] as const,
    registers: [registry],
    async collect() {
      const counts = await Promise.all(chained.map((n) => newestIndexedTransactions(n).catch(() => undefined)));
      this.reset();
      chained.forEach((n, i) => counts[i] !== undefined && this.set({ network: n.name }, counts[i]));
    },
  });
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
  // By kind, not by class: a start without lite networks never loads the liteserver client.
  const lite = networks.filter((n) => n.backend === 'lite');
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
  gauge(
    'tongate_liteserver_breaker_state',
    "The liteserver's circuit breaker: 0 closed, 1 half-open, 2 open",
    (s) => BREAKER_VALUE[s.breaker],
  );
  gauge('tongate_liteserver_latency_ms', 'Round trip to the liteserver (moving average)', (s) => s.latencyMs);
  gauge('tongate_liteserver_in_flight', 'Queries waiting for the liteserver', (s) => s.inFlight);
  gauge('tongate_liteserver_mc_seqno', 'Newest masterchain seqno the liteserver reported', (s) => s.mcSeqno);
}

/** From the index (one query), so a scrape never asks a liteserver anything; undefined without an index. */
async function newestIndexedTransactions(network: NetworkContext): Promise<number | undefined> {
  if (!network.index || !network.indexLag) return undefined;
  const seqno = network.chain.masterchainInfo().last.id.seqno - network.indexLag();
  const blocks = await network.index.blocks({ mcSeqno: seqno }, 'desc', { limit: SHARD_BLOCKS_READ, offset: 0 });
  if (blocks.length === 0) return undefined;
  return blocks.reduce((sum, block) => sum + block.txCount, 0);
}
