/**
 * Serves every v2 method over REST (GET query / POST JSON body) and JSON-RPC. JSON-RPC takes `params` as an
 * object with the REST parameter names (what @ton/ton and tonweb send) and echoes `jsonrpc` and `id`; one call per
 * request (a batch is refused, as toncenter's servers do not answer one).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../util/clock.js';
import { ApiError } from '../../http/api-error.js';
import { extra, okEnvelope, okEnvelopeText } from './envelope.js';
import { JsonText } from '../json-text.js';
import type { AnyV2Method } from './method.js';
import { parseParams } from './params.js';

export interface V2RouteOptions {
  methods: AnyV2Method[];
  clock: Clock;
}

export function registerV2Routes(app: FastifyInstance, { methods, clock }: V2RouteOptions): void {
  const byName = new Map<string, AnyV2Method>();
  for (const method of methods) {
    for (const name of [method.name, ...(method.aliases ?? [])]) byName.set(name, method);
  }

  async function run(method: AnyV2Method, input: Record<string, unknown>, request: FastifyRequest): Promise<unknown> {
    return method.handle(parseParams(method.params, input), request.network);
  }

  for (const [name, method] of byName) {
    const path = `/api/v2/${name}`;
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const started = clock.now();
      const input = request.method === 'GET' ? queryInput(request) : { ...queryInput(request), ...bodyObject(request.body) };
      const result = await run(method, input, request);
      if (result instanceof JsonText) return sendText(reply, okEnvelopeText(result, extra(started, clock.now())));
      return reply.send(okEnvelope(result, extra(started, clock.now())));
    };
    app.route({ method: [...method.verbs], url: path, handler });
    const other = (['GET', 'POST'] as const).filter((verb) => !method.verbs.includes(verb));
    if (other.length > 0) {
      app.route({
        method: other,
        url: path,
        handler: async (request) => {
          throw new ApiError(405, `unsupported http method: ${request.method}`);
        },
      });
    }
  }

  app.post('/api/v2/jsonRPC', async (request, reply) => {
    const started = clock.now();
    // toncenter answers one call per request: its servers take the body as one object (the C++ server fails on an
    // array with an uncaught type error, a 500; the tonlib server's validation answers 422). tongate refuses a batch
    // with the 422, naming it, before anything runs: the rate limiter has counted one request, as for any refusal.
    if (Array.isArray(request.body)) throw new ApiError(422, BATCH_REFUSED);
    const call = bodyObject(request.body);
    const id = rpcId(call.id);
    const method = typeof call.method === 'string' ? byName.get(call.method) : undefined;
    if (!method) throw new ApiError(422, typeof call.method === 'string' ? 'Unknown method' : 'method must be a string');
    const params = call.params ?? {};
    if (typeof params !== 'object' || params === null || (Array.isArray(params) && params.length > 0)) {
      throw new ApiError(422, 'params must contain an object');
    }
    const result = await run(method, Array.isArray(params) ? {} : (params as Record<string, unknown>), request);
    if (result instanceof JsonText) return sendText(reply, okEnvelopeText(result, extra(started, clock.now()), { id }));
    const body: Record<string, unknown> = { ...okEnvelope(result, extra(started, clock.now())), jsonrpc: '2.0' };
    if (id !== undefined) body.id = id;
    return reply.send(body);
  });
  app.get('/api/v2/jsonRPC', async () => {
    throw new ApiError(405, 'method GET is not supported');
  });
}

export const BATCH_REFUSED =
  'JSON-RPC batches (an array of calls) are not supported, as on toncenter: send one call, a JSON object, per request';

/** An envelope already written as text (a result kept as JsonText: src/api/per-block). */
function sendText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/**
 * The JSON-RPC `id`, echoed back as a string (as toncenter does). JSON-RPC ids are strings or numbers;
 * anything else is refused here rather than turned into text (String() of a deeply nested array recurses
 * through every level).
 */
function rpcId(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  throw new ApiError(422, 'id must be a string or a number');
}

/** Query strings give strings, or arrays for repeated keys (e.g. `libraries`). */
function queryInput(request: FastifyRequest): Record<string, unknown> {
  return { ...(request.query as Record<string, unknown>) };
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(422, 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}
