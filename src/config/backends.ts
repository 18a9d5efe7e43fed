/**
 * `--backend name=kind`: what serves each network. `local` (the default): an embedded chain and its index;
 * `lite`: TON liteservers and tongate's own index (lite.ts, src/chain/lite); `upstream`: forwarded to a
 * toncenter-compatible API (upstream.ts, src/upstream). Each kind's own options are checked by its file.
 */
import { ConfigError } from './errors.js';
import { knownNetworks, singleValue, type NetworkPairs } from './per-network.js';
import type { NetworkBackend, NetworkConfig } from './types.js';

const BACKENDS: readonly NetworkBackend[] = ['local', 'lite', 'upstream'];

export function applyBackendKinds(networks: NetworkConfig[], pairs?: NetworkPairs): NetworkConfig[] {
  const kinds = knownNetworks('--backend', pairs, new Set(networks.map((n) => n.name)));
  return networks.map((network) => {
    const kind = singleValue('--backend', kinds, network.name) ?? 'local';
    if (!BACKENDS.includes(kind as NetworkBackend)) {
      throw new ConfigError('--backend', `${network.name}: expected one of ${BACKENDS.join(', ')}, got ${JSON.stringify(kind)}`);
    }
    return { ...network, backend: kind as NetworkBackend };
  });
}
