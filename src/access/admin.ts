/**
 * Key and account administration: the one implementation behind the CLI (`tongate keys ...`,
 * `tongate accounts set`) and the admin HTTP API. Validates input (422 with the field named, as every
 * other API of tongate answers a bad value),
 * writes through the key store, and announces the change so caches drop it at once.
 */
import { systemClock, type Clock } from '../util/clock.js';
import { publishKeyChange, type KeyChangeMessage } from './keys/change-bus.js';
import { displayPrefix, generateKey, generateKeyId, hashKey, importProblem } from './keys/key-material.js';
import { DuplicateKeyError, type AccountLimit, type KeyInfo, type KeyStore } from './keys/key-store.js';
import { missingEmbeddedKeyStore, openKeyStore } from './keys/open-key-store.js';
import { MAX_RPS, isValidRps, type AccessOptions } from './options.js';
import { withTimeout } from './timeout.js';
import { showInput } from '../util/show-input.js';

export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

export interface CreateKeyInput {
  network: string;
  rps?: number;
  account?: string | null;
  label?: string | null;
  /** ISO 8601 date or date-time (a date alone means 00:00 UTC), or epoch ms. */
  expires?: string | number | null;
  /** Import this key instead of generating one (any visible-ASCII string up to 256 characters). */
  key?: string;
  /** Parallel streams the key may hold (src/stream); absent: its account's, else the default. */
  streamConnections?: number | string | null;
  /** Addresses one stream of the key may follow (src/stream); absent: its account's, else the default. */
  streamAddresses?: number | string | null;
}

/** A created key: the stored facts plus the key itself, which is shown this once and never again. */
export interface CreatedKey extends KeyInfo {
  key: string;
}

/** A change of one key's own limits: at least one of them; the others stay as they are. */
export interface SetKeyLimitsInput {
  rps?: number | string;
  streamConnections?: number | string;
  streamAddresses?: number | string;
}

export interface SetAccountInput {
  name: string;
  network: string;
  rps: number;
  /** Parallel streams of each of the account's keys that sets none (src/stream); absent: the default. */
  streamConnections?: number | string | null;
  /** Addresses per stream of each of the account's keys that sets none (src/stream); absent: the default. */
  streamAddresses?: number | string | null;
}

/** The most parallel streams a key may be given. */
export const MAX_STREAM_CONNECTIONS = 100_000;
/** The most addresses one stream may be allowed to follow. */
export const MAX_STREAM_ADDRESSES = 1_000_000;

export interface KeyAdminOptions {
  store: KeyStore;
  networks: readonly string[];
  defaultKeyRps: number;
  clock?: Clock;
  /** Told after every successful write (cache invalidation, pub/sub). Failures here do not undo the write. */
  onChange?: (message: KeyChangeMessage) => void | Promise<void>;
}

/** A client's value in a message: strings quoted, anything else as a bounded JSON excerpt. */
const quoted = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(showInput(value)) : showInput(value));

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const MAX_LABEL = 200;

export class KeyAdmin {
  private readonly clock: Clock;

  constructor(private readonly o: KeyAdminOptions) {
    this.clock = o.clock ?? systemClock;
  }

  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    const network = this.network(input.network);
    const rps = input.rps === undefined || input.rps === null ? this.o.defaultKeyRps : this.rps(input.rps);
    const account = input.account === undefined || input.account === null || input.account === '' ? null : this.accountName(input.account);
    const label = input.label === undefined || input.label === null || input.label === '' ? null : this.label(input.label);
    const now = this.clock.now();
    const expiresAt =
      input.expires === undefined || input.expires === null || input.expires === '' ? null : this.expiry(input.expires, now);
    let raw: string;
    if (input.key !== undefined) {
      if (typeof input.key !== 'string') throw new AdminError(422, 'key: must be a string');
      const problem = importProblem(input.key);
      if (problem) throw new AdminError(422, problem);
      raw = input.key;
    } else {
      raw = generateKey();
    }
    const caps = this.streamCaps(input);
    const hash = hashKey(raw);
    let info: KeyInfo;
    try {
      info = await this.o.store.insertKey({
        id: generateKeyId(),
        hash,
        display: displayPrefix(raw),
        network,
        rps,
        account,
        label,
        expiresAt,
        createdAt: now,
        ...caps,
      });
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new AdminError(409, error.message);
      throw error;
    }
    await this.announce({ hashes: [hash] });
    return { ...info, key: raw };
  }

  async listKeys(): Promise<KeyInfo[]> {
    return this.o.store.listKeys();
  }

  async showKey(id: string): Promise<KeyInfo> {
    const info = await this.o.store.getKey(this.id(id));
    if (info === null) throw new AdminError(404, `key: no key with id ${JSON.stringify(id)}`);
    return info;
  }

  async revokeKey(id: string): Promise<KeyInfo> {
    const result = await this.o.store.revokeKey(this.id(id), this.clock.now());
    if (result === null) throw new AdminError(404, `key: no key with id ${JSON.stringify(id)}`);
    await this.announce({ hashes: [result.hash] });
    return result.info;
  }

  /**
   * Changes a key's own limits (`keys set`, `PATCH /admin/keys/:id`): the next request with it meets the new ones,
   * here at once and on every instance within a poll (or at once with the change bus). A key of an account with a
   * shared limit on its network keeps meeting the account's rps (docs/access.md); a revoked key cannot change (409).
   */
  async setKeyLimits(id: string, input: SetKeyLimitsInput): Promise<KeyInfo> {
    const key = this.id(id);
    const given = (value: unknown) => value !== undefined && value !== null && value !== '';
    if (!given(input.rps) && !given(input.streamConnections) && !given(input.streamAddresses))
      throw new AdminError(422, 'rps: give rps, stream_connections and/or stream_addresses to change');
    const limits = { ...(given(input.rps) ? { rps: this.rps(input.rps) } : {}), ...this.streamCaps(input) };
    const current = await this.o.store.getKey(key);
    if (current === null) throw new AdminError(404, `key: no key with id ${JSON.stringify(id)}`);
    if (current.revokedAt !== null) throw new AdminError(409, `key: ${id} is revoked; create a new key instead`);
    const result = await this.o.store.updateKeyLimits(key, limits);
    if (result === null) throw new AdminError(404, `key: no key with id ${JSON.stringify(id)}`);
    await this.announce({ hashes: [result.hash] });
    return result.info;
  }

  async setAccountLimit(input: SetAccountInput): Promise<AccountLimit> {
    const limit = await this.o.store.setAccountLimit({
      name: this.accountName(input.name),
      network: this.network(input.network),
      rps: this.rps(input.rps),
      updatedAt: this.clock.now(),
      ...this.streamCaps(input),
    });
    await this.announce({ hashes: [], all: true });
    return limit;
  }

  async listAccountLimits(): Promise<AccountLimit[]> {
    return this.o.store.listAccountLimits();
  }

  private async announce(message: KeyChangeMessage): Promise<void> {
    try {
      await this.o.onChange?.(message);
    } catch {
      // The write is committed; the store's revision poll propagates it even if the broadcast failed.
    }
  }

  private network(value: unknown): string {
    if (typeof value !== 'string' || value === '') throw new AdminError(422, `network: required, one of ${this.o.networks.join(', ')}`);
    if (!this.o.networks.includes(value))
      throw new AdminError(422, `network: unknown network ${quoted(value)} (one of ${this.o.networks.join(', ')})`);
    return value;
  }

  private rps(value: unknown): number {
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (!isValidRps(n)) throw new AdminError(422, `rps: must be an integer from 1 to ${MAX_RPS} (got ${quoted(value)})`);
    return n;
  }

  /** A stream cap (`field` names it in the 422), null when not given. */
  private streamCap(value: unknown, field: string, max: number): number | null {
    if (value === undefined || value === null || value === '') return null;
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
      throw new AdminError(422, `${field}: must be an integer from 0 to ${max} (got ${quoted(value)})`);
    }
    return n;
  }

  /** The stream caps a key or an account is given: only those set. */
  private streamCaps(input: { streamConnections?: unknown; streamAddresses?: unknown }): {
    streamConnections?: number;
    streamAddresses?: number;
  } {
    const connections = this.streamCap(input.streamConnections, 'stream_connections', MAX_STREAM_CONNECTIONS);
    const addresses = this.streamCap(input.streamAddresses, 'stream_addresses', MAX_STREAM_ADDRESSES);
    return {
      ...(connections === null ? {} : { streamConnections: connections }),
      ...(addresses === null ? {} : { streamAddresses: addresses }),
    };
  }

  private accountName(value: unknown): string {
    if (typeof value !== 'string' || !ACCOUNT_NAME.test(value)) {
      throw new AdminError(422, `account: 1-64 characters of letters, digits, ".", "_", "@", "-" (got ${quoted(value)})`);
    }
    return value;
  }

  private label(value: unknown): string {
    // eslint-disable-next-line no-control-regex -- control characters are what a label may not hold
    if (typeof value !== 'string' || value.length > MAX_LABEL || /[\x00-\x1f\x7f]/.test(value)) {
      throw new AdminError(422, `label: text of at most ${MAX_LABEL} characters without control characters`);
    }
    return value;
  }

  private expiry(value: unknown, now: number): number {
    const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
    if (!Number.isFinite(ms))
      throw new AdminError(422, `expires: not a date: ${quoted(value)} (use ISO 8601, e.g. 2027-01-31 or 2027-01-31T12:00:00Z)`);
    if (ms <= now) throw new AdminError(422, `expires: must be in the future (got ${new Date(ms).toISOString()})`);
    return ms;
  }

  private id(value: unknown): string {
    if (typeof value !== 'string' || value === '' || value.length > 64) throw new AdminError(422, 'id: a key id such as key_AbC123...');
    return value;
  }
}

/**
 * A KeyAdmin for a process that is not the server (the CLI): opens the same store the server uses
 * and, with a Redis URL, a connection to broadcast changes to the running instances. `existing`: the
 * command cannot do anything on an empty store (list, show, revoke), so a missing embedded store is a 404
 * naming its file rather than a new empty one.
 */
export async function openKeyAdmin(
  options: Pick<
    AccessOptions,
    'networks' | 'defaultKeyRps' | 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'ephemeral' | 'redisUrl' | 'redisPrefix'
  >,
  { existing = false }: { existing?: boolean } = {},
): Promise<{ admin: KeyAdmin; close(): Promise<void> }> {
  const missing = existing ? missingEmbeddedKeyStore(options) : undefined;
  if (missing)
    throw new AdminError(
      404,
      `no key store at ${missing} (tongate start creates it there; another deployment: --data-dir or --database-url)`,
    );
  const store = await openKeyStore(options);
  // A short-lived connection: one try, no reconnect loop keeping the CLI alive when Redis is down.
  // ioredis is loaded only when there is a Redis to tell (a key command on SQLite alone never pays for it).
  const redis = options.redisUrl
    ? new (await import('ioredis')).Redis(options.redisUrl, {
        maxRetriesPerRequest: 1,
        connectTimeout: 1000,
        retryStrategy: () => null,
        lazyConnect: true,
      })
    : undefined;
  redis?.on('error', () => undefined);
  const prefix = options.redisPrefix ?? 'tongate';
  const admin = new KeyAdmin({
    store,
    networks: options.networks,
    defaultKeyRps: options.defaultKeyRps,
    // Bounded: a hung Redis must not hang the CLI (the servers' revision poll sees the change anyway).
    onChange: redis ? (message) => withTimeout(publishKeyChange(redis, prefix, message), 2000) : undefined,
  });
  return {
    admin,
    async close() {
      redis?.disconnect();
      await store.close();
    },
  };
}
