/**
 * Finds the network a request addressed from its Host (or X-Forwarded-Host behind a trusted proxy) and the
 * port: a network matches when its base URL has the same host name (loopback names are interchangeable) and
 * port. A request that matches none gets a 404 that lists the configured base URLs.
 *
 * The answer only depends on the scheme and the Host value, so it is remembered per (scheme, Host) for the
 * few values a listener actually sees (bounded: a client sending made-up Hosts only costs the lookup), the last
 * one compared first.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { NetworkContext } from './network-context.js';
import { effectivePort } from '../config/networks.js';
import { sameHost, splitHost } from './host.js';
import { sendError } from './errors.js';

/** Distinct (scheme, Host) answers remembered per listener. */
const REMEMBERED_HOSTS = 64;

/** The network served at (scheme, Host) among `networks`, or null: what the router hook and the upstream front door ask. */
export type NetworkFinder = (protocol: string, host: string) => NetworkContext | null;

export function networkFinder(networks: NetworkContext[]): NetworkFinder {
  const remembered = new Map<string, NetworkContext | null>();
  // The last answer, checked first: a listener mostly sees one Host, and comparing two short strings is cheaper than
  // building the map's key (a new string to flatten and hash on every request).
  let lastProtocol = '';
  let lastHost = '';
  let lastFound: NetworkContext | null = null;
  const find = (protocol: string, host: string): NetworkContext | null => {
    if (host === lastHost && protocol === lastProtocol) return lastFound;
    const key = `${protocol} ${host}`;
    let found = remembered.get(key);
    if (found === undefined) {
      found = networks.find((n) => matches(n, protocol, host)) ?? null;
      if (remembered.size < REMEMBERED_HOSTS) remembered.set(key, found);
    }
    lastProtocol = protocol;
    lastHost = host;
    lastFound = found;
    return found;
  };
  return find;
}

export function networkRouter(networks: NetworkContext[], find: NetworkFinder = networkFinder(networks)) {
  return function routeNetwork(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const found = find(request.protocol, request.host ?? '');
    if (found) {
      request.network = found;
      done();
      return;
    }
    const served = networks.map((n) => `${n.name} ${n.baseUrl.origin}`).join(', ');
    sendError(reply, 404, `no network is served at ${request.protocol}://${request.host}; this address serves: ${served}`);
  };
}

function matches(network: NetworkContext, protocol: string, host: string): boolean {
  const { hostname, port } = splitHost(host);
  const requestPort = port ?? (protocol === 'https' ? 443 : 80);
  return sameHost(hostname, network.baseUrl.hostname) && requestPort === effectivePort(network.baseUrl);
}
