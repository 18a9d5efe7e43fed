/**
 * `POST /api/streaming/v2/sse`: the body is the subscription; a bad one is a 400 `{"id"?, "error"}` before
 * anything streams, too many addresses a 400 `too many addresses: N > max M`, the key's cap reached a 429
 * `connection limit reached: N active connections` (toncenter's words). Then `text/event-stream` on fastify's
 * reply socket: `event: connected` with `{"id"?, "status":"subscribed"}`, each notification as `event: event`,
 * and a `: keepalive` comment every 15 s (the hub's one timer for all of them).
 */
import type { FastifyInstance } from 'fastify';
import type { StreamContext } from './context.js';
import type { Transport } from './connection.js';
import { addressLimitError, admit, connectionLimitError } from './admission.js';
import { openEventStream } from './event-stream.js';
import { relaySse, upstreamStreamingOf } from './upstream-relay.js';
import { applySubscribe, defaultActionTypes, emptySubscription, parseSubscribe, requestId, SubscriptionError } from './subscription.js';

export const SSE_PATH = '/api/streaming/v2/sse';

const frame = (event: string, data: string) => `event: ${event}\ndata: ${data}\n\n`;
/** The same frame around a notification's UTF-8 bytes (made ahead: confirmed-ahead.ts). */
const frameBytes = (event: string, data: Uint8Array) => Buffer.concat([Buffer.from(`event: ${event}\ndata: `), data, Buffer.from('\n\n')]);

export function registerSse(app: FastifyInstance, context: StreamContext): void {
  app.post(SSE_PATH, async (request, reply) => {
    const hub = context.hubOf(request.network);
    const upstream = hub ? undefined : upstreamStreamingOf(request.network);
    if (!hub && !upstream) return reply.code(404).send({ error: context.notServed(request.network) });
    const id = requestId(request.body);
    let subscribe;
    try {
      subscribe = parseSubscribe(request.body);
    } catch (error) {
      if (!(error instanceof SubscriptionError)) throw error;
      return reply.code(400).send({ ...(id !== undefined ? { id } : {}), error: error.message });
    }
    const admitted = await admit(context.access, request, reply, context.limits);
    if (admitted === undefined) return reply;
    const { keyId } = admitted;
    if (admitted.addresses >= 0 && subscribe.addresses.length > admitted.addresses) {
      return reply.code(400).send({
        ...(id !== undefined ? { id } : {}),
        error: addressLimitError.sse(subscribe.addresses.length, admitted.addresses),
      });
    }
    const connectionId = context.nextId();
    if (keyId !== null && !(await context.caps.acquire(keyId, connectionId, admitted.connections))) {
      return reply.code(429).send({ ...(id !== undefined ? { id } : {}), error: connectionLimitError(admitted.connections) });
    }
    if (!hub) return relaySse(context, upstream!, request, reply, connectionId, keyId);
    const res = openEventStream(reply);
    const transport: Transport = {
      buffered: () => res.writableLength,
      write: (text) => void res.write(typeof text === 'string' ? frame('event', text) : frameBytes('event', text)),
      cork: () => res.cork(),
      uncork: () => res.uncork(),
      close: (reason) => res.end(`: closed: ${reason}\n\n`),
    };
    const connection = context.connect(hub, connectionId, transport, keyId, (c) => context.sse.delete(c));
    connection.subscription = applySubscribe(emptySubscription(defaultActionTypes(request.headers['x-actions-version'])), subscribe);
    res.on('close', () => connection.gone());
    res.write(frame('connected', JSON.stringify({ ...(id !== undefined ? { id } : {}), status: 'subscribed' })));
    context.sse.set(connection, res);
    hub.add(connection);
  });
  app.get(SSE_PATH, async (_request, reply) =>
    reply.code(405).send({ error: 'unsupported http method: GET (the SSE stream takes a POST with the subscription as its JSON body)' }),
  );
}
