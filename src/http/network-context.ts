/** Each request under a base URL carries the network it addressed (set by the network router). */
import type { NetworkContext } from '../api/network-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    network: NetworkContext;
  }
}

export type { NetworkContext };
