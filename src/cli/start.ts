/**
 * `tongate start`: binds the sockets first (they answer `starting`), opens each network's backend (a local chain, a
 * liteserver pool; or an upstream forwarder), the access layer and the HTTP gateway, and serves; a local chain's v3
 * index opens after that (its threads load while v2 already answers, v3 answering 503 `starting` meanwhile). Prints
 * the banner, and on SIGINT/SIGTERM finishes the block in progress, closes the stores and exits 0.
 *
 * What is not needed to serve is imported when it is needed, so the sockets are bound before the chain, the index
 * or fastify are loaded (the README's "Where `tongate start`'s time goes").
 */
import type { Logger } from 'pino';
import type { NetworkContext } from '../http/network-context.js';
import type { LocalChain } from '../chain/local/index.js';
import type { LiteChain } from '../chain/lite/index.js';
import { ConfigError } from '../config/errors.js';
import { LITE_INDEX_NICE } from '../util/thread-priority.js';
import type { TongateConfig } from '../config/types.js';
import type { Gateway } from '../gateway/gateway.js';
import { planListeners } from '../http/listeners.js';
import { openSockets, type GatewaySockets } from '../http/sockets.js';
import type { ProvingState } from '../chain/lite/block-proofs/masterchain-trust.js';
import { systemClock, type Clock } from '../util/clock.js';
import { renderBanner } from './banner.js';
import type { RunIndexOptions, RunningIndex } from '../index/run-index.js';
import { accessOptionsFrom } from './access-options.js';
import { join } from 'node:path';
import { lockDataDir } from '../data-dir/lock.js';
import type { UpstreamNetwork } from '../upstream/network.js';

/** What NetworkContext.starting names while a local network's index opens after the sockets serve. */
export const STARTING_INDEX = 'v3 index';

export interface RunningTongate {
  gateway: Gateway;
  banner: string;
  networks: NetworkContext[];
  stop(): Promise<void>;
}

/** A local network's chain; a `--genesis` entry it cannot take is a configuration error (exit 2), naming the entry. */
async function openLocalChain(
  { LocalChain, genesisAccounts, GenesisRefused }: typeof import('../chain/local/index.js'),
  config: TongateConfig,
  network: TongateConfig['networks'][number],
  clock: Clock,
  logger: Logger,
  indexesOpen: Promise<void>,
): Promise<LocalChain> {
  try {
    return await LocalChain.open({
      network: network.name,
      globalId: network.globalId,
      dataDir: config.ephemeral ? undefined : join(config.dataDir, network.name),
      blockIntervalMs: config.blockIntervalMs,
      // Its threads compile the emulator while the API is built and starts serving; awaited once it serves.
      emulatorLater: true,
      // The read worker loads after the v3 indexes open: meanwhile their reader threads load on the same cores.
      emulatorReadAfter: indexesOpen,
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

export interface StartDeps {
  clock?: Clock;
  logger?: Logger;
  /** Awaited once the sockets serve, before the local chains' indexes open (a test looks at the state in between). */
  afterServing?: () => Promise<void>;
}

export async function startTongate(config: TongateConfig, deps: StartDeps = {}): Promise<RunningTongate> {
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

async function openTongate(config: TongateConfig, deps: StartDeps): Promise<RunningTongate> {
  const started = Date.now();
  const clock = deps.clock ?? systemClock;
  // Networks of kind upstream have no chain and no index: local and lite networks open them.
  const chained = config.networks.filter((network) => network.backend !== 'upstream');
  // A lite network's first start proves its chain of key blocks (minutes on mainnet): meanwhile the ports say so.
  const proving = new Map<string, () => ProvingState | undefined>();
  // Bound before anything heavy loads (even the logger): from here on a client is answered (`starting`), never refused.
  const sockets = await openSockets(config, planListeners(config), (name) => ({ network: name, proving: proving.get(name)?.() }));
  let logger: Logger;
  try {
    logger = deps.logger ?? (await (await import('./logger.js')).createLogger(config));
  } catch (err) {
    await sockets.close({ force: true });
    throw err;
  }
  const opened: Opened = { chains: [], indexes: [], upstreams: new Map() };
  try {
    return await serve(config, { clock, logger, started, chained, proving, sockets, afterServing: deps.afterServing }, opened);
  } catch (err) {
    await sockets.close({ force: true });
    await closeAll(opened);
    throw err;
  }
}

/** What a start has opened so far: closed in reverse when it fails, or when the process stops. */
interface Opened {
  chains: Array<LocalChain | LiteChain>;
  indexes: RunningIndex[];
  upstreams: Map<string, UpstreamNetwork>;
  access?: { close(): Promise<void> };
  gateway?: Gateway;
}

async function closeAll(opened: Opened): Promise<void> {
  await opened.gateway?.close();
  await Promise.all(opened.indexes.map((index) => index.close()));
  await Promise.all(opened.chains.map((chain) => chain.stop()));
  await Promise.all([...opened.upstreams.values()].map((upstream) => upstream.close()));
  await opened.access?.close();
}

interface Start {
  clock: Clock;
  logger: Logger;
  started: number;
  chained: TongateConfig['networks'];
  proving: Map<string, () => ProvingState | undefined>;
  sockets: GatewaySockets;
  afterServing?: () => Promise<void>;
}

async function serve(config: TongateConfig, start: Start, opened: Opened): Promise<RunningTongate> {
  const { clock, logger, chained, proving, sockets } = start;
  let indexesOpened!: () => void;
  const indexesOpen = new Promise<void>((resolve) => (indexesOpened = resolve));
  const [local, lite] = await Promise.all([
    chained.some((network) => network.backend === 'local') ? import('../chain/local/index.js') : undefined,
    chained.some((network) => network.backend === 'lite') ? import('../chain/lite/index.js') : undefined,
  ]);
  const opening = Promise.all(
    chained.map((network) =>
      network.backend === 'lite'
        ? lite!.LiteChain.open({
            network: network.name,
            globalConfig: network.lite!.globalConfig,
            dataDir: config.ephemeral ? undefined : join(config.dataDir, network.name),
            clock,
            logger: logger.child({ network: network.name }),
            pool: { followerQueriesPerSecond: network.lite!.indexRps },
            onProving: (state) => proving.set(network.name, state),
          })
        : openLocalChain(local!, config, network, clock, logger, indexesOpen),
    ),
  );
  opening.catch(() => undefined); // awaited below; not unhandled if the import fails first
  // fastify and the routes load while the chains wait on their key derivation and emulator threads.
  const gatewayModule = import('../gateway/gateway.js');
  gatewayModule.catch(() => undefined); // awaited below; not unhandled if a chain fails to open first
  const chains = await opening;
  opened.chains.push(...chains);
  const networks: NetworkContext[] = [];
  const upstreamNetworks = config.networks.some((network) => network.backend === 'upstream')
    ? await import('../upstream/index.js')
    : undefined;
  const { createAccessLayer } = await import('../access/index.js');
  const access = await createAccessLayer(accessOptionsFrom(config), { clock, logger });
  opened.access = access;
  if (upstreamNetworks) {
    const upstreams = await upstreamNetworks.openUpstreamNetworks(config.networks, {
      clock,
      logger,
      registry: await access.metrics.registry(),
    });
    for (const [name, upstream] of upstreams) opened.upstreams.set(name, upstream);
  }
  for (const network of config.networks) {
    const upstream = opened.upstreams.get(network.name);
    if (upstream) {
      networks.push(upstreamNetworks!.upstreamContext(network, upstream));
      continue;
    }
    const chain = chains[chained.indexOf(network)];
    // A lite network's global_id is what its blocks say.
    networks.push({
      ...network,
      globalId: chain.globalId,
      testOnly: network.name !== 'mainnet',
      chain,
      metadataBetweenBlocks: config.metadataFetch.enabled,
    });
  }
  // v3's index follows each chain: a local chain's from its start (catching up on blocks it missed while
  // stopped), a real network's from where tongate first started on it (or --index-from). A lite network's is
  // open before it is served (its banner says where v3 begins, and its chain reads transactions through it); a
  // local chain's opens once the sockets serve, v3 answering 503 `starting` until then.
  const indexOf = async (network: TongateConfig['networks'][number]) => {
    const i = chained.indexOf(network);
    const context = networks.find((n) => n.name === network.name)!;
    const running = await openIndex(config, network, chains[i], logger);
    opened.indexes.push(running);
    context.index = running.index.reader;
    context.indexed = (seqno: number) => running.attachment.synced(seqno);
    context.indexLag = () => Math.max(0, chains[i].masterchainInfo().last.id.seqno - running.attachment.lastIndexed());
    context.indexedSeqno = () => running.attachment.lastIndexed();
    context.starting = context.starting?.filter((what) => what !== STARTING_INDEX);
    if (network.backend === 'lite') (chains[i] as LiteChain).useIndex(running.index.reader);
    return running;
  };
  const liteIndexes = new Map(
    await Promise.all(chained.filter((n) => n.backend === 'lite').map(async (network) => [network.name, await indexOf(network)] as const)),
  );
  const later = chained.filter((n) => n.backend !== 'lite');
  for (const network of later) networks.find((n) => n.name === network.name)!.starting = [STARTING_INDEX];
  const { registerChainMetrics } = await import('./chain-metrics.js');
  access.metrics.whenRegistry((registry, prom) => registerChainMetrics(registry, prom, networks, clock));
  // With the admin API on, /metrics can be read: the process's own figures (event-loop delay, GC) count from here.
  if (config.adminToken) await access.metrics.registry();
  const { createGateway } = await gatewayModule;
  const gateway = createGateway({ config, networks, clock, logger, access, sockets });
  opened.gateway = gateway;
  await gateway.listen();
  const servingMs = Date.now() - start.started;
  await start.afterServing?.();
  for (const [i, chain] of chains.entries()) if (chained[i].backend === 'local') (chain as LocalChain).start();
  const locals = chains.filter((_, i) => chained[i].backend === 'local') as LocalChain[];
  await Promise.all([...later.map(indexOf), ...locals.map((chain) => chain.emulatorLoaded())]);
  indexesOpened();
  const readyMs = Date.now() - start.started;

  // Where each lite network's v3 begins: the index's first block, or where an empty one starts (--index-from).
  const indexedFrom = await Promise.all(
    chained.map(async (network, i) => {
      const running = liteIndexes.get(network.name);
      if (!running) return undefined;
      const range = await running.index.reader.masterchainRange();
      return range?.first.id.seqno ?? network.lite?.indexFrom ?? chains[i].masterchainInfo().last.id.seqno;
    }),
  );
  const { fromNano } = await import('@ton/core');
  const banner = renderBanner(
    config,
    networks.map((network) => {
      const i = chained.findIndex((c) => c.name === network.name);
      const chain = chains[i];
      const running = liteIndexes.get(network.name);
      return {
        network,
        index:
          running && indexedFrom[i] !== undefined
            ? { from: indexedFrom[i]!, last: running.attachment.lastIndexed(), head: chain.masterchainInfo().last.id.seqno }
            : undefined,
        upstreams: opened.upstreams.get(network.name)?.describe(),
        liteservers: liteOf(config.networks.find((n) => n.name === network.name)!),
        faucets:
          i >= 0 && chained[i].backend === 'local'
            ? (chain as LocalChain).faucets().map((f) => ({
                kind: f.kind,
                address: f.address.toString({ urlSafe: true, bounceable: true, testOnly: network.testOnly }),
                balanceTon: fromNano((chain as LocalChain).getAccount(f.address).balance),
              }))
            : [],
      };
    }),
    access.describe(),
    { servingMs, readyMs },
  );
  let stopping: Promise<void> | undefined;
  return {
    gateway,
    networks,
    stop() {
      stopping ??= closeAll(opened);
      return stopping;
    },
    banner,
  };
}

/** A network's v3 index, opened and following its chain (src/index/run-index.ts). */
async function openIndex(
  config: TongateConfig,
  network: TongateConfig['networks'][number],
  chain: LocalChain | LiteChain,
  logger: Logger,
): Promise<RunningIndex> {
  const [{ runIndex }, { terminalBar }] = await Promise.all([import('../index/run-index.js'), import('../util/progress.js')]);
  const lite = network.backend === 'lite';
  const options: RunIndexOptions = {
    network: network.name,
    chain,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    ephemeral: config.ephemeral,
    queryTimeoutMs: config.queryTimeoutMs,
    metadataFetch: config.metadataFetch,
    logger: logger.child({ network: network.name, component: 'index' }),
    dnsRoots: network.dnsRoots,
    claim: lite ? 'lite network' : 'local chain',
    progress: { bar: terminalBar() },
    ...(lite ? { startAt: network.lite?.indexFrom ?? chain.masterchainInfo().last.id.seqno, threadNice: LITE_INDEX_NICE } : {}),
  };
  return runIndex(options).catch((err: unknown) => {
    // Another instance's index: a configuration to change (exit 2), never data to drop.
    // By name: the claim's module (and pg) is loaded only with --database-url.
    throw err instanceof Error && err.name === 'SchemaClaimed' ? new ConfigError('--database-url', err.message) : err;
  });
}

function liteOf(network: TongateConfig['networks'][number]): { count: number; configFile: string } | undefined {
  return network.lite && { count: network.lite.globalConfig.liteservers.length, configFile: network.lite.configFile };
}
