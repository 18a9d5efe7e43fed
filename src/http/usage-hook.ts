/**
 * Feeds `RequestUsage` (src/access/usage.ts: requests and 429s per key per minute, refusals per network) from each
 * answered request under the access rules, after the answer: the access hook itself is left as it is, and what this
 * adds per request is one Map lookup and two array writes. Served by the admin API (`GET /admin/usage`).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler } from 'fastify';
import type { RequestUsage } from '../access/usage.js';
import { isLimitedPath } from './access-hook.js';
import { routedPath } from './request-target.js';

export function usageHook(usage: RequestUsage): onResponseHookHandler {
  return function countUsage(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const network = (request as { network?: { name?: unknown } | null }).network;
    if (network && typeof network.name === 'string' && isLimitedPath(routedPath(request)))
      usage.count(network.name, request.apiKeyId, reply.statusCode);
    done();
  };
}
