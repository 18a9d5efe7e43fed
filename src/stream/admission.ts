/**
 * Who may open a stream, decided at connect. A key is required (toncenter's rule for streaming), then it is
 * judged as on any request (unknown: 401, another network's: 403, over its rate: 429, in the v2 envelope; the
 * connect counts as one request). The caps come after: parallel connections per key (default 2, toncenter's free
 * tier) and subscribed addresses per connection (default 1,000), each the key's own (`stream_connections`,
 * `stream_addresses`), else its account's, when set. With the access layer off (`--access off`: tongate behind
 * another gateway) nothing is asked and nothing is capped.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessLayer } from '../access/index.js';
import { extractApiKey } from '../http/access-hook.js';

export interface StreamLimits {
  /** Parallel streams per key (-1: no cap). */
  connectionsPerKey: number;
  /** Addresses one stream may follow (-1: no cap). */
  addressesPerConnection: number;
}

/** toncenter's free tier: 2 parallel connections per key. */
export const DEFAULT_LIMITS: StreamLimits = { connectionsPerKey: 2, addressesPerConnection: 1000 };

const KEY_REQUIRED = { ok: false, error: 'API key is required for streaming', code: 401 } as const;

/** An admitted stream: the key's public id (null with the access layer off) and its caps (-1: none). */
export interface Admitted {
  keyId: string | null;
  connections: number;
  addresses: number;
}

/**
 * Answers the request itself when the stream is refused (then `undefined`). The caps are the key's own, else
 * its account's (`tongate keys create --stream-connections N --stream-addresses M`, `tongate accounts set ...`), else the
 * defaults.
 */
export async function admit(
  access: AccessLayer,
  request: FastifyRequest,
  reply: FastifyReply,
  limits: StreamLimits,
): Promise<Admitted | undefined> {
  if (!access.enabled) return { keyId: null, connections: -1, addresses: -1 };
  const key = extractApiKey(request);
  if (key === undefined) {
    reply.code(401).send(KEY_REQUIRED);
    return undefined;
  }
  const decision = await access.check({ network: request.network.name, key, clientIp: '' });
  if (decision.keyId !== undefined) request.apiKeyId = decision.keyId;
  if (!decision.allowed) {
    reply.code(decision.status).headers(decision.headers).send(decision.body);
    return undefined;
  }
  return {
    keyId: decision.keyId ?? null,
    connections: decision.streamConnections ?? limits.connectionsPerKey,
    addresses: decision.streamAddresses ?? limits.addressesPerConnection,
  };
}

export const connectionLimitError = (limit: number) => `connection limit reached: ${limit} active connections`;

/** toncenter's refusal of a subscription over the cap: SSE at connect, WS at `subscribe` (a subscribe replaces all: current 0). */
export const addressLimitError = {
  sse: (count: number, max: number) => `too many addresses: ${count} > max ${max}`,
  ws: (count: number, max: number) => `address limit exceeded: current 0 + new ${count} > max ${max}`,
};
