/**
 * One pending layer per chain. A local chain's follows its open block (PendingTraces.follow), made the first time
 * anything asks for it (the streaming room does at start, for every network it serves; the v3 endpoints find the
 * same one). A lite network's emulates what this process sent (lite-source.ts): it needs the network's index and a
 * clock, so the gateway makes it when it starts (`followNetworkPending`), and `pendingOf` finds it from then on.
 * An upstream network has none.
 */
import type { Chain } from '../chain/types.js';
import type { NetworkContext } from '../http/network-context.js';
import { followLitePending, type LitePendingOptions } from './lite-source.js';
import { PendingTraces } from './pending-traces.js';

const followed = new WeakMap<Chain, PendingTraces | null>();

export function pendingOf(chain: Chain | undefined): PendingTraces | undefined {
  // A network of kind upstream has no chain at all.
  if (!chain) return undefined;
  let traces = followed.get(chain);
  if (traces === undefined) {
    traces = PendingTraces.follow(chain)?.traces ?? null;
    followed.set(chain, traces);
  }
  return traces ?? undefined;
}

/** The network's pending layer, made now if it has none yet: a lite network's (lite-source.ts), or a local one's. */
export function followNetworkPending(network: NetworkContext, options: LitePendingOptions): PendingTraces | undefined {
  const chain = network.chain as Chain | undefined;
  if (chain && !followed.get(chain)) {
    const lite = followLitePending(network, options);
    if (lite) followed.set(chain, lite.traces);
  }
  return pendingOf(chain);
}
