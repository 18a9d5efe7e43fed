/**
 * A tiny fastify app that mimics the real gateway's shape for the access hook: two networks told
 * apart by Host (mainnet.test, testnet.test), v2 REST (GET and POST), v2 JSON-RPC, v3, health and
 * docs paths. The network hook runs first, like the real server's network router.
 *
 * With `upstream: true` the two networks are of kind upstream (src/upstream): the API routes live in a
 * second app on a real socket (the upstream), and the real upstream hook forwards to it after the access
 * hook, as the real server does. The upstream's requests are kept in `upstreamRequests` so a suite can
 * check that no client key ever reached it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Writable } from 'node:stream';
import pino from 'pino';
import type { AccessLayer } from '../../../src/access/index.js';
import { accessHook, accessLogSerializers } from '../../../src/http/access-hook.js';
import { registerAdminRoutes } from '../../../src/http/admin-routes.js';
import { UpstreamNetwork, upstreamHook } from '../../../src/upstream/index.js';
import { systemClock } from '../../../src/util/clock.js';

export const HOSTS = { mainnet: 'mainnet.test', testnet: 'testnet.test' } as const;

export interface TestAppOptions {
  trustProxy?: boolean;
  /** Where the app's logs go (level debug, with the access layer's serializers). */
  logStream?: Writable;
  adminToken?: string;
  /** Serve both networks as kind upstream, forwarding to a stub API on a real socket. */
  upstream?: boolean;
}

export const STUB_UPSTREAM_KEY = 'stub-upstream-key';

export type TestApp = FastifyInstance & { upstreamRequests?: Array<{ url: string; key: string | undefined }> };

/** The API routes of the test app (the stand-in for v2/v3 handlers). */
function registerApiStubs(app: FastifyInstance): void {
  const handler = async (request: { params: unknown }) => ({ ok: true, result: (request.params as { method: string }).method });
  app.get('/api/v2/:method', handler);
  app.post('/api/v2/:method', handler);
  app.post('/api/v2/jsonRPC', async (request) => {
    const body = request.body as { id?: unknown; method?: string };
    return { ok: true, result: body.method ?? null, jsonrpc: '2.0', id: body.id ?? null };
  });
  app.get('/api/v3/masterchainInfo', async () => ({ last: { seqno: 1 } }));
}

async function startStubUpstream(access: AccessLayer): Promise<{
  networks: Record<string, UpstreamNetwork>;
  requests: Array<{ url: string; key: string | undefined }>;
  close(): Promise<void>;
}> {
  const stub = Fastify({ logger: false });
  const requests: Array<{ url: string; key: string | undefined }> = [];
  stub.addHook('onRequest', async (request) => {
    requests.push({ url: request.url, key: request.headers['x-api-key'] as string | undefined });
  });
  registerApiStubs(stub);
  await stub.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(stub.server.address() as { port: number }).port}`;
  const networks: Record<string, UpstreamNetwork> = {};
  for (const name of ['mainnet', 'testnet']) {
    networks[name] = new UpstreamNetwork(
      name,
      {
        v2: [new URL(`${origin}/api/v2`)],
        v3: [new URL(`${origin}/api/v3`)],
        apiKey: STUB_UPSTREAM_KEY,
        concurrency: 16,
        cacheMs: 0,
        timeoutMs: 5000,
        maxResponseBytes: 1_048_576,
        healthIntervalMs: 5000,
        breakerOpenMs: 2000,
      },
      { clock: systemClock, registry: await access.metrics.registry() },
    );
    await networks[name].start();
  }
  return {
    networks,
    requests,
    async close() {
      await Promise.all(Object.values(networks).map((n) => n.close()));
      await stub.close();
    },
  };
}

export async function buildTestApp(access: AccessLayer, options: TestAppOptions = {}): Promise<TestApp> {
  const upstream = options.upstream ? await startStubUpstream(access) : undefined;
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
    (request as unknown as { network: { name: string; upstream?: UpstreamNetwork } | null }).network = name
      ? { name, upstream: upstream?.networks[name] }
      : null;
  });
  app.addHook('onRequest', accessHook(access));
  registerAdminRoutes(app, access, { adminToken: options.adminToken });
  if (upstream) {
    app.addHook('onRequest', upstreamHook({ bodyLimitBytes: 1_048_576 }));
    app.addHook('onClose', () => upstream.close());
  } else {
    registerApiStubs(app);
  }
  for (const path of ['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']) app.get(path, async () => ({ status: 'ok' }));
  for (const v of ['v2', 'v3']) {
    app.get(`/api/${v}/openapi.json`, async () => ({ openapi: '3.0.0' }));
    app.get(`/api/${v}/`, async (_request, reply) => reply.type('text/html').send('<html></html>'));
    app.get(`/api/${v}/docs/:asset`, async () => 'asset');
  }
  await app.ready();
  return Object.assign(app, { upstreamRequests: upstream?.requests });
}
