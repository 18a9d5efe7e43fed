/**
 * `tongate start`: opens each network's backend (a local chain, a liteserver pool, both with their v3 index; or
 * an upstream forwarder), the access layer and the HTTP gateway, prints the banner, and on SIGINT/SIGTERM
 * finishes the block in progress, closes the stores and exits 0.
 */
import { fromNano } from '@ton/core';
import type { Logger } from 'pino';
import type { NetworkContext } from '../http/network-context.js';
import { genesisAccounts, GenesisRefused, LocalChain } from '../chain/local/index.js';
import { ConfigError } from '../config/errors.js';
import { LiteChain } from '../chain/lite/index.js';
import { LITE_INDEX_NICE } from '../util/thread-priority.js';
import type { TongateConfig } from '../config/types.js';
import { createGateway, type Gateway } from '../gateway/gateway.js';
import { openStartingListeners, type StartingListeners } from '../http/starting.js';
import type { ProvingState } from '../chain/lite/block-proofs/masterchain-trust.js';
import { systemClock, type Clock } from '../util/clock.js';
import { renderBanner } from './banner.js';
import { createLogger } from './logger.js';
import { createAccessLayer } from '../access/index.js';
import { runIndex } from '../index/run-index.js';
import { SchemaClaimed } from '../index/sql/schema-claim.js';
import { accessOptionsFrom } from './access-options.js';
import { registerChainMetrics } from './chain-metrics.js';
import { join } from 'node:path';
import { lockDataDir } from '../data-dir/lock.js';
import { terminalBar } from '../util/progress.js';
import { openUpstreamNetworks, upstreamContext } from '../upstream/index.js';

export interface RunningTongate {
  gateway: Gateway;
  banner: string;
  networks: NetworkContext[];
  stop(): Promise<void>;
}

/** A local network's chain; a `--genesis` entry it cannot take is a configuration error (exit 2), naming the entry. */
async function openLocalChain(
  config: TongateConfig,
  network: TongateConfig['networks'][number],
  clock: Clock,
  logger: Logger,
): Promise<LocalChain> {
  try {
    return await LocalChain.open({
      network: network.name,
      globalId: network.globalId,
      dataDir: config.ephemeral ? undefined : join(config.dataDir, network.name),
      blockIntervalMs: config.blockIntervalMs,
      mining: config.mining,
      maxBlockTransactions: config.maxBlockTransactions,
      faucetMnemonic: config.faucetMnemonic,
      genesisAccounts: config.genesis ? await genesisAccounts(config.genesis.entries, network.globalId) : undefined,
      clock,
      logger: logger.child({ network: network.name }),
    });
  } catch (err) {
    if (err instanceof GenesisRefused)
      throw new ConfigError('--genesis', `${config.genesis!.file}: ${err.message} (network ${network.name})`);
    throw err;
  }
}

/**
 * A data directory that holds a local chain or a SQLite index is one process's: it is locked for the life of this
 * one (src/data-dir), and a second start on it is refused (DataDirInUse, exit 2) before it opens anything. Keys in
 * SQLite are shared with the key commands by design, and a lite network's proven key block is written whole and
 * renamed, so a directory holding only those (lite and upstream networks with --database-url) is not locked.
 */
function keepsOwnDataIn(config: TongateConfig): boolean {
  if (config.ephemeral) return false;
  return config.networks.some((network) => network.backend === 'local' || (network.backend === 'lite' && !config.databaseUrl));
}

export async function startTongate(config: TongateConfig, deps: { clock?: Clock; logger?: Logger } = {}): Promise<RunningTongate> {
  const lock = keepsOwnDataIn(config) ? lockDataDir(config.dataDir) : undefined;
  let running: RunningTongate;
  try {
    running = await openTongate(config, deps);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const stop = running.stop;
  return { ...running, stop: () => stop().finally(() => lock?.release()) };
}

async function openTongate(config: TongateConfig, deps: { clock?: Clock; logger?: Logger }): Promise<RunningTongate> {
  const started = Date.now();
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? (await createLogger(config));

  // Networks of kind upstream have no chain and no index: local and lite networks open them.
  const chained = config.networks.filter((network) => network.backend !== 'upstream');
  // A lite network's first start proves its chain of key blocks (minutes on mainnet): meanwhile the ports say so.
  const proving = new Map<string, () => ProvingState | undefined>();
  const starting = chained.some((network) => network.backend === 'lite')
    ? await openStartingListeners(config, (name) => ({ network: name, proving: proving.get(name)?.() }))
    : undefined;
  const chains = await openAll(starting, () =>
    Promise.all(
      chained.map((network) =>
        network.backend === 'lite'
          ? LiteChain.open({
              network: network.name,
              globalConfig: network.lite!.globalConfig,
              dataDir: config.ephemeral ? undefined : join(config.dataDir, network.name),
              clock,
              logger: logger.child({ network: network.name }),
              pool: { followerQueriesPerSecond: network.lite!.indexRps },
              onProving: (state) => proving.set(network.name, state),
            })
          : openLocalChain(config, network, clock, logger),
      ),
    ),
  );
  // v3's index follows each chain: a local chain's from its start (catching up on blocks it missed while
  // stopped), a real network's from where tongate first started on it (or --index-from).
  const indexes = await Promise.all(
    chained.map((network, i) => {
      const chain = chains[i];
      return runIndex({
        network: network.name,
        chain,
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        ephemeral: config.ephemeral,
        queryTimeoutMs: config.queryTimeoutMs,
        metadataFetch: config.metadataFetch,
        logger: logger.child({ network: network.name, component: 'index' }),
        dnsRoots: network.dnsRoots,
        claim: chain instanceof LiteChain ? 'lite network' : 'local chain',
        progress: { bar: terminalBar() },
        ...(chain instanceof LiteChain
          ? { startAt: network.lite?.indexFrom ?? chain.masterchainInfo().last.id.seqno, threadNice: LITE_INDEX_NICE }
          : {}),
      }).catch((err: unknown) => {
        // Another instance's index: a configuration to change (exit 2), never data to drop.
        throw err instanceof SchemaClaimed ? new ConfigError('--database-url', err.message) : err;
      });
    }),
  );
  for (const [i, chain] of chains.entries()) if (chain instanceof LiteChain) chain.useIndex(indexes[i].index.reader);
  const access = await createAccessLayer(accessOptionsFrom(config), { clock, logger });
  const upstreams = await openUpstreamNetworks(config.networks, { clock, logger, registry: access.metrics.registry });
  const networks: NetworkContext[] = config.networks.map((network) => {
    const upstream = upstreams.get(network.name);
    if (upstream) return upstreamContext(network, upstream);
    const i = chained.indexOf(network);
    return {
      ...network,
      // A lite network's global_id is what its blocks say.
      globalId: chains[i].globalId,
      testOnly: network.name !== 'mainnet',
      chain: chains[i],
      index: indexes[i].index.reader,
      indexed: (seqno: number) => indexes[i].attachment.synced(seqno),
      indexLag: () => Math.max(0, chains[i].masterchainInfo().last.id.seqno - indexes[i].attachment.lastIndexed()),
      indexedSeqno: () => indexes[i].attachment.lastIndexed(),
    };
  });
  registerChainMetrics(access.metrics.registry, networks, clock);
  const gateway = createGateway({ config, networks, clock, logger, access });
  try {
    await starting?.close();
    await gateway.listen();
  } catch (err) {
    await Promise.all(indexes.map((index) => index.close()));
    await Promise.all(chains.map((chain) => chain.stop()));
    await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
    await access.close();
    throw err;
  }
  for (const chain of chains) if (chain instanceof LocalChain) chain.start();

  // Where each lite network's v3 begins: the index's first block, or where an empty one starts (--index-from).
  const indexedFrom = await Promise.all(
    chained.map(async (network, i) => {
      if (network.backend !== 'lite') return undefined;
      const range = await indexes[i].index.reader.masterchainRange();
      return range?.first.id.seqno ?? network.lite?.indexFrom ?? chains[i].masterchainInfo().last.id.seqno;
    }),
  );
  const banner = renderBanner(
    config,
    networks.map((network) => {
      const i = chained.findIndex((c) => c.name === network.name);
      const chain = chains[i];
      return {
        network,
        index:
          i >= 0 && indexedFrom[i] !== undefined
            ? { from: indexedFrom[i]!, last: indexes[i].attachment.lastIndexed(), head: chain.masterchainInfo().last.id.seqno }
            : undefined,
        upstreams: upstreams.get(network.name)?.describe(),
        liteservers: liteOf(config.networks.find((n) => n.name === network.name)!),
        faucets:
          chain instanceof LocalChain
            ? chain.faucets().map((f) => ({
                kind: f.kind,
                address: f.address.toString({ urlSafe: true, bounceable: true, testOnly: network.testOnly }),
                balanceTon: fromNano(chain.getAccount(f.address).balance),
              }))
            : [],
      };
    }),
    access.describe(),
    Date.now() - started,
  );
  let stopping: Promise<void> | undefined;
  return {
    gateway,
    networks,
    stop() {
      stopping ??= (async () => {
        await gateway.close();
        await Promise.all(indexes.map((index) => index.close()));
        await Promise.all(chains.map((chain) => chain.stop()));
        await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
        await access.close();
      })();
      return stopping;
    },
    banner,
  };
}

/** Opens the chains; a failure closes the start-up listeners first (the caller reports it). */
async function openAll<T>(starting: StartingListeners | undefined, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    await starting?.close();
    throw err;
  }
}

function liteOf(network: TongateConfig['networks'][number]): { count: number; configFile: string } | undefined {
  return network.lite && { count: network.lite.globalConfig.liteservers.length, configFile: network.lite.configFile };
}
