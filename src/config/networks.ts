/** Turns `name=url` pairs into networks: validates names and base URLs, assigns each its global_id. */
import { ConfigError } from './errors.js';
import { DEFAULT_NETWORKS, KNOWN_GLOBAL_IDS, TEST_NETWORK_GLOBAL_ID } from './defaults.js';
import type { NetworkConfig } from './types.js';

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

export function resolveNetworks(pairs: string[] | undefined): NetworkConfig[] {
  const given = pairs && pairs.length > 0 ? pairs : Object.entries(DEFAULT_NETWORKS).map(([name, url]) => `${name}=${url}`);
  const networks = given.map(parseNetwork);
  const seen = new Map<string, string>();
  for (const network of networks) {
    if (seen.has(network.name)) throw new ConfigError('--network', `network ${network.name} is given twice`);
    const address = addressKey(network.baseUrl);
    const other = [...seen.entries()].find(([, key]) => key === address);
    if (other) throw new ConfigError('--network', `${network.name} and ${other[0]} have the same base URL ${network.baseUrl.origin}`);
    seen.set(network.name, address);
  }
  return networks;
}

function parseNetwork(pair: string): NetworkConfig {
  const eq = pair.indexOf('=');
  if (eq < 0) throw new ConfigError('--network', `expected name=url, got ${JSON.stringify(pair)}`);
  const name = pair.slice(0, eq).trim();
  const rawUrl = pair.slice(eq + 1).trim();
  if (!NAME.test(name)) throw new ConfigError('--network', `bad network name ${JSON.stringify(name)} (lowercase letters, digits, -)`);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConfigError('--network', `${name}: not a URL: ${JSON.stringify(rawUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('--network', `${name}: the base URL must be http or https, got ${url.protocol}`);
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ConfigError(
      '--network',
      `${name}: the base URL must be scheme://host[:port] only (the API lives under /api/v2 and /api/v3), got ${rawUrl}`,
    );
  }
  return { name, baseUrl: url, globalId: KNOWN_GLOBAL_IDS[name] ?? TEST_NETWORK_GLOBAL_ID, backend: 'local' };
}

/** Two networks may share a port only with different hosts. */
function addressKey(url: URL): string {
  return `${url.hostname.toLowerCase()}:${effectivePort(url)}`;
}

export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}
