/**
 * The configuration of networks of kind `lite` (src/chain/lite): each one's TON global config (`--lite-config
 * name=file`, by default the public mainnet or testnet config shipped with tongate), where its empty index
 * starts (`--index-from name=seqno`), the key block its chain of trust starts from when not the config's
 * (`--lite-trusted-block name=seqno:root_hash:file_hash`, lite-trusted-block.ts) and the liteserver queries per second its index may make (`--index-rps
 * name=n`, chain/lite/follower-budget.ts). The file is read and checked here, so a bad one stops start-up (exit 2)
 * instead of failing the first request.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './errors.js';
import { parseGlobalConfig } from '../ton/global-config.js';
import { parseTrustedBlock } from './lite-trusted-block.js';
import { knownNetworks, singleValue, type NetworkPairs } from './per-network.js';
import type { NetworkConfig } from './types.js';

/** The public configs shipped with tongate (global-configs/ at the package root; see its README). */
const SHIPPED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'global-configs');
export const SHIPPED_GLOBAL_CONFIGS: Record<string, string> = {
  mainnet: join(SHIPPED_DIR, 'mainnet-2025-02-20.json'),
  testnet: join(SHIPPED_DIR, 'testnet-2025-02-20.json'),
};

/** `networks` with their kind already given (backends.ts); lite ones get their `lite` configuration. */
export function applyLite(
  networks: NetworkConfig[],
  configPairs?: NetworkPairs,
  indexFromPairs?: NetworkPairs,
  indexRpsPairs?: NetworkPairs,
  trustedBlockPairs?: NetworkPairs,
): NetworkConfig[] {
  const names = new Set(networks.map((n) => n.name));
  const files = knownNetworks('--lite-config', configPairs, names);
  const starts = knownNetworks('--index-from', indexFromPairs, names);
  const budgets = knownNetworks('--index-rps', indexRpsPairs, names);
  const checkpoints = knownNetworks('--lite-trusted-block', trustedBlockPairs, names);
  return networks.map((network) => {
    const file = singleValue('--lite-config', files, network.name);
    const start = singleValue('--index-from', starts, network.name);
    const rps = singleValue('--index-rps', budgets, network.name);
    const checkpoint = singleValue('--lite-trusted-block', checkpoints, network.name);
    if (network.backend !== 'lite') {
      if (file !== undefined)
        throw new ConfigError('--lite-config', `${network.name} is not a lite network (give --backend ${network.name}=lite)`);
      if (start !== undefined)
        throw new ConfigError('--index-from', `${network.name} is not a lite network (a local chain is indexed from its first block)`);
      if (rps !== undefined)
        throw new ConfigError('--index-rps', `${network.name} is not a lite network (a local chain's index makes no liteserver queries)`);
      if (checkpoint !== undefined)
        throw new ConfigError('--lite-trusted-block', `${network.name} is not a lite network (give --backend ${network.name}=lite)`);
      return network;
    }
    if (start !== undefined && (!/^\d+$/.test(start) || Number(start) < 1 || Number(start) > 2 ** 32 - 1)) {
      throw new ConfigError('--index-from', `${network.name}: expected a masterchain seqno from 1, got ${JSON.stringify(start)}`);
    }
    if (rps !== undefined && (!/^\d+$/.test(rps) || Number(rps) < 1 || Number(rps) > 100_000)) {
      throw new ConfigError(
        '--index-rps',
        `${network.name}: expected liteserver queries per second from 1 to 100000, got ${JSON.stringify(rps)}`,
      );
    }
    const trustedBlock = checkpoint === undefined ? undefined : parseTrustedBlock(network.name, checkpoint);
    const configFile = file ?? SHIPPED_GLOBAL_CONFIGS[network.name];
    if (!configFile) {
      throw new ConfigError(
        '--lite-config',
        `${network.name}: no global config shipped for this name; give --lite-config ${network.name}=FILE`,
      );
    }
    const globalConfig = readGlobalConfig(configFile);
    return {
      ...network,
      lite: {
        configFile,
        // The operator's checkpoint replaces the config's init block: proofs start there (tonlib's override).
        globalConfig: trustedBlock ? { ...globalConfig, initBlock: trustedBlock } : globalConfig,
        ...(trustedBlock ? { trustedBlock } : {}),
        ...(start !== undefined ? { indexFrom: Number(start) } : {}),
        ...(rps !== undefined ? { indexRps: Number(rps) } : {}),
      },
    };
  });
}
function readGlobalConfig(file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError('--lite-config', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return parseGlobalConfig(JSON.parse(text));
  } catch (err) {
    throw new ConfigError('--lite-config', `${file} is not a TON global config: ${(err as Error).message}`);
  }
}
