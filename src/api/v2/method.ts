/**
 * One v2 method = one definition. The routes serve it on GET (query string) and POST (JSON body) at
 * /api/v2/<name>, and through POST /api/v2/jsonRPC, with the same parameters and the same result.
 */
import { toApiError } from '../error-statuses.js';
import type { NetworkContext } from '../../http/network-context.js';
import type { ParamSpecs, ParsedParams } from './params.js';

export interface V2Method<S extends ParamSpecs = ParamSpecs> {
  name: string;
  /** Other paths and JSON-RPC names of the same method (e.g. `shards` for `getShards`). */
  aliases?: string[];
  /** Read methods answer GET and POST; methods that send or take large input are POST only. */
  verbs: ReadonlyArray<'GET' | 'POST'>;
  /** One line for the OpenAPI document. */
  summary?: string;
  /** More for the OpenAPI document: what the local chain answers where toncenter's would differ. */
  description?: string;
  params: S;
  handle(params: ParsedParams<S>, network: NetworkContext): unknown | Promise<unknown>;
}

/**
 * Keeps each definition's parameter types tied to its handler, and maps what the chain and the codecs
 * throw to their statuses (../error-statuses.ts) so no handler has to.
 */
export function defineMethod<S extends ParamSpecs>(method: V2Method<S>): V2Method<S> {
  const handle = method.handle.bind(method);
  return {
    ...method,
    async handle(params, network) {
      try {
        return await handle(params, network);
      } catch (error) {
        throw toApiError(error);
      }
    },
  };
}
