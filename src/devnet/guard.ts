/**
 * The one gate of every devnet control: the admin token (when one is configured), then the network's chain,
 * which must be a local one (lite and upstream networks answer 404, in v2's shape like every /devnet error).
 * Every route of this room is registered through `devnetRoute`, so no control can skip the gate.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { toApiError } from '../api/error-statuses.js';
import { okEnvelope } from '../api/v2/envelope.js';
import { isDevnetChain, type DevnetChain } from '../chain/devnet-chain.js';
import { bearerMatches } from '../http/bearer.js';

export interface DevnetOptions {
  adminToken?: string;
  /** Every route registered, with its description: the OpenAPI document is built from this list (openapi.ts). */
  documented: DevnetOperation[];
}

/** One control as the OpenAPI document shows it. */
export interface DevnetOperation {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify's path (`:param`). */
  path: string;
  summary: string;
  /** JSON Schema of the body (POST), if it takes one. */
  body?: Record<string, unknown>;
  /** JSON Schema of `result` in the envelope (a download: of nothing, the answer is the file). */
  result: Record<string, unknown>;
  /**
   * 'upload': the body is a file (`Content-Type: application/octet-stream`, the handler reads `request.body` as a
   * Buffer); 'download': the handler answers a Buffer, sent as the file itself.
   */
  file?: 'upload' | 'download';
}

/** The largest file a control takes (a snapshot of a chain: ~1 KB per transaction). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

export type DevnetHandler = (chain: DevnetChain, body: Record<string, unknown>, request: FastifyRequest) => Promise<unknown> | unknown;

/** Registers a control: gate, body as an object, the chain's typed refusals as 4xx, the result in v2's envelope. */
export function devnetRoute(app: FastifyInstance, options: DevnetOptions, operation: DevnetOperation, handler: DevnetHandler): void {
  options.documented.push(operation);
  app.route({
    method: operation.method,
    url: operation.path,
    ...(operation.file === 'upload' ? { bodyLimit: MAX_UPLOAD_BYTES } : {}),
    handler: async (request, reply) => {
      const chain = devnetChainOf(request, options);
      let raw = request.body ?? {};
      if (operation.file === 'upload') {
        if (!Buffer.isBuffer(raw))
          throw new ApiError(415, 'request body: send the file itself, with Content-Type: application/octet-stream');
        raw = {};
      }
      if (typeof raw !== 'object' || Array.isArray(raw) || raw === null) throw new ApiError(400, 'request body: expected a JSON object');
      const result = await Promise.resolve()
        .then(() => handler(chain, raw as Record<string, unknown>, request))
        .catch((error: unknown) => {
          throw toApiError(error);
        });
      if (operation.file === 'download') return reply.type('application/octet-stream').send(result as Buffer);
      return okEnvelope(result, `${Math.floor(Date.now() / 1000)}:0:0`);
    },
  });
}

/** 404 on a network that is not local, with or without the token (the controls do not exist there); then 401. */
function devnetChainOf(request: FastifyRequest, { adminToken }: DevnetOptions): DevnetChain {
  const chain = request.network.chain;
  if (!isDevnetChain(chain)) throw new ApiError(404, `${request.network.name} is not a local network: it has no devnet controls`);
  if (adminToken !== undefined && !bearerMatches(request.headers.authorization, adminToken)) {
    throw new ApiError(401, 'this endpoint requires Authorization: Bearer <admin token>');
  }
  return chain;
}
