/**
 * What a request looks like in the logs: method, URL with any `api_key` cut out, and the client address.
 * Headers are never logged, so X-API-Key never reaches a log line.
 */
import type { FastifyRequest } from 'fastify';

export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[redacted]');
}

export const requestLogSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};
