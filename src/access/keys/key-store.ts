/**
 * Where keys and account limits live. Two implementations with one contract: SQLite (embedded,
 * synchronous, so the embedded hot path never awaits) and PostgreSQL (shared by many instances).
 *
 * Every write bumps one store-wide revision counter in the same transaction and stamps the rows
 * it touched with it; readers poll `revision()` and ask `changesSince()` to learn which cached
 * entries to drop. This works across processes (the CLI writes while the server runs) with no
 * other channel, and Redis pub/sub only makes it faster.
 */

export type MaybePromise<T> = T | Promise<T>;

/** What a request check needs about a key: its own limit and its account's limit on the key's network. */
export interface KeyRecord {
  id: string;
  network: string;
  rps: number;
  account: string | null;
  /** The account's shared limit on this key's network, if the account has one. */
  accountRps: number | null;
  /** Epoch ms after which the key no longer exists for requests; null = never. */
  expiresAt: number | null;
  /** Parallel streams (src/stream): the key's own cap, else its account's on this network; null = the default. */
  streamConnections: number | null;
  /** Addresses one stream may follow: the key's own cap, else its account's on this network; null = the default. */
  streamAddresses: number | null;
}

/** What operators see about a key. Never contains the key itself. */
export interface KeyInfo {
  id: string;
  /** The first few characters of the key, for telling keys apart. */
  display: string;
  network: string;
  rps: number;
  account: string | null;
  label: string | null;
  expiresAt: number | null;
  createdAt: number;
  revokedAt: number | null;
  /** Parallel streams this key may hold, when set (absent: its account's, else the default, 2). */
  streamConnections?: number;
  /** Addresses one stream of this key may follow, when set (absent: its account's, else the default, 1,000). */
  streamAddresses?: number;
}

export interface AccountLimit {
  name: string;
  network: string;
  rps: number;
  updatedAt: number;
  /** Parallel streams of each key of the account that sets none itself, when set (absent: the default). */
  streamConnections?: number;
  /** Addresses per stream of each key of the account that sets none itself, when set (absent: the default). */
  streamAddresses?: number;
}

/** A key's own limits, as a change names them: only those given change. */
export interface KeyLimits {
  rps?: number;
  streamConnections?: number;
  streamAddresses?: number;
}

/** The SET list and its values for the limits given (column names are the same in both schemas). */
export function keyLimitColumns(limits: KeyLimits): { columns: string[]; values: number[] } {
  const given: [string, number | undefined][] = [
    ['rps', limits.rps],
    ['stream_connections', limits.streamConnections],
    ['stream_addresses', limits.streamAddresses],
  ];
  const set = given.filter((entry): entry is [string, number] => entry[1] !== undefined);
  return { columns: set.map(([column]) => column), values: set.map(([, value]) => value) };
}

export interface NewKey extends Omit<KeyInfo, 'revokedAt'> {
  /** hashKey(raw key) */
  hash: string;
}

export interface KeyChanges {
  revision: number;
  /** Hashes of keys created, revoked or changed since the given revision. */
  hashes: string[];
  /** An account limit changed: every cached key of that account is stale (callers drop all). */
  accountsChanged: boolean;
}

export interface KeyStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The key with this hash if it exists and is not revoked (expiry is the caller's rule: it depends on the clock). */
  findByHash(hash: string): MaybePromise<KeyRecord | null>;
  revision(): MaybePromise<number>;
  changesSince(revision: number): MaybePromise<KeyChanges>;
  /** Throws DuplicateKeyError if a key with the same hash exists. */
  insertKey(key: NewKey): MaybePromise<KeyInfo>;
  listKeys(): MaybePromise<KeyInfo[]>;
  getKey(id: string): MaybePromise<KeyInfo | null>;
  /** Marks the key revoked (idempotent). Returns null if no such id. */
  revokeKey(id: string, at: number): MaybePromise<{ info: KeyInfo; hash: string } | null>;
  /** Changes the limits given (the others stay as they are). Returns null if no such id. */
  updateKeyLimits(id: string, limits: KeyLimits): MaybePromise<{ info: KeyInfo; hash: string } | null>;
  setAccountLimit(limit: AccountLimit): MaybePromise<AccountLimit>;
  listAccountLimits(): MaybePromise<AccountLimit[]>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  override name = 'DuplicateKeyError';
  constructor() {
    super('key: this key is already registered');
  }
}

/** Row shapes shared by both SQL stores (column names are the same in both schemas). */
export interface KeyRow {
  id: string;
  display: string;
  network: string;
  rps: number | string;
  account: string | null;
  label: string | null;
  expires_at: number | string | null;
  created_at: number | string;
  revoked_at: number | string | null;
  stream_connections: number | string | null;
  stream_addresses: number | string | null;
}

export function keyInfoFromRow(r: KeyRow): KeyInfo {
  return {
    id: r.id,
    display: r.display,
    network: r.network,
    rps: Number(r.rps),
    account: r.account,
    label: r.label,
    expiresAt: nullableNumber(r.expires_at),
    createdAt: Number(r.created_at),
    revokedAt: nullableNumber(r.revoked_at),
    ...streamCaps(r.stream_connections, r.stream_addresses),
  };
}

export interface RecordRow {
  id: string;
  network: string;
  rps: number | string;
  account: string | null;
  account_rps: number | string | null;
  expires_at: number | string | null;
  stream_connections: number | string | null;
  account_stream_connections: number | string | null;
  stream_addresses: number | string | null;
  account_stream_addresses: number | string | null;
}

export function keyRecordFromRow(r: RecordRow): KeyRecord {
  return {
    id: r.id,
    network: r.network,
    rps: Number(r.rps),
    account: r.account,
    accountRps: nullableNumber(r.account_rps),
    expiresAt: nullableNumber(r.expires_at),
    streamConnections: nullableNumber(r.stream_connections) ?? nullableNumber(r.account_stream_connections),
    streamAddresses: nullableNumber(r.stream_addresses) ?? nullableNumber(r.account_stream_addresses),
  };
}

export function accountFromRow(r: {
  name: string;
  network: string;
  rps: number | string;
  updated_at: number | string;
  stream_connections?: number | string | null;
  stream_addresses?: number | string | null;
}): AccountLimit {
  return {
    name: r.name,
    network: r.network,
    rps: Number(r.rps),
    updatedAt: Number(r.updated_at),
    ...streamCaps(r.stream_connections ?? null, r.stream_addresses ?? null),
  };
}

/** The stream caps as operators see them: written only when set, so keys and accounts without one read as before. */
function streamCaps(
  connections: number | string | null,
  addresses: number | string | null,
): { streamConnections?: number; streamAddresses?: number } {
  return {
    ...(connections === null ? {} : { streamConnections: Number(connections) }),
    ...(addresses === null ? {} : { streamAddresses: Number(addresses) }),
  };
}

/** The columns of an account limit as accountFromRow reads them. */
export const ACCOUNT_COLUMNS = 'name, network, rps, updated_at, stream_connections, stream_addresses';

function nullableNumber(v: number | string | null): number | null {
  return v === null ? null : Number(v);
}

/** The SQL both stores use to resolve a key with its account limit ($1 = hash). */
export const FIND_BY_HASH_SQL = `
  SELECT k.id, k.network, k.rps, k.account, k.expires_at, a.rps AS account_rps, k.stream_connections, a.stream_connections AS account_stream_connections,
    k.stream_addresses, a.stream_addresses AS account_stream_addresses
  FROM tongate_api_keys k
  LEFT JOIN tongate_accounts a ON a.name = k.account AND a.network = k.network
  WHERE k.hash = $1 AND k.revoked_at IS NULL`;

export const KEY_COLUMNS =
  'id, display, network, rps, account, label, expires_at, created_at, revoked_at, stream_connections, stream_addresses';

/**
 * Schema, version by version. Types are chosen to mean the same in SQLite and PostgreSQL
 * (BIGINT epoch milliseconds, TEXT hex hashes). Append new versions; never edit an applied one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE tongate_meta (id INTEGER PRIMARY KEY CHECK (id = 1), revision BIGINT NOT NULL);
   INSERT INTO tongate_meta (id, revision) VALUES (1, 0);
   CREATE TABLE tongate_api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL UNIQUE,
     display TEXT NOT NULL,
     network TEXT NOT NULL,
     rps INTEGER NOT NULL,
     account TEXT,
     label TEXT,
     expires_at BIGINT,
     created_at BIGINT NOT NULL,
     revoked_at BIGINT,
     revision BIGINT NOT NULL
   );
   CREATE INDEX tongate_api_keys_revision ON tongate_api_keys (revision);
   CREATE TABLE tongate_accounts (
     name TEXT NOT NULL,
     network TEXT NOT NULL,
     rps INTEGER NOT NULL,
     updated_at BIGINT NOT NULL,
     revision BIGINT NOT NULL,
     PRIMARY KEY (name, network)
   );`,
  // Streaming's parallel connections per key and per account (src/stream); NULL: the default.
  `ALTER TABLE tongate_api_keys ADD COLUMN stream_connections INTEGER;
   ALTER TABLE tongate_accounts ADD COLUMN stream_connections INTEGER;`,
  // Streaming's subscribed addresses per connection, per key and per account (src/stream); NULL: the default.
  `ALTER TABLE tongate_api_keys ADD COLUMN stream_addresses INTEGER;
   ALTER TABLE tongate_accounts ADD COLUMN stream_addresses INTEGER;`,
];
