/**
 * A tiny fastify app that mimics the real gateway's shape for the access hook: two networks told
 * apart by Host (mainnet.test, testnet.test), v2 REST (GET and POST), v2 JSON-RPC, v3, health and
 * docs paths. The network hook runs first, like the real server's network router.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Writable } from 'node:stream';
import pino from 'pino';
import type { AccessLayer } from '../../../src/access/index.js';
import { accessHook, accessLogSerializers } from '../../../src/http/access-hook.js';
import { registerAdminRoutes } from '../../../src/http/admin-routes.js';

export const HOSTS = { mainnet: 'mainnet.test', testnet: 'testnet.test' } as const;

export interface TestAppOptions {
  trustProxy?: boolean;
  /** Where the app's logs go (level debug, with the access layer's serializers). */
  logStream?: Writable;
  adminToken?: string;
}

export async function buildTestApp(access: AccessLayer, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: options.trustProxy ?? false,
    ...(options.logStream
      ? { loggerInstance: pino({ level: 'debug', serializers: accessLogSerializers }, options.logStream) as never }
      : { logger: false }),
  }) as unknown as FastifyInstance;
  app.decorateRequest('network', null as never);
  app.addHook('onRequest', async (request) => {
    // request.host: the Host header, or X-Forwarded-Host behind a trusted proxy (fetch cannot set Host).
    const host = request.host ?? '';
    const name = host.startsWith(HOSTS.testnet) ? 'testnet' : host.startsWith(HOSTS.mainnet) ? 'mainnet' : undefined;
    (request as unknown as { network: { name: string } | null }).network = name ? { name } : null;
  });
  app.addHook('onRequest', accessHook(access));
  registerAdminRoutes(app, access, { adminToken: options.adminToken });

  const handler = async (request: { params: unknown }) => ({ ok: true, result: (request.params as { method: string }).method });
  app.get('/api/v2/:method', handler);
  app.post('/api/v2/:method', handler);
  app.post('/api/v2/jsonRPC', async (request) => {
    const body = request.body as { id?: unknown; method?: string };
    return { ok: true, result: body.method ?? null, jsonrpc: '2.0', id: body.id ?? null };
  });
  app.get('/api/v3/masterchainInfo', async () => ({ last: { seqno: 1 } }));
  for (const path of ['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']) app.get(path, async () => ({ status: 'ok' }));
  for (const v of ['v2', 'v3']) {
    app.get(`/api/${v}/openapi.json`, async () => ({ openapi: '3.0.0' }));
    app.get(`/api/${v}/`, async (_request, reply) => reply.type('text/html').send('<html></html>'));
    app.get(`/api/${v}/docs/:asset`, async () => 'asset');
  }
  await app.ready();
  return app;
}
