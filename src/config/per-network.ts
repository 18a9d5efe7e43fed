/**
 * Options that take one value per network (`--backend mainnet=upstream`, `--upstream-v2 mainnet=URL`):
 * given as repeated `name=value` flags, a comma-separated environment variable
 * (`TONGATE_UPSTREAM_V2=mainnet=URL1,mainnet=URL2`), or in the file as a map (`upstreamV2: {mainnet: [URL1, URL2]}`)
 * or a list of `name=value` strings. The result keeps every pair in order, so options that allow several
 * values per network (URLs) collect them, and the others refuse a second one.
 */
import { ConfigError } from './errors.js';

export type NetworkPairs = Array<[network: string, value: string]>;

export function asNetworkPairs(raw: unknown, label: string): NetworkPairs {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    return Object.entries(raw).flatMap(([network, value]) =>
      (Array.isArray(value) ? value : [value]).map((item): [string, string] => [network, scalar(item, `${label}.${network}`)]),
    );
  }
  const items = Array.isArray(raw) ? raw.map((item) => scalar(item, label)) : scalar(raw, label).split(',');
  return items.map((item) => {
    const text = item.trim();
    const eq = text.indexOf('=');
    if (eq <= 0) throw new ConfigError(label, `expected network=value, got ${JSON.stringify(text)}`);
    return [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
  });
}

function scalar(raw: unknown, label: string): string {
  if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
  if (typeof raw === 'number') return String(raw);
  throw new ConfigError(label, `expected a non-empty value, got ${JSON.stringify(raw)}`);
}

/** The same for secrets (upstream keys): a malformed value is reported without being shown. */
export function asSecretNetworkPairs(raw: unknown, label: string): NetworkPairs {
  try {
    return asNetworkPairs(raw, label);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(label, 'expected network=key (the value is not shown: it is a secret)');
    throw error;
  }
}

/** Refuses pairs that name a network that is not configured; returns the pairs (none when absent). */
export function knownNetworks(option: string, pairs: NetworkPairs | undefined, names: ReadonlySet<string>): NetworkPairs {
  for (const [network] of pairs ?? []) {
    if (!names.has(network))
      throw new ConfigError(option, `unknown network ${JSON.stringify(network)} (configured: ${[...names].join(', ')})`);
  }
  return pairs ?? [];
}

/** Every value given for `network`, in order. */
export function valuesOf(pairs: NetworkPairs, network: string): string[] {
  return pairs.filter(([name]) => name === network).map(([, value]) => value);
}

/** The one value given for `network` (undefined: none); a second one is refused. */
export function singleValue(option: string, pairs: NetworkPairs, network: string): string | undefined {
  const values = valuesOf(pairs, network);
  if (values.length > 1) throw new ConfigError(option, `${network} is given ${values.length} values; one is allowed`);
  return values[0];
}
