/**
 * The HTTP gateway: one fastify app serving every listening socket (src/http/sockets.ts), each socket's requests
 * routed among the networks planned onto it. Hooks run in a fixed order: find the network, CORS (preflights end
 * here), the access layer; then the route. Errors leave in the version's shape. A request a network of kind upstream
 * forwards is taken from the socket by its front door (src/upstream/front.ts) before fastify's router, which runs the
 * same hooks and answer counters on it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import type { NetworkContext } from '../http/network-context.js';
import { V2_METHODS } from '../api/v2/methods/index.js';
import { registerV2Routes } from '../api/v2/routes.js';
import { v2OpenApi } from '../api/v2/openapi.js';
import { registerV3Routes } from '../api/v3/routes.js';
import { V3_ENDPOINTS, V3_POST_ENDPOINTS } from '../api/v3/endpoints/index.js';
import { v3OpenApi } from '../api/v3/openapi.js';
import type { TongateConfig } from '../config/types.js';
import type { Clock } from '../util/clock.js';
import { cors } from '../http/cors.js';
import { registerDocs } from '../http/docs.js';
import { registerDevnetRoutes } from '../devnet/routes.js';
import { devnetOpenApi } from '../devnet/openapi.js';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, MAX_PATH_SEGMENT, notFoundHandler } from '../http/errors.js';
import { registerJsonBodyParser } from '../http/json-body.js';
import { registerV2AnyTypeBodyParser } from '../http/v2-body-any-type.js';
import { registerHealth, staleAfter } from '../http/health.js';
import { registerNetworkList } from '../http/networks.js';
import { registerLanding } from './landing.js';
import { RequestDurations } from '../http/request-durations.js';
import { planListeners, type ListenerPlan } from '../http/listeners.js';
import { accessLogSerializers, registerAccessHook } from '../http/access-hook.js';
import { lazyRequestLogger, requestIds } from '../http/request-logger.js';
import { parseQuery } from '../http/query.js';
import { registerAdminRoutes } from '../http/admin-routes.js';
import type { AccessLayer } from '../access/index.js';
import { RequestUsage } from '../access/usage.js';
import { networkFinder, networkRouter, type NetworkFinder } from '../http/network-router.js';
import { createSockets, listenerOf, type GatewaySockets } from '../http/sockets.js';
import { upstreamHook } from '../upstream/hook.js';
import { lazySchemaCompilers } from '../http/lazy-schema-compilers.js';
import { ForwardRoutes, UpstreamFront } from '../upstream/front.js';
import { VERSION } from '../version.js';
import { registerStreaming } from '../stream/routes.js';
import { registerEmulateRoutes } from '../emulate/routes.js';
import { followNetworkPending } from '../pending/registry.js';
import { registerBlockFeed } from '../stream/block-feed.js';
import { registerConsole } from '../console/routes.js';

export interface GatewayOptions {
  config: TongateConfig;
  networks: NetworkContext[];
  clock: Clock;
  logger: Logger;
  /** Keys and limits (a disabled layer with --access off). */
  access: AccessLayer;
  /**
   * Sockets already bound and answering `starting` (`tongate start` binds them first); absent: made here and bound
   * by `listen`.
   */
  sockets?: GatewaySockets;
}

export interface Gateway {
  listen(): Promise<void>;
  close(): Promise<void>;
  /** The bound addresses (port 0 in a plan becomes the real port). */
  addresses(): Array<{ host: string; port: number; tls: boolean; networks: string[] }>;
  /** The one app behind every socket (a list: what a test reads of it does not depend on how many there are). */
  apps: FastifyInstance[];
  /** The upstream networks' front door, when there is one (src/upstream/front.ts). */
  front: UpstreamFront | undefined;
}

export function createGateway(options: GatewayOptions): Gateway {
  const sockets = options.sockets ?? createSockets(options.config, planListeners(options.config));
  // One histogram for all listeners, in the registry /metrics serves.
  const durations = new RequestDurations(options.access.metrics);
  // Per-key minute counts for the admin API, one for all listeners, like the histogram.
  const usage = new RequestUsage(options.clock);
  let routing: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const { app, front } = buildApp(
    sockets.plans,
    (handler) => {
      routing = handler;
      return sockets.primary;
    },
    options,
    durations,
    usage,
  );
  return {
    apps: [app],
    front,
    async listen() {
      // Routes compiled before the first request is handed over; the sockets answer `starting` until then.
      await app.ready();
      await sockets.listen();
      // Networks of kind upstream: their forwarded requests are answered before fastify's router (src/upstream/front.ts).
      sockets.serve(front === undefined ? routing! : front.handler(routing!));
    },
    async close() {
      // Requests arriving from now on meet fastify's own closing rules.
      front?.close();
      // Open streams are ended by the app's onClose hooks; then the sockets wait for what is still answering.
      const closed = sockets.close();
      await app.close();
      await closed;
    },
    addresses: () => sockets.addresses(),
  };
}

function buildApp(
  plans: ListenerPlan[],
  serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) => Server,
  { config, networks, clock, logger, access }: GatewayOptions,
  durations: RequestDurations,
  usage: RequestUsage,
): { app: FastifyInstance; front: UpstreamFront | undefined } {
  const served = networks.filter((n) => plans.some((plan) => plan.networks.some((p) => p.name === n.name)));
  const listeners = plans.map((plan) => `${plan.host}:${plan.port}`).join(',');
  const nextRequestId = requestIds();
  const app = Fastify({
    // The sockets are made in src/http/sockets.ts (bound before the app is built); the first is the app's server.
    serverFactory,
    loggerInstance: logger.child({ listener: listeners }, { serializers: accessLogSerializers }) as FastifyBaseLogger,
    // Fastify's own two lines per request are off; one debug line per response is written below.
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's logger made when it first logs (request-logger.ts): most never do.
    childLoggerFactory: lazyRequestLogger,
    genReqId: nextRequestId,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: config.bodyLimitBytes,
    // toncenter's v3 (fiber's defaults) matches paths in any case and with a trailing slash; so does every path here.
    // The query parser is named so the upstream front door parses with the same one (http/query.ts).
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT, caseSensitive: false, ignoreTrailingSlash: true, querystringParser: parseQuery },
    // Requests the router or Node's parser refuse still answer in the version's shape (errors.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // No route declares a schema: Ajv and fast-json-stringify load only if one ever does (lazy-schema-compilers.ts).
    schemaController: { compilersFactory: lazySchemaCompilers },
  }) as unknown as FastifyInstance;
  app.decorateRequest('network', null as unknown as NetworkContext);
  // The matched route's URL, read once per request (http/request-target.ts routeUrl).
  app.decorateRequest('routeUrlMemo', undefined);
  // First, so that every route added below gets its timing hook.
  durations.attach(app);
  const finders = plans.map((plan) => networkFinder(served.filter((n) => plan.networks.some((p) => p.name === n.name))));
  const anySocket = networkFinder(served);
  app.addHook('onRequest', routeBySocket(plans, finders, anySocket, served));
  app.addHook('onRequest', cors);
  const accessCheck = registerAccessHook(app, access);
  // Networks of kind upstream are forwarded here, after the access layer decided (src/upstream).
  const serveUpstream = upstreamHook({ bodyLimitBytes: config.bodyLimitBytes });
  app.addHook('onRequest', serveUpstream);
  // The routes the upstream front door may answer before fastify, collected as they are added. Not behind trusted
  // proxies: there fastify's request reads the client's address, host and scheme from forwarded headers.
  const forwardRoutes =
    served.some((n) => (n as { upstream?: unknown }).upstream !== undefined) && config.trustProxy.length === 0
      ? new ForwardRoutes(durations)
      : undefined;
  forwardRoutes?.attach(app);
  app.addHook('onResponse', (request, reply, done) => {
    // Checked first: the line's object is not even built at the usual levels (one less promise per request too).
    if (request.log.level === 'debug' || request.log.level === 'trace')
      request.log.debug({ req: request, status: reply.statusCode, ms: reply.elapsedTime }, 'request');
    done();
  });
  app.setErrorHandler(errorHandler);
  registerJsonBodyParser(app);
  registerV2AnyTypeBodyParser(app);
  app.setNotFoundHandler(notFoundHandler);

  registerHealth(app, { clock, staleAfterMs: staleAfter(config.blockIntervalMs) });
  registerLanding(app, { access: access.enabled, version: VERSION });
  // Every network of this tongate, not only this listener's: the console's switch goes from one to another.
  registerNetworkList(app, networks);
  // Each API's docs are registered with its routes, here and nowhere else, from the same list the routes came from.
  registerV2Routes(app, { methods: V2_METHODS, clock });
  registerDocs(app, { prefix: '/api/v2', title: 'tongate API v2', document: () => v2OpenApi(V2_METHODS, VERSION) });
  registerV3Routes(app, { endpoints: V3_ENDPOINTS, postEndpoints: V3_POST_ENDPOINTS });
  registerDocs(app, { prefix: '/api/v3', title: 'tongate API v3', document: () => v3OpenApi(V3_ENDPOINTS, V3_POST_ENDPOINTS, VERSION) });
  registerEmulateRoutes(app, { clock });
  // Lite networks' pending layers emulate what is sent from now on (src/pending/lite-source.ts); local ones follow their open block.
  for (const network of served) followNetworkPending(network, { clock, warn: (err, message) => logger.warn({ err }, message) });
  registerStreaming(app, { networks: served, access, clock, redisUrl: config.redisUrl, logger });
  registerBlockFeed(app, { access });
  registerConsole(app);
  const devnetOperations = registerDevnetRoutes(app, { adminToken: config.adminToken });
  registerDocs(app, { prefix: '/devnet', title: 'tongate devnet controls', document: () => devnetOpenApi(devnetOperations, VERSION) });
  const countAnswer = registerAdminRoutes(app, access, { adminToken: config.adminToken, usage });
  const front =
    forwardRoutes &&
    new UpstreamFront({
      routes: forwardRoutes,
      finders,
      anySocket,
      hooks: [cors, accessCheck, serveUpstream],
      countAnswer,
      log: app.log,
      nextRequestId,
    });
  return { app, front };
}

/**
 * The network router of the socket a request came in on: each socket serves the networks planned onto it, as a
 * socket with an app of its own did. A request with no socket (`inject`) is routed among every network served.
 */
function routeBySocket(
  plans: ListenerPlan[],
  finders: NetworkFinder[],
  anySocketFinder: NetworkFinder,
  served: NetworkContext[],
): onRequestHookHandler {
  const routers = plans.map((plan, i) =>
    networkRouter(
      served.filter((n) => plan.networks.some((p) => p.name === n.name)),
      finders[i],
    ),
  );
  const anySocket = networkRouter(served, anySocketFinder);
  return function routeNetwork(request, reply, done) {
    const plan = listenerOf(request.raw);
    (plan === undefined ? anySocket : routers[plan])(request, reply, done);
  };
}
