/**
 * POST /devnet/fund {"address","amount"}: a real transfer from the local chain's faucet wallet, answered with its
 * transaction once it is in a block (in manual mining the fund seals that block itself).
 */
import type { FastifyInstance } from 'fastify';
import { devnetRoute, type DevnetOptions } from './guard.js';
import { address, nanotons } from './input.js';
import { ADDRESS, HASH, NANOTONS, object } from './schemas.js';

export function registerFund(app: FastifyInstance, options: DevnetOptions): void {
  const operation = {
    method: 'POST' as const,
    path: '/devnet/fund',
    summary: 'A transfer from the faucet wallet (non-bounceable), answered once its transaction is in a block',
    body: object({ address: ADDRESS, amount: NANOTONS }, ['address', 'amount']),
    result: object({ '@type': { const: 'devnet.funded' }, hash: HASH, lt: { type: 'string' }, block_seqno: { type: 'integer' } }),
  };
  devnetRoute(app, options, operation, async (chain, body) => {
    const funded = await chain.fund(address(body.address), nanotons(body.amount, 'amount'));
    return { '@type': 'devnet.funded', hash: funded.txHash.toString('base64'), lt: funded.lt.toString(), block_seqno: funded.seqno };
  });
}
