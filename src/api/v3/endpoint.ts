/**
 * One v3 endpoint = one definition: its path, its parameters (which drive parsing and the OpenAPI
 * document), the schema of its answer and the handler. routes.ts serves every definition; openapi.ts
 * documents the same list, so the document never lists what we do not serve.
 */
import type { IndexReader } from '../../index/reader.js';
import { ApiError } from '../../http/api-error.js';
import type { NetworkContext } from '../../http/network-context.js';
import type { ParamSpecs as BodySpecs, ParsedParams as ParsedBody } from '../v2/params.js';
import type { ParamSpecs, Parsed } from './params.js';

export interface V3Endpoint<S extends ParamSpecs = ParamSpecs> {
  /** Under /api/v3, e.g. `/transactions`. */
  path: string;
  /** Other paths serving the same thing. */
  aliases?: string[];
  tag: 'blockchain' | 'accounts' | 'traces' | 'jettons' | 'nfts' | 'dns' | 'multisig' | 'vesting' | 'utils';
  summary: string;
  params: S;
  /** OpenAPI schema of the 200 answer (usually a $ref into openapi.ts's components). */
  response: object;
  handle(params: Parsed<S>, network: NetworkContext): Promise<unknown>;
}

/**
 * A POST endpoint whose JSON body is one of v2's (message, runGetMethod, estimateFee): the fields are
 * declared and parsed as v2 declares and parses them, so both versions accept the same input.
 */
export interface V3PostEndpoint<S extends BodySpecs = BodySpecs> {
  path: string;
  tag: 'blockchain' | 'accounts' | 'utils';
  summary: string;
  body: S;
  /** toncenter answers a missing required field with 401 and these words ("boc is required"). */
  missing: Partial<Record<keyof S & string, string>>;
  response: object;
  handle(body: ParsedBody<S>, network: NetworkContext): Promise<unknown>;
}

/**
 * Any endpoint, whatever its parameters: what the endpoint lists, the routes and the OpenAPI builder hold (an
 * endpoint's handler is typed by its own specs; a list of them can only be typed this loosely).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyV3Endpoint = V3Endpoint<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyV3PostEndpoint = V3PostEndpoint<any>;

export function definePostEndpoint<S extends BodySpecs>(endpoint: V3PostEndpoint<S>): V3PostEndpoint<S> {
  return endpoint;
}

/** Keeps each definition's parameter types tied to its handler. */
export function defineEndpoint<S extends ParamSpecs>(endpoint: V3Endpoint<S>): V3Endpoint<S> {
  return endpoint;
}

/** The network's index; a network served without one cannot answer indexed queries. */
export function indexOf(network: NetworkContext): IndexReader {
  if (!network.index) {
    throw new ApiError(
      503,
      network.starting?.length
        ? `the v3 index of network ${network.name} is starting (it opens just after the API listens): retry in a moment`
        : `the v3 index is not available on network ${network.name}`,
    );
  }
  return network.index;
}

/** A response schema by component name. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
