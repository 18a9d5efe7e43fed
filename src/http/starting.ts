/**
 * What tongate's ports answer while it starts: a lite network's first start proves every key block since its
 * trusted block (on mainnet, minutes; chain/lite/block-proofs), and the gateway listens only once every chain is
 * open. Meanwhile the same sockets answer 503: `/healthcheck` (and /api/v2/, /api/v3/healthcheck) with
 * `{"status":"starting", ...}` and, for a network proving its chain of key blocks, how far it is (n of N links,
 * rate, ETA); anything else in v2's error shape. No routes, no access layer: nothing is served before it is proven.
 * Closed just before the gateway binds the same sockets.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { TongateConfig } from '../config/types.js';
import type { ProgressSnapshot } from '../util/progress.js';
import { planListeners } from './listeners.js';

const HEALTH_PATHS = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);

/** How far one network's start is. */
export interface StartingNetwork {
  network: string;
  /** Set while the network proves its chain of key blocks (more than one liteserver answer of links). */
  proving?: { from: number; target: number; progress: ProgressSnapshot };
}

export interface StartingListeners {
  close(): Promise<void>;
}

/**
 * Binds the gateway's sockets with the starting answers; `status(name)` tells a network's state. A socket that
 * cannot be bound is left alone (the gateway reports it when it listens).
 */
export async function openStartingListeners(
  config: TongateConfig,
  status: (network: string) => StartingNetwork,
): Promise<StartingListeners> {
  const servers: Server[] = [];
  for (const plan of planListeners(config)) {
    const names = plan.networks.map((n) => n.name);
    const handler = (request: IncomingMessage, response: ServerResponse) => answer(request, response, names, config, status);
    const server = plan.tls
      ? createHttpsServer({ cert: readFileSync(config.tlsCert!), key: readFileSync(config.tlsKey!) }, handler)
      : createHttpServer(handler);
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(plan.port, plan.host, () => resolve(true));
    });
    if (!bound) continue;
    server.unref(); // never what keeps a failed start's process alive
    servers.push(server);
  }
  return {
    async close() {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}

function answer(
  request: IncomingMessage,
  response: ServerResponse,
  names: string[],
  config: TongateConfig,
  status: (network: string) => StartingNetwork,
): void {
  const path = (request.url ?? '/').split('?')[0];
  const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  // Networks sharing a socket are told apart by Host, as the gateway does; without a match, the socket's first.
  const name = names.find((n) => config.networks.find((c) => c.name === n)?.baseUrl.hostname.toLowerCase() === host) ?? names[0];
  const state = status(name);
  const proving = state.proving
    ? {
        from_seqno: state.proving.from,
        target_seqno: state.proving.target,
        links_done: state.proving.progress.done,
        links_total: state.proving.progress.total,
        links_per_s: state.proving.progress.rate,
        eta_s: state.proving.progress.eta_s,
      }
    : undefined;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('retry-after', '5');
  response.statusCode = 503;
  if (HEALTH_PATHS.has(path)) {
    response.end(JSON.stringify({ status: 'starting', network: name, ...(proving ? { proving_key_blocks: proving } : {}) }));
    return;
  }
  const why = proving
    ? `proving the chain of key blocks: ${proving.links_done}${proving.links_total === null ? '' : ` of ${proving.links_total}`} links`
    : 'starting';
  response.end(JSON.stringify({ ok: false, error: `${name} is not ready yet (${why})`, code: 503 }));
}
