/**
 * The two deployments the access suites run on: embedded (SQLite + memory limiter) and scaled out
 * (PostgreSQL + Redis), each isolated per run (temp dir; fresh schema and Redis prefix).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { AccessOptions } from '../../../src/access/index.js';
import { POSTGRES_URL, REDIS_URL, dropSchema, requireService, uniqueName } from '../../support/services.js';

export interface Backend {
  name: 'embedded' | 'shared';
  options: AccessOptions;
  cleanup(): Promise<void>;
}

const base = {
  enabled: true,
  networks: ['mainnet', 'testnet'],
  limiterFailure: 'local',
  storeTimeoutMs: 100,
  anonymousRps: 1,
  defaultKeyRps: 10,
} as const;

export function embeddedBackend(): Backend {
  const dataDir = mkdtempSync(join(tmpdir(), 'tongate-access-'));
  return {
    name: 'embedded',
    options: { ...base, networks: [...base.networks], dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** undefined (test skipped, or failed under CI) when PostgreSQL or Redis is unreachable. */
export async function sharedBackend(t: TestContext, overrides: Partial<AccessOptions> = {}): Promise<Backend | undefined> {
  if (!(await requireService(t, 'postgres')) || !(await requireService(t, 'redis'))) return undefined;
  const schema = uniqueName('tg_test');
  return {
    name: 'shared',
    options: {
      ...base,
      networks: [...base.networks],
      databaseUrl: POSTGRES_URL,
      databaseSchema: schema,
      redisUrl: REDIS_URL,
      redisPrefix: schema,
      ...overrides,
    },
    cleanup: () => dropSchema(schema),
  };
}
