/**
 * `--backend name=kind`, `--lite-config name=file` and `--index-from name=seqno`: which networks are served by an embedded chain (local,
 * the default) and which by TON liteservers (lite), and each lite network's global config. The file is read and
 * checked here, so a bad one stops start-up (exit 2) instead of failing the first request.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './errors.js';
import { parseGlobalConfig } from '../ton/global-config.js';
import type { NetworkConfig } from './types.js';

const BACKENDS = ['local', 'lite'] as const;

/** The public configs shipped with tongate (global-configs/ at the package root; see its README). */
const SHIPPED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'global-configs');
export const SHIPPED_GLOBAL_CONFIGS: Record<string, string> = {
  mainnet: join(SHIPPED_DIR, 'mainnet-2025-02-20.json'),
  testnet: join(SHIPPED_DIR, 'testnet-2025-02-20.json'),
};

export function resolveBackends(networks: NetworkConfig[], backendPairs: string[] = [], configPairs: string[] = [], indexFromPairs: string[] = []): NetworkConfig[] {
  const backends = pairsByNetwork(networks, backendPairs, '--backend');
  const files = pairsByNetwork(networks, configPairs, '--lite-config');
  const starts = pairsByNetwork(networks, indexFromPairs, '--index-from');
  return networks.map((network) => {
    const backend = backends.get(network.name) ?? 'local';
    if (!(BACKENDS as readonly string[]).includes(backend)) {
      throw new ConfigError('--backend', `${network.name}: expected one of ${BACKENDS.join(', ')}, got ${JSON.stringify(backend)}`);
    }
    const file = files.get(network.name);
    const start = starts.get(network.name);
    if (backend !== 'lite') {
      if (file !== undefined) throw new ConfigError('--lite-config', `${network.name} is not a lite network (give --backend ${network.name}=lite)`);
      if (start !== undefined) throw new ConfigError('--index-from', `${network.name} is not a lite network (a local chain is indexed from its first block)`);
      return { ...network, backend: 'local' };
    }
    if (start !== undefined && (!/^\d+$/.test(start) || Number(start) < 1 || Number(start) > 2 ** 32 - 1)) {
      throw new ConfigError('--index-from', `${network.name}: expected a masterchain seqno from 1, got ${JSON.stringify(start)}`);
    }
    const configFile = file ?? SHIPPED_GLOBAL_CONFIGS[network.name];
    if (!configFile) {
      throw new ConfigError('--lite-config', `${network.name}: no global config shipped for this name; give --lite-config ${network.name}=FILE`);
    }
    return {
      ...network,
      backend: 'lite',
      lite: { configFile, globalConfig: readGlobalConfig(configFile), ...(start !== undefined ? { indexFrom: Number(start) } : {}) },
    };
  });
}

function pairsByNetwork(networks: NetworkConfig[], pairs: string[], option: string): Map<string, string> {
  const byName = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new ConfigError(option, `expected name=value, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (!networks.some((n) => n.name === name)) {
      throw new ConfigError(option, `${name} is not a configured network (networks: ${networks.map((n) => n.name).join(', ')})`);
    }
    if (byName.has(name)) throw new ConfigError(option, `${name} is given twice`);
    if (value === '') throw new ConfigError(option, `${name}: empty value`);
    byName.set(name, value);
  }
  return byName;
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
