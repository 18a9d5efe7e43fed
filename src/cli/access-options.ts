/** The access layer's options of a deployment: the same stores for `tongate start` and `tongate keys ...`. */
import { resolveAccessOptions, type AccessOptions } from '../access/index.js';
import type { TongateConfig } from '../config/types.js';

export function accessOptionsFrom(config: TongateConfig): AccessOptions {
  return resolveAccessOptions({
    enabled: config.access,
    networks: config.networks.map((n) => n.name),
    dataDir: config.dataDir,
    ephemeral: config.ephemeral,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    limiterFailure: config.limiterFailure,
    storeTimeoutMs: config.storeTimeoutMs,
  });
}
