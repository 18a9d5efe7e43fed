/**
 * POST /devnet/fund {"address","amount"}: a real transfer from the local chain's faucet wallet, answered
 * with its transaction once it is in a block. Local networks only; with an admin token configured, it
 * requires `Authorization: Bearer <token>`.
 */
import { Address } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api/errors.js';
import { toApiError } from '../api/v2/chain-errors.js';
import { okEnvelope } from '../api/v2/envelope.js';
import { bearerMatches } from './bearer.js';

interface Fundable {
  fund(address: Address, amount: bigint): Promise<{ txHash: Buffer; lt: bigint; seqno: number }>;
}

const MAX_FUND = 1_000_000_000n * 1_000_000_000n; // a billion TON: more than any faucet holds

export function registerDevnetRoutes(app: FastifyInstance, { adminToken }: { adminToken?: string }): void {
  app.post('/devnet/fund', async (request) => {
    if (adminToken !== undefined && !bearerMatches(request.headers.authorization, adminToken)) {
      throw new ApiError(401, 'this endpoint requires Authorization: Bearer <admin token>');
    }
    const chain = request.network.chain as unknown as Partial<Fundable>;
    if (typeof chain.fund !== 'function') throw new ApiError(404, `${request.network.name} is not a local network: it has no faucet`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const address = parseAddress(body.address);
    const amount = parseAmount(body.amount);
    // The chain's typed refusals (workchain, amount beyond the faucet) are 4xx, as on every v2 method.
    const funded = await chain.fund(address, amount).catch((error: unknown) => {
      throw toApiError(error);
    });
    return okEnvelope(
      { '@type': 'devnet.funded', hash: funded.txHash.toString('base64'), lt: funded.lt.toString(), block_seqno: funded.seqno },
      `${Math.floor(Date.now() / 1000)}:0:0`,
    );
  });
}

function parseAddress(raw: unknown): Address {
  if (typeof raw !== 'string' || raw === '') throw new ApiError(422, 'address: missing (a raw or user-friendly address)');
  try {
    return Address.parse(raw);
  } catch {
    throw new ApiError(422, `address: not a TON address: ${JSON.stringify(raw.slice(0, 80))}`);
  }
}

function parseAmount(raw: unknown): bigint {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) throw new ApiError(422, 'amount: expected nanotons as a decimal string, e.g. "1000000000"');
  const amount = BigInt(text);
  if (amount <= 0n || amount > MAX_FUND) throw new ApiError(422, `amount: must be between 1 and ${MAX_FUND} nanotons`);
  return amount;
}
