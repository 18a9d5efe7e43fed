/**
 * The one query-string parser of the gateway: fastify's router is given it (`routerOptions.querystringParser`), and
 * the upstream networks' front door (src/upstream/front.ts), which answers forwarded requests before fastify's
 * router, parses with it too, so both see the same `request.query` (the access layer's `api_key`, the route
 * policy's parameters). It is what find-my-way uses by default: fast-querystring, `{}` for an empty query.
 */
import { parse } from 'fast-querystring';

export function parseQuery(query: string): Record<string, unknown> {
  return query.length === 0 ? {} : (parse(query) as Record<string, unknown>);
}
