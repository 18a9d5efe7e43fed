/**
 * `tongate start`: opens a local chain per local network (an upstream network opens its forwarder instead), the access layer and the HTTP gateway, prints the banner,
 * and on SIGINT/SIGTERM finishes the block in progress, closes the stores and exits 0.
 */
import { fromNano } from '@ton/core';
import pino, { type Logger } from 'pino';
import type { NetworkContext } from '../api/network-context.js';
import { LocalChain } from '../chain/local/index.js';
import type { TongateConfig } from '../config/types.js';
import { createGateway, type Gateway } from '../http/server.js';
import { systemClock, type Clock } from '../util/clock.js';
import { renderBanner } from './banner.js';
import { createAccessLayer } from '../access/index.js';
import { runIndex } from '../index/run-index.js';
import { accessOptionsFrom } from './access-options.js';
import { join } from 'node:path';
import { openUpstreamNetworks, upstreamContext } from '../upstream/index.js';

export interface RunningTongate {
  gateway: Gateway;
  banner: string;
  networks: NetworkContext[];
  stop(): Promise<void>;
}

export async function startTongate(config: TongateConfig, deps: { clock?: Clock; logger?: Logger } = {}): Promise<RunningTongate> {
  const started = Date.now();
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? pino({ level: config.logLevel });

  // Networks of kind upstream have no chain and no index: only the local ones open them.
  const locals = config.networks.filter((network) => network.backend === 'local');
  const chains = await Promise.all(
    locals.map((network) =>
      LocalChain.open({
        network: network.name,
        globalId: network.globalId,
        dataDir: config.ephemeral ? undefined : join(config.dataDir, network.name),
        blockIntervalMs: config.blockIntervalMs,
        faucetMnemonic: config.faucetMnemonic,
        clock,
        logger: logger.child({ network: network.name }),
      }),
    ),
  );
  // v3's index follows each chain (catching up on blocks it missed while stopped).
  const indexes = await Promise.all(
    locals.map((network, i) =>
      runIndex({
        network: network.name,
        chain: chains[i],
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        ephemeral: config.ephemeral,
        queryTimeoutMs: config.queryTimeoutMs,
        logger: logger.child({ network: network.name, component: 'index' }),
      }),
    ),
  );
  const access = await createAccessLayer(accessOptionsFrom(config), { clock, logger });
  const upstreams = await openUpstreamNetworks(config.networks, { clock, logger, registry: access.metrics.registry });
  const networks: NetworkContext[] = config.networks.map((network) => {
    const upstream = upstreams.get(network.name);
    if (upstream) return upstreamContext(network, upstream);
    const i = locals.indexOf(network);
    return { ...network, testOnly: network.name !== 'mainnet', chain: chains[i], index: indexes[i].index.reader };
  });
  const gateway = createGateway({ config, networks, clock, logger, access });
  try {
    await gateway.listen();
  } catch (err) {
    await Promise.all(indexes.map((index) => index.close()));
    await Promise.all(chains.map((chain) => chain.stop()));
    await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
    await access.close();
    throw err;
  }
  for (const chain of chains) chain.start();

  const banner = renderBanner(
    config,
    networks.map((network) => {
      const chain = chains[locals.findIndex((local) => local.name === network.name)];
      return {
        network,
        upstreams: upstreams.get(network.name)?.describe(),
        faucets: chain
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
