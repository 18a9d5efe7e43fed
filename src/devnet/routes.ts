/**
 * Every devnet control, registered here (one file per family). The operations registered come back, for the
 * OpenAPI document and Swagger UI the gateway serves at /devnet/openapi.json and /devnet/ (devnetOpenApi).
 */
import type { FastifyInstance } from 'fastify';
import { registerConfig } from './config.js';
import { registerFund } from './fund.js';
import type { DevnetOperation } from './guard.js';
import { registerJetton } from './jetton.js';
import { registerMining } from './mining.js';
import { registerSnapshots } from './snapshots.js';
import { registerState } from './state.js';
import { registerTime } from './time.js';

export function registerDevnetRoutes(app: FastifyInstance, { adminToken }: { adminToken?: string }): DevnetOperation[] {
  const documented: DevnetOperation[] = [];
  const options = { adminToken, documented };
  registerFund(app, options);
  registerJetton(app, options);
  registerMining(app, options);
  registerTime(app, options);
  registerState(app, options);
  registerConfig(app, options);
  registerSnapshots(app, options);
  return documented;
}
