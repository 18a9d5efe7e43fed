/** The access layer's options of a deployment: the same stores for `tongate start` and `tongate keys ...`. */
import { resolveAccessOptions, type AccessOptions } from '../access/options.js';
import { ConfigError } from '../config/errors.js';
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

/** Where an --ephemeral tongate's keys are made: its own memory, reached through its admin API. */
export const EPHEMERAL_KEYS_ADVICE = 'start it with --admin-token and create keys with POST <base>/admin/keys';

/**
 * The options of `tongate keys ...` and `tongate accounts ...`: a separate process working on the server's store.
 * An --ephemeral store without --database-url is this process's memory: a key made there is gone when the command
 * exits and no server ever sees it, so the combination is refused, saying where such a server's keys are made.
 */
export function keyAdminOptionsFrom(config: TongateConfig): AccessOptions {
  if (config.ephemeral && !config.databaseUrl) {
    throw new ConfigError(
      '--ephemeral',
      'an --ephemeral tongate keeps its keys in its own memory, which this command cannot reach (a key made here would ' +
        `be gone when it exits). For an --ephemeral tongate, ${EPHEMERAL_KEYS_ADVICE}; or keep keys in PostgreSQL ` +
        '(--database-url, for the server and this command); or start tongate without --ephemeral and run this command ' +
        'with the same --data-dir',
    );
  }
  return accessOptionsFrom(config);
}
