/**
 * The admin HTTP API and /metrics, for remote operators. Stable API (the HTTP server wires it):
 *
 *   registerAdminRoutes(app, access, { adminToken })
 *
 * Without an admin token nothing is registered (404): the admin API is off. With one, every route
 * needs `Authorization: Bearer <token>` (401 otherwise), so metrics are never served to anonymous
 * clients of the public base URLs. Bodies use the v2 envelope: {"ok":true,"result":...} or
 * {"ok":false,"error":"...","code":N}. The same KeyAdmin as the CLI does the work:
 *
 *   GET    /admin/keys               list keys (never the keys themselves: ids and display prefixes)
 *   POST   /admin/keys               {network, rps?, account?, label?, expires?, key?, stream_connections?, stream_addresses?} -> 201, the key shown once
 *   GET    /admin/keys/:id           one key
 *   PATCH  /admin/keys/:id           {rps?, stream_connections?, stream_addresses?}: the key's own limits (at least one)
 *   DELETE /admin/keys/:id           revoke (also POST /admin/keys/:id/revoke)
 *   GET    /admin/accounts           account limits
 *   PUT    /admin/accounts/:name     {network, rps, stream_connections?, stream_addresses?}: the account's shared limit on that network
 *   GET    /admin/usage[?network=N]  requests and 429s per key per minute over the last hour, the keyless rule's, and
 *                                    the 401/403/429 answers per minute, per network (src/access/usage.ts)
 *   GET    /metrics                  Prometheus text format
 *
 * It also adds the one onResponse hook that counts answered requests: by network, version, method and status for
 * /metrics (requestCounter), and with `usage` what /admin/usage reports (usageCounter). One hook, not one per counter:
 * each hook fastify runs costs a step of its hook runner on every request. The counter is returned: the upstream
 * front door (src/upstream/front.ts) counts the requests it answers before fastify with it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminError, type AccessLayer, type KeyAdmin } from '../access/index.js';
import { requestCounter, type ResponseCounter } from './access-hook.js';
import type { RequestUsage } from '../access/usage.js';
import { bearerMatches } from './bearer.js';
import { usageCounter } from './usage-counter.js';

export interface AdminRoutesOptions {
  adminToken?: string;
  /** Per-key minute counts, shared by every listener of a gateway (counted only when the admin API is on). */
  usage?: RequestUsage;
}

export function registerAdminRoutes(app: FastifyInstance, access: AccessLayer, { adminToken, usage }: AdminRoutesOptions): ResponseCounter {
  const countRequest = requestCounter(access);
  // Nobody could read the usage counts without the admin API, so nothing is counted then.
  const countUsage = adminToken && usage && access.enabled ? usageCounter(usage) : undefined;
  const countAnswer: ResponseCounter =
    countUsage === undefined
      ? countRequest
      : (request, reply) => {
          countRequest(request, reply);
          countUsage(request, reply);
        };
  app.addHook('onResponse', (request, reply, done) => {
    countAnswer(request, reply);
    done();
  });
  if (!adminToken) return countAnswer;

  const authorized = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (bearerMatches(request.headers.authorization, adminToken)) return true;
    reply
      .code(401)
      .header('www-authenticate', 'Bearer')
      .send({ ok: false, error: 'Admin token required: Authorization: Bearer <token>', code: 401 });
    return false;
  };

  app.get('/metrics', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const { contentType, body } = await access.metrics.render();
    return reply.type(contentType).send(body);
  });

  app.register(
    async (admin) => {
      admin.addHook('onRequest', async (request, reply) => {
        if (!authorized(request, reply)) return reply;
        if (!access.admin)
          return reply.code(409).send({ ok: false, error: 'access layer is off (--access off): there are no keys to manage', code: 409 });
      });
      admin.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
        if (error instanceof AdminError) return reply.code(error.status).send({ ok: false, error: error.message, code: error.status });
        const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) request.log.error({ err: { name: error.name, message: error.message } }, 'admin request failed');
        return reply.code(status).send({ ok: false, error: status === 500 ? 'internal error' : error.message, code: status });
      });
      const keys = (): KeyAdmin => access.admin!;

      admin.get('/keys', async () => ({ ok: true, result: await keys().listKeys() }));
      admin.post('/keys', async (request, reply) => {
        const body = objectBody(request.body);
        const created = await keys().createKey({
          network: body.network as string,
          rps: body.rps as number | undefined,
          account: body.account as string | undefined,
          label: body.label as string | undefined,
          expires: body.expires as string | number | undefined,
          key: body.key as string | undefined,
          streamConnections: body.stream_connections as number | undefined,
          streamAddresses: body.stream_addresses as number | undefined,
        });
        return reply.code(201).send({ ok: true, result: created });
      });
      admin.get('/keys/:id', async (request) => ({ ok: true, result: await keys().showKey((request.params as { id: string }).id) }));
      admin.patch('/keys/:id', async (request) => {
        const body = objectBody(request.body);
        // A field this route does not change is refused, so a typo (or a label sent here) is not silently dropped.
        const other = Object.keys(body).find((field) => !KEY_LIMIT_FIELDS.includes(field));
        if (other !== undefined)
          throw new AdminError(422, `${other.slice(0, 64)}: not a limit of a key (PATCH changes ${KEY_LIMIT_FIELDS.join(', ')})`);
        return {
          ok: true,
          result: await keys().setKeyLimits((request.params as { id: string }).id, {
            rps: body.rps as number | undefined,
            streamConnections: body.stream_connections as number | undefined,
            streamAddresses: body.stream_addresses as number | undefined,
          }),
        };
      });
      const revoke = async (request: FastifyRequest) => ({
        ok: true,
        result: await keys().revokeKey((request.params as { id: string }).id),
      });
      admin.delete('/keys/:id', revoke);
      admin.post('/keys/:id/revoke', revoke);
      admin.get('/usage', async (request) => {
        const network = (request.query as { network?: unknown }).network;
        if (network !== undefined && typeof network !== 'string') throw new ApiBodyError('network: one network name');
        return { ok: true, result: usage ? usage.report(network) : [] };
      });
      admin.get('/accounts', async () => ({ ok: true, result: await keys().listAccountLimits() }));
      admin.put('/accounts/:name', async (request) => {
        const body = objectBody(request.body);
        const name = (request.params as { name: string }).name;
        return {
          ok: true,
          result: await keys().setAccountLimit({
            name,
            network: body.network as string,
            rps: body.rps as number,
            streamConnections: body.stream_connections as number | undefined,
            streamAddresses: body.stream_addresses as number | undefined,
          }),
        };
      });
    },
    { prefix: '/admin' },
  );
  return countAnswer;
}

const KEY_LIMIT_FIELDS = ['rps', 'stream_connections', 'stream_addresses'];

class ApiBodyError extends Error {
  readonly statusCode = 400;
}

function objectBody(body: unknown): Record<string, unknown> {
  // Not a value of the right field but no object at all: 400, as the /devnet controls answer it.
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiBodyError('body: a JSON object is required');
  return body as Record<string, unknown>;
}
