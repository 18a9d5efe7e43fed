/**
 * POST /devnet/config `{"params": {"21": "<BoC of the param's cell>", ...}}`: sets config params for fee
 * experiments (gas prices and limits, forwarding prices...). Keyed by param number, as getConfigParam names them;
 * each value is the param's cell (what getConfigParam answers in `config.bytes`). The chain checks each param
 * (src/chain/local/config-change.ts), seals the change in a block with the config contract's new data, and from
 * then on transactions, get-methods and v2 getConfigParam/getConfigAll use the new config.
 */
import type { Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { showInput } from '../util/show-input.js';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { boc, devnetBocBudget, onlyFields } from './input.js';
import { BOC, object } from './schemas.js';

/** More params than a config has (~40 on mainnet): one request is one experiment, not a config dump. */
const MAX_PARAMS = 64;

export function registerConfig(app: FastifyInstance, options: DevnetOptions): void {
  const operation = {
    method: 'POST' as const,
    path: '/devnet/config',
    summary: 'Sets config params (a BoC of each param cell, keyed by param number), sealed in a block with the config contract data',
    body: object(
      {
        params: {
          type: 'object',
          additionalProperties: BOC,
          propertyNames: { pattern: '^-?\\d{1,10}$' },
          minProperties: 1,
          maxProperties: MAX_PARAMS,
        },
      },
      ['params'],
    ),
    result: object({
      '@type': { const: 'devnet.configSet' },
      block_seqno: { type: 'integer' },
      config_seqno: { type: 'integer', description: "the config contract's seqno after the change" },
      params: { type: 'array', items: { type: 'integer' }, description: 'the params set' },
    }),
  };
  devnetRoute(app, options, operation, async (chain, body) => {
    onlyFields(body, ['params']);
    const params = configParams(body.params);
    const { seqno, configSeqno } = await chain.setConfig(params);
    return { '@type': 'devnet.configSet', block_seqno: seqno, config_seqno: configSeqno, params: [...params.keys()] };
  });
}

function configParams(raw: unknown): Map<number, Cell> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ApiError(422, 'params: expected an object of param number -> BoC (base64) of its cell, e.g. {"21": "te6cc..."}');
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw new ApiError(422, 'params: give at least one param');
  if (entries.length > MAX_PARAMS) throw new ApiError(422, `params: at most ${MAX_PARAMS} params per request, got ${entries.length}`);
  const budget = devnetBocBudget();
  const params = new Map<number, Cell>();
  for (const [key, value] of entries) {
    if (!/^-?\d{1,10}$/.test(key) || Number(key) < -(2 ** 31) || Number(key) >= 2 ** 31) {
      throw new ApiError(422, `params: ${JSON.stringify(showInput(key, 20))} is not a config param number (a 32-bit integer)`);
    }
    params.set(Number(key), boc(value, `params.${key}`, budget));
  }
  return params;
}
