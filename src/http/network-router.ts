/**
 * Finds the network a request addressed from its Host (or X-Forwarded-Host behind a trusted proxy) and the
 * port: a network matches when its base URL has the same host name (loopback names are interchangeable) and
 * port. A request that matches none gets a 404 that lists the configured base URLs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../api/network-context.js';
import { effectivePort } from '../config/networks.js';
import { sameHost, splitHost } from './host.js';
import { sendError } from './errors.js';

export function networkRouter(networks: NetworkContext[]) {
  const only = networks.length === 1 ? networks[0] : undefined;
  return async function routeNetwork(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const found = only && matches(only, request) ? only : networks.find((n) => matches(n, request));
    if (found) {
      request.network = found;
      return;
    }
    const served = networks.map((n) => `${n.name} ${n.baseUrl.origin}`).join(', ');
    sendError(reply, 404, `no network is served at ${request.protocol}://${request.host}; this address serves: ${served}`);
  };
}

function matches(network: NetworkContext, request: FastifyRequest): boolean {
  const { hostname, port } = splitHost(request.host ?? '');
  const requestPort = port ?? (request.protocol === 'https' ? 443 : 80);
  return sameHost(hostname, network.baseUrl.hostname) && requestPort === effectivePort(network.baseUrl);
}
