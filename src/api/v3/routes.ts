/**
 * Every v3 endpoint built so far, plus the docs (`/api/v3/openapi.json`, Swagger UI at `/api/v3/`).
 * Endpoints not built answer 404 like any unknown path: no empty fakes.
 */
import type { FastifyInstance } from 'fastify';
import { toApiError } from '../error-statuses.js';
import { ApiError } from '../../http/api-error.js';
import { parseParams } from '../v2/params.js';
import type { AnyV3Endpoint, AnyV3PostEndpoint } from './endpoint.js';
import { answerValue, JsonText } from '../json-text.js';
import { V3_ENDPOINTS, V3_POST_ENDPOINTS } from './endpoints/index.js';
import { emptiedKeys, parseQuery } from './params.js';
import { withActionsVersion } from './actions-version.js';

export interface V3RouteOptions {
  endpoints?: AnyV3Endpoint[];
  postEndpoints?: AnyV3PostEndpoint[];
}

/** A POST body: a JSON object whose required fields are there (toncenter: 401 "<field> is required"). */
function bodyOf(endpoint: AnyV3PostEndpoint, body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(422, 'request body must be a JSON object');
  const fields = body as Record<string, unknown>;
  for (const [name, words] of Object.entries(endpoint.missing)) {
    const value = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
    if (value === undefined || value === null || value === '') throw new ApiError(401, words as string);
  }
  return fields;
}

/**
 * The answer with the envelope keys a request asked to leave out set to `{}`, as toncenter writes them. The
 * lookups behind them still ran: the headers are rare, and this keeps the rule in one place for every endpoint.
 */
function withEmptied(answer: unknown, keys: string[]): unknown {
  const object = answerValue(answer);
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  const emptied: Record<string, unknown> = { ...(object as Record<string, unknown>) };
  for (const key of keys) if (key in emptied) emptied[key] = {};
  return emptied;
}

export function registerV3Routes(app: FastifyInstance, options: V3RouteOptions = {}): void {
  const { endpoints = V3_ENDPOINTS, postEndpoints = V3_POST_ENDPOINTS } = options;
  for (const endpoint of endpoints) {
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) {
      app.get(`/api/v3${path}`, async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const answer = await endpoint
          .handle(parseQuery(endpoint.params, withActionsVersion(request.headers, query)), request.network)
          .catch((error) => {
            throw toApiError(error, request.log);
          });
        const emptied = emptiedKeys(request.headers, query);
        if (emptied.length > 0) return withEmptied(answer, emptied);
        return answer instanceof JsonText ? reply.type('application/json; charset=utf-8').send(answer.text) : answer;
      });
    }
  }
  const getPaths = new Set(endpoints.flatMap((endpoint) => [endpoint.path, ...(endpoint.aliases ?? [])]));
  for (const endpoint of postEndpoints) {
    const url = `/api/v3${endpoint.path}`;
    app.post(url, async (request) =>
      endpoint.handle(parseParams(endpoint.body, bodyOf(endpoint, request.body)), request.network).catch((error) => {
        throw toApiError(error, request.log);
      }),
    );
    // A path served on both verbs (/decode) has its GET above; the others take only a POST.
    if (getPaths.has(endpoint.path)) continue;
    app.get(url, async () => {
      throw new ApiError(405, `unsupported http method: GET (${endpoint.path} takes a POST with a JSON body)`);
    });
  }
}
