/**
 * Which sockets tongate listens on. Without --listen: one listener per base-URL port; networks that share a
 * port are told apart by Host. With --listen: one listener for all (e.g. behind a TLS proxy).
 */
import { ConfigError } from '../config/errors.js';
import { effectivePort } from '../config/networks.js';
import type { NetworkConfig, TongateConfig } from '../config/types.js';
import { isIpLiteral, isLoopback } from './host.js';

export interface ListenerPlan {
  host: string;
  port: number;
  /** TLS is terminated here (https base URLs with --tls-cert/--tls-key). */
  tls: boolean;
  networks: NetworkConfig[];
}

export function planListeners(config: TongateConfig): ListenerPlan[] {
  const groups = new Map<string, NetworkConfig[]>();
  for (const network of config.networks) {
    const key = config.listen ? `${config.listen.host}:${config.listen.port}` : String(effectivePort(network.baseUrl));
    groups.set(key, [...(groups.get(key) ?? []), network]);
  }
  return [...groups.values()].map((networks) => {
    const https = networks.filter((n) => n.baseUrl.protocol === 'https:');
    if (!config.listen && https.length > 0 && https.length < networks.length) {
      throw new ConfigError(
        '--network',
        `${networks.map((n) => n.name).join(' and ')} share port ${effectivePort(networks[0].baseUrl)} but not the scheme (http/https)`,
      );
    }
    const tls = https.length > 0 && Boolean(config.tlsCert);
    if (config.listen) return { ...config.listen, tls, networks };
    return { host: bindHost(networks), port: effectivePort(networks[0].baseUrl), tls, networks };
  });
}

/** Loopback base URLs stay on loopback; an IP literal binds that address; a DNS name listens everywhere. */
function bindHost(networks: NetworkConfig[]): string {
  const hosts = [...new Set(networks.map((n) => n.baseUrl.hostname.replace(/^\[|\]$/g, '')))];
  if (hosts.every(isLoopback)) return hosts.length === 1 && hosts[0] !== 'localhost' ? hosts[0] : '127.0.0.1';
  if (hosts.length === 1 && isIpLiteral(hosts[0])) return hosts[0];
  return '0.0.0.0';
}
