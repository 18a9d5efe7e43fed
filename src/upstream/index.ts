/**
 * The room's entrance for the start-up wiring: open the upstream networks of a configuration, give each
 * the shape of a served network, and the hook that serves them (see README.md).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { NetworkContext } from '../http/network-context.js';
import type { NetworkConfig } from '../config/types.js';
import type { Clock } from '../util/clock.js';
import { UpstreamNetwork } from './network.js';

export { upstreamHook } from './hook.js';
export { UpstreamNetwork } from './network.js';

/** Opens every network of kind upstream (a first round of health checks each, in parallel). */
export async function openUpstreamNetworks(
  networks: NetworkConfig[],
  deps: { clock: Clock; registry: Registry; logger: Logger },
): Promise<Map<string, UpstreamNetwork>> {
  const opened = new Map<string, UpstreamNetwork>();
  for (const network of networks) {
    if (network.backend !== 'upstream' || !network.upstream) continue;
    opened.set(
      network.name,
      new UpstreamNetwork(network.name, network.upstream, {
        clock: deps.clock,
        registry: deps.registry,
        logger: deps.logger.child({ network: network.name, component: 'upstream' }),
      }),
    );
  }
  await Promise.all([...opened.values()].map((network) => network.start()));
  return opened;
}

/**
 * An upstream network as the gateway serves it. It has no chain and no index: the upstream hook answers
 * every request of such a network before any route that would read them (src/gateway/gateway.ts adds it), so the
 * NetworkContext's `chain` is left out on purpose rather than faked.
 */
export function upstreamContext(network: NetworkConfig, upstream: UpstreamNetwork): NetworkContext {
  const context = {
    name: network.name,
    baseUrl: network.baseUrl,
    globalId: network.globalId,
    testOnly: network.name !== 'mainnet',
    upstream,
  };
  return context as unknown as NetworkContext;
}
