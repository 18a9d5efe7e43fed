/**
 * The upstream configuration of networks of kind `upstream`, from the per-network options of upstream-options.ts.
 * Everything that cannot work is refused here (exit 2): an option naming an unknown network, upstream options on
 * a network of another kind, an upstream network without any URL.
 */
import { ConfigError } from './errors.js';
import { knownNetworks, singleValue, valuesOf, type NetworkPairs } from './per-network.js';
import type { NetworkConfig, UpstreamConfig } from './types.js';

const DEFAULT_CONCURRENCY = 64;
const DEFAULT_CACHE_MS = 1000;

export interface UpstreamValues {
  upstreamV2?: NetworkPairs;
  upstreamV3?: NetworkPairs;
  upstreamKey?: NetworkPairs;
  upstreamRps?: NetworkPairs;
  upstreamConcurrency?: NetworkPairs;
  upstreamCache?: NetworkPairs;
  upstreamTimeout: number;
  upstreamMaxResponse: number;
  upstreamHealthInterval: number;
  upstreamBreakerOpen: number;
}

/** `networks` with their kind already given (backends.ts); upstream ones get their `upstream` configuration. */
export function applyUpstreams(networks: NetworkConfig[], values: UpstreamValues): NetworkConfig[] {
  const names = new Set(networks.map((n) => n.name));
  const v2 = knownNetworks('--upstream-v2', values.upstreamV2, names);
  const v3 = knownNetworks('--upstream-v3', values.upstreamV3, names);
  const key = knownNetworks('--upstream-key', values.upstreamKey, names);
  const rps = knownNetworks('--upstream-rps', values.upstreamRps, names);
  const concurrency = knownNetworks('--upstream-concurrency', values.upstreamConcurrency, names);
  const cache = knownNetworks('--upstream-cache', values.upstreamCache, names);

  return networks.map((network) => {
    const urls2 = valuesOf(v2, network.name).map((url) => upstreamUrl('--upstream-v2', network.name, url));
    const urls3 = valuesOf(v3, network.name).map((url) => upstreamUrl('--upstream-v3', network.name, url));
    const own = [key, rps, concurrency, cache].some((pairs) => valuesOf(pairs, network.name).length > 0);
    if (network.backend !== 'upstream') {
      if (urls2.length + urls3.length > 0 || own) {
        throw new ConfigError(
          '--backend',
          `${network.name} has upstream options but its backend is ${network.backend}: add --backend ${network.name}=upstream`,
        );
      }
      return network;
    }
    if (urls2.length + urls3.length === 0) {
      throw new ConfigError(
        '--upstream-v2',
        `${network.name} is an upstream network: give --upstream-v2 ${network.name}=URL and/or --upstream-v3 ${network.name}=URL`,
      );
    }
    const rpsText = singleValue('--upstream-rps', rps, network.name);
    const upstream: UpstreamConfig = {
      v2: urls2,
      v3: urls3,
      apiKey: singleValue('--upstream-key', key, network.name),
      rps: rpsText === undefined ? undefined : integer('--upstream-rps', network.name, rpsText, 1, 1_000_000),
      concurrency: integer(
        '--upstream-concurrency',
        network.name,
        singleValue('--upstream-concurrency', concurrency, network.name) ?? String(DEFAULT_CONCURRENCY),
        1,
        10_000,
      ),
      cacheMs: integer(
        '--upstream-cache',
        network.name,
        singleValue('--upstream-cache', cache, network.name) ?? String(DEFAULT_CACHE_MS),
        0,
        600_000,
      ),
      timeoutMs: values.upstreamTimeout,
      maxResponseBytes: values.upstreamMaxResponse,
      healthIntervalMs: values.upstreamHealthInterval,
      breakerOpenMs: values.upstreamBreakerOpen,
    };
    return { ...network, upstream };
  });
}

function integer(option: string, network: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(option, `${network}: expected an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** An upstream base URL: http(s), no credentials (the key has its own option, kept out of URLs that get logged), no query. */
function upstreamUrl(option: string, network: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(option, `${network}: not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(option, `${network}: expected an http or https URL, got ${url.protocol}`);
  if (url.username || url.password)
    throw new ConfigError(option, `${network}: no credentials in the URL: give the key with --upstream-key`);
  if (url.search || url.hash)
    throw new ConfigError(
      option,
      `${network}: the URL must not have a query or fragment (give the API's base, e.g. https://toncenter.com/api/v2)`,
    );
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
