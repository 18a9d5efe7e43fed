/**
 * Which routed paths an upstream network answers, and how: the one rule the upstream hook (hook.ts) acts on and the
 * front door (front.ts) asks before it takes a request, so the door takes exactly what the hook forwards.
 *
 *   health      /healthcheck, /api/v2/healthcheck, /api/v3/healthcheck: the upstreams' health, tongate's own
 *   no-faucet   /devnet/fund: 404, an upstream network has no faucet
 *   emulate     under /api/emulate/: toncenter's emulate API, forwarded beside the v3 upstream (404 without one)
 *   forward     a path the access layer counts (isLimitedPath) under /api/v2/ or /api/v3/, of a version with an
 *               upstream URL: forwarded
 *   unserved    the same, of a version without an upstream URL: 404 in its shape
 *   undefined   none of these (docs, /metrics, /admin, the landing page): fastify's routes answer
 *
 * The answers are shared frozen objects (none is made per request).
 */
import { isLimitedPath } from '../http/access-hook.js';
import { apiVersion, type ApiVersion } from '../http/request-target.js';

export type PathRule =
  { readonly kind: 'health' | 'no-faucet' | 'emulate' } | { readonly kind: 'forward' | 'unserved'; readonly version: ApiVersion };

/** What this rule reads of an upstream network: which versions have an upstream URL. */
export interface ServedVersions {
  forwarder: { serves(version: ApiVersion): boolean };
}

const HEALTH_PATHS = new Set(['/healthcheck', '/api/v2/healthcheck', '/api/v3/healthcheck']);
/** toncenter's emulate API (src/emulate on local and lite networks). */
export const EMULATE_PREFIX = '/api/emulate/';

const HEALTH: PathRule = Object.freeze({ kind: 'health' });
const NO_FAUCET: PathRule = Object.freeze({ kind: 'no-faucet' });
const EMULATE: PathRule = Object.freeze({ kind: 'emulate' });
const FORWARD = { v2: Object.freeze({ kind: 'forward', version: 'v2' }), v3: Object.freeze({ kind: 'forward', version: 'v3' }) } as const;
const UNSERVED = {
  v2: Object.freeze({ kind: 'unserved', version: 'v2' }),
  v3: Object.freeze({ kind: 'unserved', version: 'v3' }),
} as const;

/** The rule for `path` (the routed path: request-target.ts `routedPath`, the access layer's own) on `upstream`. */
export function pathRule(upstream: ServedVersions, path: string): PathRule | undefined {
  if (HEALTH_PATHS.has(path)) return HEALTH;
  if (path === '/devnet/fund') return NO_FAUCET;
  if (path.startsWith(EMULATE_PREFIX)) return EMULATE;
  const version = apiVersion(path);
  if (version === undefined || !isLimitedPath(path)) return undefined;
  return upstream.forwarder.serves(version) ? FORWARD[version] : UNSERVED[version];
}
