/**
 * `GET /api/streaming/v2/ws`: a WebSocket (fastify's plugin over `ws`, so the upgrade request passes the same
 * network router and hooks as any request, and a refused key is an HTTP 401/403 before any upgrade). Then
 * toncenter's operations, each `{"id"?, "operation", ...}`: `subscribe` (replaces the whole subscription; too many
 * addresses: `address limit exceeded: current 0 + new N > max M`), `unsubscribe` (addresses and/or trace norms),
 * `ping` -> `{"id"?, "status":"pong"}`; anything else `{"id"?, "error":"unknown operation: X"}`. The key's cap is
 * toncenter's too: the socket opens, says `{"error":"connection limit reached: N active connections"}` and closes.
 * A client silent for IDLE_MS (toncenter closes idle sockets after about 30 s; clients ping every 15-20 s) is
 * closed by the hub's sweep.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { StreamContext } from './context.js';
import type { StreamConnection, Transport } from './connection.js';
import { addressLimitError, admit, connectionLimitError, type Admitted } from './admission.js';
import {
  applySubscribe,
  defaultActionTypes,
  emptySubscription,
  parseSubscribe,
  parseUnsubscribe,
  requestId,
  SubscriptionError,
} from './subscription.js';
import type { StreamHub } from './hub.js';
import { relayWs, upstreamStreamingOf } from './upstream-relay.js';

export const WS_PATH = '/api/streaming/v2/ws';
/** Close codes: 1008 (policy) for the cap and a slow consumer, 1001 for an idle client or a shutdown. */
const POLICY = 1008;
const GOING_AWAY = 1001;
const TEXT_FRAME = { binary: false };

const answer = (id: string | undefined, body: Record<string, string>) => JSON.stringify({ ...(id !== undefined ? { id } : {}), ...body });

export function registerWs(app: FastifyInstance, context: StreamContext): void {
  app.get(
    WS_PATH,
    {
      websocket: true,
      // Before the upgrade: a refusal is an HTTP answer (401/403/404), as on every other route.
      preHandler: async (request, reply) => {
        if (!context.hubOf(request.network) && !upstreamStreamingOf(request.network))
          return reply.code(404).send({ error: context.notServed(request.network) });
        const admitted = await admit(context.access, request, reply, context.limits);
        if (admitted !== undefined) (request as { stream?: Admitted }).stream = admitted;
        return undefined;
      },
    },
    async (socket, request) => {
      const hub = context.hubOf(request.network);
      const admitted = (request as { stream?: Admitted }).stream!;
      const keyId = admitted.keyId;
      const connectionId = context.nextId();
      if (keyId !== null && !(await context.caps.acquire(keyId, connectionId, admitted.connections))) {
        socket.send(answer(undefined, { error: connectionLimitError(admitted.connections) }));
        socket.close(POLICY, 'connection limit reached');
        return;
      }
      if (!hub) return relayWs(context, upstreamStreamingOf(request.network)!, socket, request, connectionId, admitted);
      // The upgraded request's socket is the one the WebSocket writes its frames to.
      const transport = wsTransport(socket, request.raw.socket);
      const connection = context.connect(hub, connectionId, transport, keyId, (c) => context.ws.delete(c));
      connection.subscription = emptySubscription(defaultActionTypes(request.headers['x-actions-version']));
      context.ws.add(connection);
      hub.add(connection);
      socket.on('close', () => connection.gone());
      socket.on('message', (data, isBinary) => {
        connection.lastSeen = context.clock.now();
        try {
          onMessage(hub, connection, admitted.addresses, socket, isBinary ? '' : data.toString());
        } catch (err) {
          request.log.warn({ err }, 'stream: a WebSocket message could not be handled');
          socket.send(answer(undefined, { error: 'the message could not be handled' }));
        }
      });
    },
  );
}

/**
 * How a notification reaches a WebSocket client: ws's `send`, or, for a notification shared by many clients
 * (ws-frame.ts), its ready frame written to `raw`, the socket ws writes its frames to.
 */
export function wsTransport(socket: WebSocket, raw: Socket): Transport {
  // Without an extension (this route offers none: no permessage-deflate) ws writes each frame to that socket at
  // once, in the order sent, and queues nothing; a frame written there directly keeps that order. A connection
  // that negotiated compression may hold a message back while it deflates: its frames go through ws.
  const takesRawFrames = socket.extensions === '';
  return {
    buffered: () => socket.bufferedAmount,
    // Bytes made ahead go out as a text frame too (their UTF-8 is the text's): ws frames them without a copy.
    write: (text) => (typeof text === 'string' ? socket.send(text) : socket.send(text, TEXT_FRAME)),
    // A shared notification's frame, made once for every client: no framing per client. Once ws closes (its close
    // frame sent or coming), nothing more is written there.
    writeFrame: (frame) => {
      if (!takesRawFrames || socket.readyState !== socket.OPEN) return false;
      raw.write(frame);
      return true;
    },
    close: (reason) =>
      socket.close(reason.startsWith('idle') || reason.startsWith('the server') ? GOING_AWAY : POLICY, reason.slice(0, 120)),
    cork: () => raw.cork(),
    uncork: () => raw.uncork(),
  };
}

function onMessage(hub: StreamHub, connection: StreamConnection, maxAddresses: number, socket: WebSocket, text: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    socket.send(answer(undefined, { error: `invalid request envelope: ${(error as Error).message}` }));
    return;
  }
  const id = requestId(body);
  const operation = body !== null && typeof body === 'object' ? (body as { operation?: unknown }).operation : undefined;
  try {
    switch (operation) {
      case 'ping':
        socket.send(answer(id, { status: 'pong' }));
        return;
      case 'subscribe': {
        const request = parseSubscribe(body, true);
        if (maxAddresses >= 0 && request.addresses.length > maxAddresses) {
          throw new SubscriptionError(addressLimitError.ws(request.addresses.length, maxAddresses));
        }
        hub.resubscribe(connection, applySubscribe(connection.subscription, request));
        socket.send(answer(id, { status: 'subscribed' }));
        return;
      }
      case 'unsubscribe': {
        const { addresses, traces } = parseUnsubscribe(body);
        const next = {
          ...connection.subscription,
          addresses: new Set(connection.subscription.addresses),
          traces: new Set(connection.subscription.traces),
        };
        for (const a of addresses) next.addresses.delete(a);
        for (const t of traces) next.traces.delete(t);
        hub.resubscribe(connection, next);
        socket.send(answer(id, { status: 'unsubscribed' }));
        return;
      }
      default:
        socket.send(answer(id, { error: `unknown operation: ${typeof operation === 'string' ? operation.slice(0, 40) : ''}` }));
    }
  } catch (error) {
    if (!(error instanceof SubscriptionError)) throw error;
    socket.send(answer(id, { error: error.message }));
  }
}
