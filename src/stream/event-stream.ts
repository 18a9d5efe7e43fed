/**
 * An SSE response opened on fastify's reply socket (`reply.hijack()`): status 200, `text/event-stream`, no caching,
 * no proxy buffering, with the headers hooks already set (CORS, RateLimit). What is written next is the stream's.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  return res;
}
