/**
 * What tongate's sockets answer while it starts (sockets.ts binds them first, before any chain is opened, and hands
 * them to the gateway once it is built): 503, `/healthcheck` (and /api/v2/, /api/v3/healthcheck) with
 * `{"status":"starting", ...}` and, for a lite network proving its chain of key blocks at its first start (on
 * mainnet, minutes; chain/lite/block-proofs), how far it is (n of N links, rate, ETA); anything else in v2's
 * error shape. No routes, no access layer: nothing is served before it is open and proven.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TongateConfig } from '../config/types.js';
import type { ProgressSnapshot } from '../util/progress.js';

const HEALTH_PATHS = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);

/** How far one network's start is. */
export interface StartingNetwork {
  network: string;
  /** Set while the network proves its chain of key blocks (more than one liteserver answer of links). */
  proving?: { from: number; target: number; progress: ProgressSnapshot };
}

/** The answer of a socket whose networks (`names`, in plan order) are not served yet. */
export function answerStarting(
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
