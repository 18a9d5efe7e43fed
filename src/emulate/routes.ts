/**
 * `POST /api/emulate/v1/emulateTrace` and `POST /api/emulate/v1/emulateTonConnect` under every network's base URL,
 * as toncenter's emulate API serves them (ton-emulate-go): a local or lite network emulates on its own chain's
 * state (Chain.emulateTrace); an upstream network forwards them beside its v3 upstream (src/upstream/hook.ts). The access layer stands in front as
 * on /api/v2 and /api/v3 (http/access-hook.ts); errors are v3's `{"error": "..."}`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toApiError } from '../api/error-statuses.js';
import { ApiError } from '../http/api-error.js';
import type { NetworkContext } from '../http/network-context.js';
import { expandActionTypes } from '../index/actions/versions.js';
import type { Clock } from '../util/clock.js';
import { emulateTraceRequest, tonConnectRequest, type AnswerOptions } from './request.js';
import { tonConnectExternal } from './tonconnect.js';

export const EMULATE_PREFIX = '/api/emulate/v1';

/** toncenter's `X-Actions-Version`: the one action version the client understands (default: latest). */
function supportedActionTypes(request: FastifyRequest): Set<string> {
  const header = request.headers['x-actions-version'];
  const value = Array.isArray(header) ? header[0] : header;
  return expandActionTypes(typeof value === 'string' && value !== '' ? [value] : []);
}

function chainOf(network: NetworkContext | null | undefined) {
  // An upstream network has no chain of its own: its requests are forwarded before they reach a route.
  if (!network?.chain)
    throw new ApiError(404, `the Emulate API is served on local and lite networks; ${network?.name ?? 'this network'} is not one`);
  return network.chain;
}

async function answer(request: FastifyRequest, boc: Buffer, ignoreChksig: boolean, options: AnswerOptions): Promise<object> {
  const network = request.network;
  const trace = await chainOf(network).emulateTrace(boc, { ignoreChksig, mcSeqno: options.mcBlockSeqno });
  // The answer's modules (the index's whole action classifier among them) load with the first emulation, not at
  // every start: ~50 modules the main thread would read and compile before serving.
  const { emulateAnswer } = await import('./answer.js');
  return emulateAnswer(trace, { ...options, supportedActionTypes: supportedActionTypes(request) }, network);
}

export function registerEmulateRoutes(app: FastifyInstance, options: { clock: Clock }): void {
  const fail = (request: FastifyRequest) => (error: unknown) => {
    throw toApiError(error, request.log);
  };
  app.post(`${EMULATE_PREFIX}/emulateTrace`, async (request) => {
    const body = emulateTraceRequest(request.body);
    return answer(request, body.boc, body.ignoreChksig, body).catch(fail(request));
  });
  app.post(`${EMULATE_PREFIX}/emulateTonConnect`, async (request) => {
    const body = tonConnectRequest(request.body);
    const chain = chainOf(request.network);
    const work = async () => {
      const wallet = await chain.getAccount(body.from, body.mcBlockSeqno);
      const boc = tonConnectExternal(body, wallet, Math.floor(options.clock.now() / 1000));
      return answer(request, boc, true, body);
    };
    return work().catch(fail(request));
  });
  for (const name of ['emulateTrace', 'emulateTonConnect'])
    app.get(`${EMULATE_PREFIX}/${name}`, async () => {
      throw new ApiError(405, `unsupported http method: GET (${name} takes a POST with a JSON body)`);
    });
}
