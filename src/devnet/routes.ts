/**
 * Every devnet control, registered here (one file per family) with its OpenAPI document and Swagger UI at
 * /devnet/openapi.json and /devnet/.
 */
import type { FastifyInstance } from 'fastify';
import { registerDocs } from '../http/docs.js';
import { VERSION } from '../version.js';
import { registerConfig } from './config.js';
import { registerFund } from './fund.js';
import type { DevnetOperation } from './guard.js';
import { registerJetton } from './jetton.js';
import { registerMining } from './mining.js';
import { devnetOpenApi } from './openapi.js';
import { registerSnapshots } from './snapshots.js';
import { registerState } from './state.js';
import { registerTime } from './time.js';

export function registerDevnetRoutes(app: FastifyInstance, { adminToken }: { adminToken?: string }): void {
  const documented: DevnetOperation[] = [];
  const options = { adminToken, documented };
  registerFund(app, options);
  registerJetton(app, options);
  registerMining(app, options);
  registerTime(app, options);
  registerState(app, options);
  registerConfig(app, options);
  registerSnapshots(app, options);
  registerDocs(app, { prefix: '/devnet', title: 'tongate devnet controls', document: () => devnetOpenApi(documented, VERSION) });
}
