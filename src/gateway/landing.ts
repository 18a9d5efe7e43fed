/**
 * `GET /` of each network: a small HTML page for a person who opens a base URL in a browser. It names the
 * network, its API base URLs, the docs (Swagger UI), the /devnet controls of a local chain and how keys are sent.
 * Built once per network from the configuration alone (nothing of the request, not even its Host, reaches the
 * page), every value escaped. It is documentation: outside /api, so no key is needed and it never counts
 * against a client's limit (access-hook.ts `isLimitedPath`).
 */
import type { FastifyInstance } from 'fastify';
import type { NetworkContext } from '../http/network-context.js';
import type { UpstreamNetwork } from '../upstream/network.js';

export interface LandingInfo {
  name: string;
  /** The configured public base URL (never the request's Host). */
  origin: string;
  globalId: number;
  servedBy: 'local' | 'lite' | 'upstream';
  v2: boolean;
  v3: boolean;
  /** Keys and limits are on. */
  access: boolean;
  version: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const SERVED_BY = {
  local: 'a local chain embedded in tongate (blocks, faucet and clock under your control)',
  lite: 'the TON network itself, through its liteservers (v3 indexed from the block tongate started at)',
  upstream: 'another toncenter-compatible API, which tongate forwards to',
} as const;

export function landingPage(info: LandingInfo): string {
  const e = escapeHtml;
  const base = info.origin;
  const row = (what: string, url: string, docs?: string, link = 'docs') =>
    `<tr><th>${e(what)}</th><td><code>${e(url)}</code></td><td>${docs ? `<a href="${e(docs)}">${e(link)}</a>` : ''}</td></tr>`;
  const rows = [
    info.v2 ? row('API v2', `${base}/api/v2`, '/api/v2/') : '',
    info.v2 ? row('v2 JSON-RPC', `${base}/api/v2/jsonRPC`) : '',
    info.v3 ? row('API v3', `${base}/api/v3`, '/api/v3/') : '',
    info.servedBy === 'local' ? row('devnet controls', `${base}/devnet`, '/devnet/') : '',
    // The console reads v3 (src/console): offered where v3 is.
    info.v3 ? row('console', `${base}/console/`, '/console/', 'open') : '',
    row('health', `${base}/healthcheck`),
  ].filter(Boolean);
  const access = info.access
    ? '<p>Send an API key as the <code>X-API-Key</code> header (or the <code>api_key</code> query parameter). Without a key: 1 request per second per client.</p>'
    : '<p>No API keys here: this tongate runs without its access layer.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tongate: ${e(info.name)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse}th,td{text-align:left;padding:.3rem 1rem .3rem 0;vertical-align:top}code{font-size:.95em}
footer{margin-top:2rem;color:#777;font-size:.9em}</style></head>
<body><h1>tongate: ${e(info.name)}</h1>
<p>A toncenter-compatible HTTP API for TON. Network <b>${e(info.name)}</b> (global_id ${e(String(info.globalId))}), served from ${e(SERVED_BY[info.servedBy])}.</p>
<table>
${rows.join('\n')}
</table>
${access}
<footer>tongate ${e(info.version)}</footer>
</body></html>
`;
}

/** What the landing page of a running network says, from its context. */
export function landingInfo(network: NetworkContext, { access, version }: { access: boolean; version: string }): LandingInfo {
  const upstream = (network as { upstream?: UpstreamNetwork }).upstream;
  return {
    name: network.name,
    origin: network.baseUrl.origin,
    globalId: network.globalId,
    servedBy: upstream ? 'upstream' : network.backend === 'lite' ? 'lite' : 'local',
    v2: upstream ? upstream.forwarder.serves('v2') : true,
    v3: upstream ? upstream.forwarder.serves('v3') : true,
    access,
    version,
  };
}

export function registerLanding(app: FastifyInstance, { access, version }: { access: boolean; version: string }): void {
  const pages = new Map<NetworkContext, string>();
  app.get('/', async (request, reply) => {
    let html = pages.get(request.network);
    if (html === undefined) {
      html = landingPage(landingInfo(request.network, { access, version }));
      pages.set(request.network, html);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=60').send(html);
  });
}
