/** Every v3 endpoint built so far. Endpoints not built answer 404 like any unknown path: no empty fakes. */
import type { FastifyInstance } from 'fastify';
import { registerMasterchainInfo } from './endpoints/masterchain-info.js';

export function registerV3Routes(app: FastifyInstance): void {
  registerMasterchainInfo(app);
}
