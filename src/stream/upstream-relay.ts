/**
 * Streaming on an upstream network: the client's stream is passed through to the upstream's own streaming API
 * (src/upstream/streaming.ts opens it with tongate's key). tongate's rules stay in front, decided here as for a
 * local stream before anything is opened upstream: a key required, 401/403/429 (admission.ts), the key's cap on
 * parallel streams (counted once, by tongate: a relay holds its place until either side ends) and on addresses.
 *
 * SSE: the upstream's `text/event-stream` bytes are written as they come (its own `connected`, events and
 * keepalives: tongate adds nothing, so a frame is never cut by one of its own), with backpressure (the upstream
 * is paused while the client's socket is full). A failure before the stream opened is a 502/503/504 in
 * toncenter's `{"error"}` shape; the upstream's own refusal of the subscription (a 400) is passed as it is.
 * WS: every text frame relayed both ways; a failure to open is an `{"error"}` message then a close with the reason
 * (1011; 1013 when the upstream asks to come back later); the upstream's close is relayed with its code and reason.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { NetworkContext } from '../http/network-context.js';
import { UpstreamFailure } from '../upstream/failure.js';
import { UpstreamRefusal, type UpstreamStreaming } from '../upstream/streaming.js';
import type { StreamContext } from './context.js';
import type { StreamConnection } from './connection.js';
import { openEventStream } from './event-stream.js';
import { addressLimitError, type Admitted } from './admission.js';

const TRY_AGAIN_LATER = 1013;
const INTERNAL_ERROR = 1011;
const POLICY = 1008;

/** The upstream streaming API of a network of kind upstream, if it has one. */
export function upstreamStreamingOf(network: NetworkContext): UpstreamStreaming | undefined {
  return (network as { upstream?: { streaming?: UpstreamStreaming } }).upstream?.streaming;
}

const actionsVersion = (request: FastifyRequest) => {
  const value = request.headers['x-actions-version'];
  return typeof value === 'string' ? value : undefined;
};

/** The SSE stream, once admitted and counted under its key (`keyId`, `connectionId`). */
export async function relaySse(
  context: StreamContext,
  streaming: UpstreamStreaming,
  request: FastifyRequest,
  reply: FastifyReply,
  connectionId: string,
  keyId: string | null,
): Promise<FastifyReply | undefined> {
  let upstream;
  try {
    upstream = await streaming.sse(Buffer.from(JSON.stringify(request.body)), actionsVersion(request));
  } catch (error) {
    if (keyId !== null) await context.caps.release(keyId, connectionId);
    if (error instanceof UpstreamRefusal) return reply.code(error.status).type(error.contentType).send(error.body);
    if (!(error instanceof UpstreamFailure)) throw error;
    request.log.debug({ failure: error.kind, message: error.message }, 'upstream stream failed');
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return reply.code(error.status).send({ error: error.message });
  }
  const res = openEventStream(reply);
  const body = upstream.body;
  const connection = context.connect(
    undefined,
    connectionId,
    {
      buffered: () => res.writableLength,
      write: (text) => void res.write(text),
      close: (reason) => res.end(`: closed: ${reason}\n\n`),
    },
    keyId,
    (c) => {
      context.relays.delete(c);
      upstream.abort();
      body.destroy();
    },
  );
  context.relays.add(connection);
  res.on('close', () => connection.gone());
  res.on('drain', () => body.resume());
  body.on('data', (chunk: Buffer) => {
    if (connection.closed) return;
    if (!res.write(chunk)) body.pause();
  });
  body.on('end', () => connection.close('the upstream ended the stream'));
  body.on('error', (error: Error & { code?: string }) =>
    connection.close(`the upstream stream failed (${error.code ?? error.name ?? 'error'})`),
  );
  return undefined;
}

/** Counts the addresses of a `subscribe` the client sends (tongate's cap per connection applies before the upstream's). */
function subscribedAddresses(text: string): number | undefined {
  if (!text.includes('subscribe')) return undefined;
  try {
    const body = JSON.parse(text) as { operation?: unknown; addresses?: unknown; accounts?: unknown };
    if (body?.operation !== 'subscribe') return undefined;
    const list = Array.isArray(body.addresses) ? body.addresses : Array.isArray(body.accounts) ? body.accounts : [];
    return list.length;
  } catch {
    return undefined;
  }
}

/** The WebSocket, once upgraded, admitted and counted under its key. */
export function relayWs(
  context: StreamContext,
  streaming: UpstreamStreaming,
  socket: WebSocket,
  request: FastifyRequest,
  connectionId: string,
  admitted: Admitted,
): void {
  const { keyId } = admitted;
  let upstream: WebSocket | undefined;
  /** What the client sent while the upstream was being opened. */
  const early: string[] = [];
  const connection: StreamConnection = context.connect(
    undefined,
    connectionId,
    {
      buffered: () => socket.bufferedAmount,
      write: (text) => socket.send(text),
      close: (reason) => socket.close(reason.startsWith('idle') || reason.startsWith('the server') ? 1001 : POLICY, reason.slice(0, 120)),
    },
    keyId,
    (c) => {
      context.ws.delete(c);
      upstream?.close(1000);
    },
  );
  context.ws.add(connection);
  socket.on('close', () => connection.gone());
  socket.on('message', (data, isBinary) => {
    connection.lastSeen = context.clock.now();
    if (isBinary) return;
    const text = data.toString();
    const count = subscribedAddresses(text);
    const max = admitted.addresses;
    if (count !== undefined && max >= 0 && count > max) {
      const id = (JSON.parse(text) as { id?: unknown }).id;
      socket.send(JSON.stringify({ ...(typeof id === 'string' ? { id } : {}), error: addressLimitError.ws(count, max) }));
      return;
    }
    if (upstream) upstream.send(text);
    else early.push(text);
  });
  streaming.ws(actionsVersion(request)).then(
    (opened) => {
      if (connection.closed) return void opened.close(1000);
      upstream = opened;
      for (const text of early.splice(0)) opened.send(text);
      opened.on('message', (data, isBinary) => {
        if (connection.closed) return;
        if (isBinary) return;
        connection.send(data.toString());
      });
      opened.on('close', (code, reason) => {
        if (connection.closed) return;
        // 1005/1006: the upstream said nothing (it died): that is not a code one may send.
        const relayed = code >= 1000 && code < 5000 && code !== 1005 && code !== 1006 && code !== 1015;
        connection.gone();
        socket.close(relayed ? code : INTERNAL_ERROR, relayed ? reason.toString().slice(0, 120) : 'the upstream connection was lost');
      });
      opened.on('error', () => {});
      opened.resume();
    },
    (error: unknown) => {
      const message = error instanceof UpstreamRefusal ? `upstream refused the stream (${error.status})` : (error as Error).message;
      request.log.debug({ message }, 'upstream stream failed');
      if (connection.closed) return;
      socket.send(JSON.stringify({ error: message }));
      connection.gone();
      socket.close(error instanceof UpstreamFailure && error.status === 503 ? TRY_AGAIN_LATER : INTERNAL_ERROR, message.slice(0, 120));
    },
  );
}
