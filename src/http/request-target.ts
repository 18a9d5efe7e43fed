/**
 * What a request addresses, decided the way the router decides it, so that no spelling of a request target
 * (absolute-form `http://host/api/v2/...`, percent-escapes, case, dot segments) can make the access layer or
 * the error renderer see another path than the one that is served.
 *
 *   routedPath(request)  the route's own declared URL when a route matched (`/api/v2/getAddressInformation`,
 *                        `/api/v2/docs/:asset`), else the target's path (origin and query cut off, decoded)
 *   routeUrl(request)    the matched route's declared URL, or undefined when no route matched
 *   targetPath(target)   the path of a raw request target, for places that have no routed request
 *                        (socket-level errors, the router's bad-URL callback)
 *   apiVersion(path)     'v2' | 'v3' | undefined: which API version a path is under
 *   errorShape(path)     which version's error shape applies (v3's under /api/emulate/ too)
 */
import type { FastifyRequest } from 'fastify';

export type ApiVersion = 'v2' | 'v3';

/** `scheme://authority` at the start of an absolute-form target (RFC 9112 3.2.2); find-my-way drops it too. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

export function targetPath(target: string): string {
  let path = target;
  if (path.charCodeAt(0) !== 47 /* '/' */) path = path.replace(ORIGIN, '');
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  if (path.indexOf('%') === -1) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** routeUrl's answer once asked (null: no route matched); declared by the gateway (decorateRequest), so requests keep one shape. */
    routeUrlMemo?: string | null;
  }
}

/**
 * The matched route's declared URL. Read once per request: fastify's `routeOptions` getter builds a new object of
 * twelve fields on every read, and the access hook, the upstream hook and the request counter each ask.
 */
export function routeUrl(request: FastifyRequest): string | undefined {
  let url = request.routeUrlMemo;
  if (url === undefined) request.routeUrlMemo = url = request.routeOptions?.url ?? null;
  return url ?? undefined;
}

export function routedPath(request: FastifyRequest): string {
  return routeUrl(request) ?? targetPath(request.url);
}

/** The error shape a path's answers take: its version's, and v3's (`{"error"}`) under /api/emulate/ (toncenter's emulate API). */
export function errorShape(path: string): ApiVersion | undefined {
  return apiVersion(path) ?? (path.startsWith('/api/emulate/') ? 'v3' : undefined);
}

export function apiVersion(path: string): ApiVersion | undefined {
  if (path.startsWith('/api/v3') && (path.length === 7 || path.charCodeAt(7) === 47)) return 'v3';
  if (path.startsWith('/api/v2') && (path.length === 7 || path.charCodeAt(7) === 47)) return 'v2';
  return undefined;
}
