/**
 * toncenter's request headers that change an answer: forwarded to the upstream as the client sent them, and
 * part of the read cache and single-flight key (forwarder.ts), so an answer made with `X-No-Metadata` is never
 * served to a request without it. An explicit allow-list: every other header the client sends stays with
 * tongate (its own `X-API-Key`, hop-by-hop headers, cookies, ...).
 *
 * What toncenter reads (ton-index-go, toncenter's v3): `X-No-Address-Book`, `X-No-Metadata` (every endpoint)
 * and `X-Actions-Version` (`/actions`, `/traces`: the action types the client understands). Not passed:
 * `X-Timeout` (lowers the index's query deadline; tongate's `--upstream-timeout` is the deadline here),
 * `X-Debug-Request` (makes the upstream log its SQL: the operator's business, not a client's). toncenter's v2
 * (ton-http-api) reads no such header.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiVersion } from '../http/request-target.js';

/** Lower case, as node gives request headers; the order is the order in the key. */
const SEMANTIC_HEADERS: Record<ApiVersion, readonly string[]> = {
  v2: [],
  v3: ['x-no-address-book', 'x-no-metadata', 'x-actions-version'],
};

/** The allow-listed headers the client sent (undefined when none, the common case: nothing to build). */
export function semanticHeaders(version: ApiVersion, headers: IncomingHttpHeaders): Record<string, string> | undefined {
  let found: Record<string, string> | undefined;
  for (const name of SEMANTIC_HEADERS[version]) {
    const value = headers[name];
    // (Repeated, node joins them with ", ": forwarded so, the upstream reads it as it would have.)
    if (typeof value === 'string') (found ??= {})[name] = value;
  }
  return found;
}

/** The headers as one string for a cache / single-flight key: `name: value` lines, in the list's order. */
export function semanticHeadersKey(headers: Record<string, string> | undefined): string {
  if (headers === undefined) return '';
  let key = '';
  for (const name in headers) key += `${name}: ${headers[name]}\n`;
  return key;
}
