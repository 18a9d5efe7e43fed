/**
 * `GET /networks` on every base URL: the networks this tongate serves, each with its public base URL, kind and
 * global_id, so a client (the console's network switch) can go from one to another: each network is its own origin.
 * Built once from the configuration alone (nothing of the request, not even its Host, changes it), the same answer on
 * every base URL. It tells nothing new: a request to an address no network serves is already answered with the list
 * of base URLs (network-router.ts). Outside /api, so never limited and no key asked, like /healthcheck.
 */
import type { FastifyInstance } from 'fastify';
import type { NetworkContext } from './network-context.js';

export interface NetworkListEntry {
  name: string;
  /** The configured public base URL, scheme://host[:port] (the API lives under /api/v2 and /api/v3 of it). */
  base_url: string;
  kind: 'local' | 'lite' | 'upstream';
  global_id: number;
}

export function networkList(networks: readonly NetworkContext[]): { networks: NetworkListEntry[] } {
  return {
    networks: networks.map((n) => ({ name: n.name, base_url: n.baseUrl.origin, kind: n.backend ?? 'local', global_id: n.globalId })),
  };
}

/** `networks`: all of this tongate's networks, on every listener (a network on another port is still one of them). */
export function registerNetworkList(app: FastifyInstance, networks: readonly NetworkContext[]): void {
  const body = JSON.stringify(networkList(networks));
  app.get('/networks', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=60').send(body),
  );
}
