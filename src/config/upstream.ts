/**
 * Gives each network its backend and, for networks of kind `upstream`, their upstream configuration, from
 * the per-network options of upstream-options.ts. Everything that cannot work is refused here (exit 2):
 * an option naming an unknown network, upstream URLs on a local network, an upstream network without any.
 */
import { ConfigError } from './errors.js';
import type { NetworkPairs } from './per-network.js';
import type { NetworkBackend, NetworkConfig, UpstreamConfig } from './types.js';

const BACKENDS: NetworkBackend[] = ['local', 'upstream'];
const DEFAULT_CONCURRENCY = 64;
const DEFAULT_CACHE_MS = 1000;

export interface UpstreamValues {
  backend?: NetworkPairs;
  upstreamV2?: NetworkPairs;
  upstreamV3?: NetworkPairs;
  upstreamKey?: NetworkPairs;
  upstreamRps?: NetworkPairs;
  upstreamConcurrency?: NetworkPairs;
  upstreamCache?: NetworkPairs;
  upstreamTimeout: number;
  upstreamMaxResponse: number;
}

export function applyBackends(networks: NetworkConfig[], values: UpstreamValues): NetworkConfig[] {
  const names = new Set(networks.map((n) => n.name));
  const check = (option: string, pairs: NetworkPairs | undefined): NetworkPairs => {
    for (const [network] of pairs ?? []) {
      if (!names.has(network)) throw new ConfigError(option, `unknown network ${JSON.stringify(network)} (configured: ${[...names].join(', ')})`);
    }
    return pairs ?? [];
  };
  const backend = check('--backend', values.backend);
  const v2 = check('--upstream-v2', values.upstreamV2);
  const v3 = check('--upstream-v3', values.upstreamV3);
  const key = check('--upstream-key', values.upstreamKey);
  const rps = check('--upstream-rps', values.upstreamRps);
  const concurrency = check('--upstream-concurrency', values.upstreamConcurrency);
  const cache = check('--upstream-cache', values.upstreamCache);

  return networks.map((network) => {
    const kind = single('--backend', backend, network.name) ?? 'local';
    if (!BACKENDS.includes(kind as NetworkBackend)) throw new ConfigError('--backend', `${network.name}: expected one of ${BACKENDS.join(', ')}, got ${JSON.stringify(kind)}`);
    const urls2 = all(v2, network.name).map((url) => upstreamUrl('--upstream-v2', network.name, url));
    const urls3 = all(v3, network.name).map((url) => upstreamUrl('--upstream-v3', network.name, url));
    const own = [key, rps, concurrency, cache].some((pairs) => all(pairs, network.name).length > 0);
    if (kind !== 'upstream') {
      if (urls2.length + urls3.length > 0 || own) {
        throw new ConfigError('--backend', `${network.name} has upstream options but its backend is ${kind}: add --backend ${network.name}=upstream`);
      }
      return { ...network, backend: kind as NetworkBackend };
    }
    if (urls2.length + urls3.length === 0) {
      throw new ConfigError('--upstream-v2', `${network.name} is an upstream network: give --upstream-v2 ${network.name}=URL and/or --upstream-v3 ${network.name}=URL`);
    }
    const rpsText = single('--upstream-rps', rps, network.name);
    const upstream: UpstreamConfig = {
      v2: urls2,
      v3: urls3,
      apiKey: single('--upstream-key', key, network.name),
      rps: rpsText === undefined ? undefined : integer('--upstream-rps', network.name, rpsText, 1, 1_000_000),
      concurrency: integer('--upstream-concurrency', network.name, single('--upstream-concurrency', concurrency, network.name) ?? String(DEFAULT_CONCURRENCY), 1, 10_000),
      cacheMs: integer('--upstream-cache', network.name, single('--upstream-cache', cache, network.name) ?? String(DEFAULT_CACHE_MS), 0, 600_000),
      timeoutMs: values.upstreamTimeout,
      maxResponseBytes: values.upstreamMaxResponse,
    };
    return { ...network, backend: 'upstream', upstream };
  });
}

function all(pairs: NetworkPairs, network: string): string[] {
  return pairs.filter(([name]) => name === network).map(([, value]) => value);
}

function single(option: string, pairs: NetworkPairs, network: string): string | undefined {
  const values = all(pairs, network);
  if (values.length > 1) throw new ConfigError(option, `${network} is given ${values.length} values; one is allowed`);
  return values[0];
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(option, `${network}: expected an http or https URL, got ${url.protocol}`);
  if (url.username || url.password) throw new ConfigError(option, `${network}: no credentials in the URL: give the key with --upstream-key`);
  if (url.search || url.hash) throw new ConfigError(option, `${network}: the URL must not have a query or fragment (give the API's base, e.g. https://toncenter.com/api/v2)`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
