/**
 * `--dns-root <network=address>`: the DNS root collections whose NFT items the network's index reads as domains
 * (src/index/dns). Repeat it for several roots; `network=none` indexes no domains. Unset: a `lite` network on
 * mainnet or testnet (by global_id) uses toncenter's `.ton` root of that network; a local chain has none (its
 * roots are whatever a developer deploys there: name it with this option). An upstream network has no index.
 */
import type { Address } from '@ton/core';
import { parseAddress, formatRawUpper } from '../ton/address.js';
import { ConfigError } from './errors.js';
import { asNetworkPairs, knownNetworks, valuesOf, type NetworkPairs } from './per-network.js';
import type { OptionSpec } from './option-spec.js';
import type { NetworkConfig } from './types.js';

/** toncenter's `.ton` DNS roots (ton-indexer), by global_id. */
export const TON_DNS_ROOTS: Readonly<Record<number, string>> = {
  [-239]: '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF',
  [-3]: '0:E33ED33A42EB2032059F97D90C706F8400BB256D32139CA707F1564AD699C7DD',
};

export const DNS_ROOT_OPTIONS: OptionSpec[] = [
  {
    key: 'dnsRoot',
    flag: '--dns-root <network=address>',
    description:
      "a DNS root collection whose items the network's index reads as domains (repeatable; network=none: no domains; default: the .ton root on a lite mainnet/testnet, none on a local chain)",
    repeatable: true,
    parse: asNetworkPairs,
  },
];

function rootAddress(text: string, network: string): string {
  let address: Address;
  try {
    address = parseAddress(text).address;
  } catch (error) {
    throw new ConfigError('--dns-root', `${network}: not an address: ${JSON.stringify(text)} (${(error as Error).message})`);
  }
  return formatRawUpper(address);
}

export function applyDnsRoots(networks: NetworkConfig[], pairs?: NetworkPairs): NetworkConfig[] {
  const given = knownNetworks('--dns-root', pairs, new Set(networks.map((n) => n.name)));
  return networks.map((network) => {
    const values = valuesOf(given, network.name);
    if (values.length === 0) {
      const real = network.backend === 'lite' ? TON_DNS_ROOTS[network.globalId] : undefined;
      return { ...network, dnsRoots: real ? [real] : [] };
    }
    if (values.includes('none')) {
      if (values.length > 1) throw new ConfigError('--dns-root', `${network.name}: none cannot be combined with addresses`);
      return { ...network, dnsRoots: [] };
    }
    return { ...network, dnsRoots: [...new Set(values.map((v) => rootAddress(v, network.name)))] };
  });
}
