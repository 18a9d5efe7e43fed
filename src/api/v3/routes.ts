/**
 * Every v3 endpoint built so far, plus the docs (`/api/v3/openapi.json`, Swagger UI at `/api/v3/`).
 * Endpoints not built answer 404 like any unknown path: no empty fakes.
 */
import type { FastifyInstance } from 'fastify';
import { registerDocs } from '../../http/docs.js';
import type { V3Endpoint } from './endpoint.js';
import { V3_ENDPOINTS } from './endpoints/index.js';
import { v3OpenApi } from './openapi.js';
import { parseQuery } from './params.js';
import { VERSION } from '../../version.js';

export interface V3RouteOptions {
  endpoints?: V3Endpoint<any>[];
  /** tongate's version, written in the OpenAPI document. */
  version?: string;
}

export function registerV3Routes(app: FastifyInstance, { endpoints = V3_ENDPOINTS, version = VERSION }: V3RouteOptions = {}): void {
  for (const endpoint of endpoints) {
    for (const path of [endpoint.path, ...(endpoint.aliases ?? [])]) {
      app.get(`/api/v3${path}`, async (request) => endpoint.handle(parseQuery(endpoint.params, request.query as Record<string, unknown>), request.network));
    }
  }
  registerDocs(app, { prefix: '/api/v3', title: 'tongate API v3', document: () => v3OpenApi(endpoints, version) });
}
