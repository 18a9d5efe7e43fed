/**
 * The gateway's listening sockets, one per planned listener (listeners.ts), made of `node:http` alone so they can
 * be bound before anything heavy is loaded: until the gateway serves them they answer what starting.ts says (503,
 * `/healthcheck` with `status: starting`), then `serve` hands every request to the gateway's one fastify app. The
 * sockets stay the same throughout, so a client never meets a refused connection between the two.
 *
 * One app serves every socket (fastify's `serverFactory` is given the first server; the others pass their
 * requests, upgrades and client errors to the same app), so the routes are built and compiled once however many
 * networks and ports there are. Each request is tagged with its socket's plan (`listenerOf`): the network router
 * finds the network among the ones planned on that socket, as a socket of its own would.
 */
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { readFileSync } from 'node:fs';
import type { TongateConfig } from '../config/types.js';
import type { ListenerPlan } from './listeners.js';
import { answerStarting, type StartingNetwork } from './starting.js';

/** fastify's own default (its server is ours here, so its options are set here): 72 s of keep-alive. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

const LISTENER = Symbol('tongate.listener');
type Tagged = IncomingMessage & { [LISTENER]?: number };

/** The plan (index into the sockets' plans) whose socket a request came in on; undefined for injected requests. */
export function listenerOf(request: IncomingMessage): number | undefined {
  return (request as Tagged)[LISTENER];
}

export interface GatewaySockets {
  readonly plans: ListenerPlan[];
  /** The first socket's server: the one fastify's serverFactory is given (its 'upgrade' listeners serve every socket). */
  readonly primary: Server;
  /** Binds every socket not bound yet; a port another process holds is reported here (EADDRINUSE). */
  listen(): Promise<void>;
  /** From now on each socket's requests go to `handler` (fastify's routing), and its upgrades to the primary's. */
  serve(handler: RequestListener): void;
  /** Stops accepting, ends idle connections, and resolves once the open ones are gone (`force`: cut them). */
  close(options?: { force?: boolean }): Promise<void>;
  addresses(): Array<{ host: string; port: number; tls: boolean; networks: string[] }>;
}

/**
 * The sockets of `plans`, not bound yet. `status` tells a network's start-up state for the starting answers
 * (absent: `{ network }`, a plain "starting").
 */
export function createSockets(
  config: TongateConfig,
  plans: ListenerPlan[],
  status: (network: string) => StartingNetwork = (network) => ({ network }),
): GatewaySockets {
  let serving: RequestListener | undefined;
  const servers = plans.map((plan, i) => {
    const names = plan.networks.map((n) => n.name);
    const handler = (request: IncomingMessage, response: ServerResponse) => {
      (request as Tagged)[LISTENER] = i;
      if (serving) serving(request, response);
      else answerStarting(request, response, names, config, status);
    };
    const server = plan.tls
      ? createHttpsServer({ cert: readFileSync(config.tlsCert!), key: readFileSync(config.tlsKey!) }, handler)
      : createHttpServer(handler);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.requestTimeout = 0;
    return server as Server;
  });
  const primary = servers[0];
  const bound = new Set<Server>();
  const bind = (server: Server, plan: ListenerPlan) =>
    new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      server.once('error', failed);
      server.listen(plan.port, plan.host, () => {
        server.off('error', failed);
        bound.add(server);
        resolve();
      });
    });
  return {
    plans,
    primary,
    async listen() {
      await Promise.all(servers.map((server, i) => (bound.has(server) ? undefined : bind(server, plans[i]))));
    },
    serve(handler) {
      serving = handler;
      // The primary's own upgrades are tagged too (before the app's listener sees them), when it takes upgrades; an
      // upgrade another socket passed on keeps its socket's tag.
      if (primary.listenerCount('upgrade') > 0)
        primary.prependListener('upgrade', (request: IncomingMessage) => ((request as Tagged)[LISTENER] ??= 0));
      for (const [i, server] of servers.entries()) {
        if (server === primary) continue;
        server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
          (request as Tagged)[LISTENER] = i;
          if (primary.listenerCount('upgrade') === 0) socket.destroy();
          else primary.emit('upgrade', request, socket, head);
        });
        // The app's handler of what Node's parser refused (errors.ts) is on the primary server only.
        server.on('clientError', (err: Error, socket: Duplex) => {
          if (primary.listenerCount('clientError') === 0) socket.destroy();
          else primary.emit('clientError', err, socket);
        });
      }
    },
    async close({ force = false } = {}) {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              if (!bound.has(server)) return resolve();
              bound.delete(server);
              server.close(() => resolve());
              if (force) server.closeAllConnections();
              else server.closeIdleConnections();
            }),
        ),
      );
    },
    addresses() {
      return servers.map((server, i) => {
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : plans[i].port;
        return { host: plans[i].host, port, tls: plans[i].tls, networks: plans[i].networks.map((n) => n.name) };
      });
    },
  };
}

/**
 * The sockets of `plans`, bound now where they can be: the start-up's first step, before any chain is opened. A
 * socket that cannot be bound now is left for `listen`, which reports it once the gateway is built.
 */
export async function openSockets(
  config: TongateConfig,
  plans: ListenerPlan[],
  status: (network: string) => StartingNetwork,
): Promise<GatewaySockets> {
  const sockets = createSockets(config, plans, status);
  await sockets.listen().catch(() => undefined);
  return sockets;
}
