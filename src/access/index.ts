/**
 * The access layer: API keys per network (401/403) and rate limits (429), embedded or scaled out.
 * Framework-agnostic and TON-agnostic: the HTTP hook (src/http/access-hook.ts) feeds it
 * { network, key, clientIp } and applies the decision.
 *
 *   const access = await createAccessLayer({ enabled: true, dataDir, networks: ['mainnet', 'testnet'], ... });
 *   const d = access.check({ network: 'mainnet', key: 'tg_...', clientIp: '203.0.113.7' });
 *   // d is an AccessDecision, or a Promise of one (only on a key-cache miss with PostgreSQL, or with Redis)
 *
 * Stores: keys in SQLite (`<dataDir>/keys.sqlite`, or memory with `ephemeral`) or PostgreSQL
 * (`databaseUrl`); limits in memory or in Redis (`redisUrl`), with the chosen failure mode.
 */
import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '../util/clock.js';
import { AccessController, type AccessRequest } from './access-controller.js';
import { KeyAdmin } from './admin.js';
import { CircuitBreaker, type BreakerState } from '../util/circuit-breaker.js';
import { ALLOW_UNLIMITED, type AccessDecision } from './decision.js';
import { publishKeyChange, subscribeKeyChanges, type KeyChangeMessage } from './keys/change-bus.js';
import { KeyDirectory } from './keys/key-directory.js';
import { openKeyStore } from './keys/open-key-store.js';
import { KEYS_FILE_NAME } from './keys/sqlite-key-store.js';
import type { Limiter } from './limiter/limiter.js';
import { MemorySlidingLog } from './limiter/memory-sliding-log.js';
import { RedisSlidingLog } from './limiter/redis-sliding-log.js';
import { SharedLimiter } from './limiter/shared-limiter.js';
import { AccessMetrics } from './metrics.js';
import { withTimeout } from './timeout.js';
import { resolveAccessOptions, type AccessOptions } from './options.js';
import { throttledLogger, type AccessLogger } from './logger.js';

export type { AccessDecision, RefusalBody, RefusalStatus } from './decision.js';
export type { AccessRequest } from './access-controller.js';
export type { AccessOptions, LimiterFailureMode } from './options.js';
export type { AccessLogger } from './logger.js';
export { resolveAccessOptions, AccessOptionsError, DEFAULT_ACCESS_OPTIONS, MAX_RPS } from './options.js';
export {
  KeyAdmin,
  AdminError,
  openKeyAdmin,
  type CreateKeyInput,
  type CreatedKey,
  type SetAccountInput,
  type SetKeyLimitsInput,
} from './admin.js';
export type { KeyInfo, AccountLimit } from './keys/key-store.js';
export { AccessMetrics, type CountCell } from './metrics.js';
export { redactApiKey } from './redact.js';

/**
 * How often each instance polls the key store's revision (a cheap read): a key created or revoked by another process
 * is honoured or refused within one interval (docs/access.md promises a second). PostgreSQL is polled less often
 * than a local file; Redis pub/sub, when configured, usually tells sooner.
 */
export const KEY_POLL_MS = { sqlite: 250, postgres: 500 } as const;

export interface AccessStatus {
  enabled: boolean;
  keyStore: 'sqlite' | 'postgres' | 'none';
  limiter: 'memory' | 'redis' | 'none';
  keyStoreBreaker: BreakerState;
  limiterBreaker: BreakerState;
}

export interface AccessLayer {
  readonly enabled: boolean;
  /** One decision per request. Synchronous on the embedded hot path; a promise only when a remote store is asked. */
  check(req: AccessRequest): AccessDecision | Promise<AccessDecision>;
  /** Key and account administration on the same store (undefined when the layer is off). */
  readonly admin: KeyAdmin | undefined;
  readonly metrics: AccessMetrics;
  /** One line for the startup banner, e.g. "keys: SQLite /data/keys.sqlite; limits: in memory". */
  describe(): string;
  status(): AccessStatus;
  /** Poll the key store's change feed now (otherwise it runs every KEY_POLL_MS on the clock's timers). */
  syncKeys(): Promise<void>;
  close(): Promise<void>;
}

export interface AccessDeps {
  clock?: Clock;
  logger?: AccessLogger;
  /**
   * Tests only: let the Redis script decide with `clock` instead of Redis's TIME, so limiter
   * properties can be checked on Redis with a manual clock.
   */
  redisUsesClock?: boolean;
}

export async function createAccessLayer(input: AccessOptions, deps: AccessDeps = {}): Promise<AccessLayer> {
  const metrics = new AccessMetrics();
  const log = throttledLogger(deps.logger);
  if (!input.enabled) {
    log.warn('access layer OFF (--access off): no API keys, no rate limits; run it only behind another gateway');
    return disabledLayer(metrics);
  }
  const options = resolveAccessOptions(input);
  const clock = deps.clock ?? systemClock;
  const prefix = options.redisPrefix ?? 'tongate';
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((error: unknown) => log.error('access layer close', error));
  };

  try {
    const store = await openKeyStore(options, (error) => log.error('key store connection', error));
    closers.push(() => store.close());
    const keysBreaker = new CircuitBreaker({ clock, onStateChange: (s) => onBreaker('keys', s) });
    const directory = new KeyDirectory({
      store,
      clock,
      breaker: keysBreaker,
      timeoutMs: options.storeTimeoutMs,
      pollMs: KEY_POLL_MS[store.kind],
      events: {
        onHit: () => metrics.keyCacheHit(),
        onMiss: () => metrics.keyCacheMiss(),
        onStoreError: (operation, error) => {
          metrics.storeError('keys', operation);
          log.error(`key store ${operation}`, error);
        },
      },
    });
    await directory.start();
    closers.push(() => directory.close());

    const local = new MemorySlidingLog({ clock });
    let limiter: Limiter = local;
    let limiterBreaker: CircuitBreaker | undefined;
    let publisher: Redis | undefined;
    if (options.redisUrl) {
      const redis = await connectRedis(options.redisUrl, (error) => {
        metrics.storeError('limiter', 'connection');
        log.error('redis connection', error);
      });
      publisher = redis;
      closers.push(async () => redis.disconnect());
      limiterBreaker = new CircuitBreaker({ clock, onStateChange: (s) => onBreaker('limiter', s) });
      limiter = new SharedLimiter({
        remote: new RedisSlidingLog({ redis, prefix, timeoutMs: options.storeTimeoutMs, clock: deps.redisUsesClock ? clock : undefined }),
        local,
        breaker: limiterBreaker,
        failureMode: options.limiterFailure,
        clock,
        events: {
          onRemoteError: (error) => {
            metrics.storeError('limiter', 'decision');
            log.error('redis limiter decision', error);
          },
          onFallback: (mode) => metrics.fallback(mode),
        },
      });
      const subscription = await subscribeKeyChanges(
        options.redisUrl,
        prefix,
        (message) => applyChange(directory, message),
        (error) => log.error('redis key-change subscription', error),
      );
      closers.push(() => subscription.close());
    }
    closers.push(() => limiter.close());

    const admin = new KeyAdmin({
      store,
      networks: options.networks,
      defaultKeyRps: options.defaultKeyRps,
      clock,
      onChange: async (message) => {
        applyChange(directory, message);
        // Bounded: a hung Redis must not hang an admin write (the revision poll propagates it anyway).
        if (publisher) await withTimeout(publishKeyChange(publisher, prefix, message), 1000);
      },
    });
    const controller = new AccessController({ directory, limiter, clock, metrics, anonymousRps: options.anonymousRps });
    const keysWhere =
      store.kind === 'postgres'
        ? `PostgreSQL (schema ${options.databaseSchema ?? 'public'})`
        : options.ephemeral
          ? 'SQLite in memory (ephemeral)'
          : `SQLite ${options.dataDir}/${KEYS_FILE_NAME}`;
    const limitsWhere = options.redisUrl ? `Redis (on failure: ${options.limiterFailure})` : 'in memory';

    return {
      enabled: true,
      check: (req) => controller.check(req),
      admin,
      metrics,
      describe: () => `keys: ${keysWhere}; limits: ${limitsWhere}`,
      status: () => ({
        enabled: true,
        keyStore: store.kind,
        limiter: options.redisUrl ? 'redis' : 'memory',
        keyStoreBreaker: keysBreaker.state,
        limiterBreaker: limiterBreaker?.state ?? 'closed',
      }),
      syncKeys: () => directory.poll(),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }

  function onBreaker(storeName: 'keys' | 'limiter', state: BreakerState): void {
    metrics.breakerState(storeName, state);
    if (state === 'open') log.warn(`${storeName === 'keys' ? 'key store' : 'Redis limiter'} unreachable: circuit open`);
    if (state === 'closed') log.info(`${storeName === 'keys' ? 'key store' : 'Redis limiter'} reachable again: circuit closed`);
  }
}

function applyChange(directory: KeyDirectory, message: KeyChangeMessage): void {
  if (message.all) directory.invalidateAll();
  else directory.invalidate(message.hashes);
}

/**
 * The limiter's Redis connection: commands fail at once while disconnected (no offline queue,
 * so nothing piles up behind an outage), and it reconnects quickly
 * so shared limits return within seconds. Start-up does not fail if Redis is down: the failure
 * mode applies until it comes up.
 */
async function connectRedis(url: string, onError: (error: unknown) => void): Promise<Redis> {
  // No auto-pipelining: measured slower here (one small script per request, ~10 in flight).
  // The per-call timeout is the SharedLimiter's (withTimeout); commandTimeout would add a second timer.
  // ioredis is loaded here, when a Redis is configured: an embedded deployment never imports it.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 50, 500),
  });
  redis.on('error', onError);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

function disabledLayer(metrics: AccessMetrics): AccessLayer {
  return {
    enabled: false,
    check: () => ALLOW_UNLIMITED,
    admin: undefined,
    metrics,
    describe: () => 'access layer OFF: no API keys, no rate limits',
    status: () => ({ enabled: false, keyStore: 'none', limiter: 'none', keyStoreBreaker: 'closed', limiterBreaker: 'closed' }),
    syncKeys: async () => undefined,
    close: async () => undefined,
  };
}
