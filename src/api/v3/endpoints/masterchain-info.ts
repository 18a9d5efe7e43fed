import type { FastifyInstance } from 'fastify';
import { blockJson } from '../format/block.js';

/** `{"last":Block,"first":Block}`: toncenter writes `last` first. */
export function registerMasterchainInfo(app: FastifyInstance): void {
  app.get('/api/v3/masterchainInfo', async (request) => {
    const info = request.network.chain.masterchainInfo();
    return { last: blockJson(info.last), first: blockJson(info.first) };
  });
}
