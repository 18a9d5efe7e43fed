/**
 * What the access layer needs to know, independent of where it came from (CLI flags, config file,
 * tests). The HTTP engineer maps `--access`, `--data-dir`, `--ephemeral`, `--database-url`,
 * `--redis-url`, `--limiter-failure` onto this shape; `resolveAccessOptions` fills the defaults and
 * refuses impossible combinations with a message naming the bad field.
 */

/** What to do with a request when the shared limiter (Redis) cannot answer in time. */
export type LimiterFailureMode = 'local' | 'open' | 'closed';

export interface AccessOptions {
  /** false = `--access off`: every request is allowed, nothing is opened. */
  enabled: boolean;
  /** The network names this deployment serves; a key must name one of them. */
  networks: string[];
  /** Directory of the embedded key store (`<dataDir>/keys.sqlite`). */
  dataDir?: string;
  /** Keep the embedded key store in memory only (nothing written to disk). */
  ephemeral?: boolean;
  /** PostgreSQL URL: keys live there instead of SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema for the tongate_* tables (default "public"). Tests use a fresh one per run. */
  databaseSchema?: string;
  /** Redis URL: limits are shared through it, and key changes are broadcast on it. */
  redisUrl?: string;
  /** Prefix of every Redis key and channel (default "tongate"); lets deployments or tests share one Redis. */
  redisPrefix?: string;
  limiterFailure: LimiterFailureMode;
  /** Longest a request may wait for Redis or for the key store, in ms (1..100). */
  storeTimeoutMs: number;
  /** Requests per second for a client without a key (the spec says 1). */
  anonymousRps: number;
  /** Requests per second of a new key when none is given (10, toncenter's free plan). */
  defaultKeyRps: number;
}

export const DEFAULT_ACCESS_OPTIONS = {
  enabled: true,
  networks: ['mainnet', 'testnet'],
  limiterFailure: 'local',
  storeTimeoutMs: 100,
  anonymousRps: 1,
  defaultKeyRps: 10,
} as const satisfies Partial<AccessOptions>;

/** The largest per-key or per-account limit; the sliding log keeps one timestamp per admitted request. */
export const MAX_RPS = 1_000_000;

export class AccessOptionsError extends Error {
  override name = 'AccessOptionsError';
}

const NETWORK_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Fills defaults and validates. Throws AccessOptionsError naming the first bad field. */
export function resolveAccessOptions(input: Partial<AccessOptions>): AccessOptions {
  const o: AccessOptions = { ...DEFAULT_ACCESS_OPTIONS, networks: [...DEFAULT_ACCESS_OPTIONS.networks], ...input };
  if (!Array.isArray(o.networks) || o.networks.length === 0)
    throw new AccessOptionsError('networks: at least one network name is required');
  for (const n of o.networks) {
    if (typeof n !== 'string' || !NETWORK_NAME.test(n)) throw new AccessOptionsError(`networks: invalid network name ${JSON.stringify(n)}`);
  }
  if (!['local', 'open', 'closed'].includes(o.limiterFailure)) {
    throw new AccessOptionsError(`limiterFailure: must be local, open or closed (got ${JSON.stringify(o.limiterFailure)})`);
  }
  if (!Number.isInteger(o.storeTimeoutMs) || o.storeTimeoutMs < 1 || o.storeTimeoutMs > 100) {
    throw new AccessOptionsError(`storeTimeoutMs: must be an integer from 1 to 100 (got ${o.storeTimeoutMs})`);
  }
  for (const field of ['anonymousRps', 'defaultKeyRps'] as const) {
    if (!isValidRps(o[field])) throw new AccessOptionsError(`${field}: must be an integer from 1 to ${MAX_RPS} (got ${o[field]})`);
  }
  if (o.databaseSchema !== undefined && !SCHEMA_NAME.test(o.databaseSchema)) {
    throw new AccessOptionsError(`databaseSchema: must match ${SCHEMA_NAME} (got ${JSON.stringify(o.databaseSchema)})`);
  }
  if (o.enabled && !o.databaseUrl && !o.ephemeral && !o.dataDir) {
    throw new AccessOptionsError('dataDir: required for the embedded key store (or set ephemeral, or databaseUrl)');
  }
  return o;
}

export function isValidRps(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_RPS;
}
