/**
 * One v3 endpoint = one definition: its path, its parameters (which drive parsing and the OpenAPI
 * document), the schema of its answer and the handler. routes.ts serves every definition; openapi.ts
 * documents the same list, so the document never lists what we do not serve.
 */
import type { IndexReader } from '../../index/reader.js';
import { ApiError } from '../errors.js';
import type { NetworkContext } from '../network-context.js';
import type { ParamSpecs, Parsed } from './params.js';

export interface V3Endpoint<S extends ParamSpecs = ParamSpecs> {
  /** Under /api/v3, e.g. `/transactions`. */
  path: string;
  /** Other paths serving the same thing. */
  aliases?: string[];
  tag: 'blockchain' | 'accounts';
  summary: string;
  params: S;
  /** OpenAPI schema of the 200 answer (usually a $ref into openapi.ts's components). */
  response: object;
  handle(params: Parsed<S>, network: NetworkContext): Promise<unknown>;
}

/** Keeps each definition's parameter types tied to its handler. */
export function defineEndpoint<S extends ParamSpecs>(endpoint: V3Endpoint<S>): V3Endpoint<S> {
  return endpoint;
}

/** The network's index; a network served without one cannot answer indexed queries. */
export function indexOf(network: NetworkContext): IndexReader {
  if (!network.index) throw new ApiError(503, `the v3 index is not available on network ${network.name}`);
  return network.index;
}

/** A response schema by component name. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
