/**
 * Browsers may call the API from any origin. TonClient always sends X-Ton-Client-Version and keys travel
 * in X-API-Key, so preflights must allow both; limit headers are exposed so browser apps can back off.
 * Preflights are answered here, before the access layer, and never count against a limit.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const ALLOW_HEADERS = 'Content-Type, X-API-Key, X-Ton-Client-Version, Authorization';
const EXPOSE_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After';

export function cors(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', EXPOSE_HEADERS);
  if (request.method !== 'OPTIONS') {
    done();
    return;
  }
  // Answered here: fastify skips the rest (`done` must not be called as well).
  reply
    .code(204)
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', ALLOW_HEADERS)
    .header('access-control-max-age', '86400')
    .send();
}
