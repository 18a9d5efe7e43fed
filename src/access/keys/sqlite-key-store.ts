/**
 * The embedded key store: one SQLite file in the data dir (WAL, so the CLI can write while the
 * server reads). Synchronous by design: a cache miss on the embedded hot path costs one indexed
 * read and no await.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DuplicateKeyError,
  FIND_BY_HASH_SQL,
  KEY_COLUMNS,
  MIGRATIONS,
  accountFromRow,
  ACCOUNT_COLUMNS,
  keyInfoFromRow,
  keyLimitColumns,
  keyRecordFromRow,
  type AccountLimit,
  type KeyChanges,
  type KeyInfo,
  type KeyLimits,
  type KeyRecord,
  type KeyRow,
  type KeyStore,
  type NewKey,
  type RecordRow,
} from './key-store.js';

export const KEYS_FILE_NAME = 'keys.sqlite';

export class SqliteKeyStore implements KeyStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly stmt: {
    find: Database.Statement<[string], RecordRow>;
    revision: Database.Statement<[], { revision: number }>;
    bump: Database.Statement<[], { revision: number }>;
    changedKeys: Database.Statement<[number], { hash: string }>;
    changedAccounts: Database.Statement<[number], { n: number }>;
    getKey: Database.Statement<[string], KeyRow>;
  };

  /** `dataDir` undefined = in memory only (--ephemeral). */
  static open(dataDir: string | undefined): SqliteKeyStore {
    if (dataDir === undefined) return new SqliteKeyStore(new Database(':memory:'));
    mkdirSync(dataDir, { recursive: true });
    return new SqliteKeyStore(new Database(join(dataDir, KEYS_FILE_NAME)));
  }

  private constructor(db: Database.Database) {
    this.db = db;
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    this.stmt = {
      find: db.prepare(FIND_BY_HASH_SQL.replace('$1', '?')),
      revision: db.prepare('SELECT revision FROM tongate_meta WHERE id = 1'),
      bump: db.prepare('UPDATE tongate_meta SET revision = revision + 1 WHERE id = 1 RETURNING revision'),
      changedKeys: db.prepare('SELECT hash FROM tongate_api_keys WHERE revision > ?'),
      changedAccounts: db.prepare('SELECT count(*) AS n FROM tongate_accounts WHERE revision > ?'),
      getKey: db.prepare(`SELECT ${KEY_COLUMNS} FROM tongate_api_keys WHERE id = ?`),
    };
  }

  findByHash(hash: string): KeyRecord | null {
    const row = this.stmt.find.get(hash);
    return row === undefined ? null : keyRecordFromRow(row);
  }

  revision(): number {
    return Number(this.stmt.revision.get()!.revision);
  }

  changesSince(revision: number): KeyChanges {
    return this.db.transaction((): KeyChanges => ({
      revision: this.revision(),
      hashes: this.stmt.changedKeys.all(revision).map((r) => r.hash),
      accountsChanged: this.stmt.changedAccounts.get(revision)!.n > 0,
    }))();
  }

  insertKey(key: NewKey): KeyInfo {
    const insert = this.db.transaction(() => {
      const revision = this.stmt.bump.get()!.revision;
      this.db
        .prepare(
          `INSERT INTO tongate_api_keys (id, hash, display, network, rps, account, label, expires_at, created_at, revoked_at, revision, stream_connections, stream_addresses)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        )
        .run(
          key.id,
          key.hash,
          key.display,
          key.network,
          key.rps,
          key.account,
          key.label,
          key.expiresAt,
          key.createdAt,
          revision,
          key.streamConnections ?? null,
          key.streamAddresses ?? null,
        );
    });
    try {
      insert.immediate();
    } catch (error) {
      if (isUniqueViolation(error) && /hash/.test(String((error as Error).message))) throw new DuplicateKeyError();
      throw error;
    }
    return this.getKey(key.id)!;
  }

  listKeys(): KeyInfo[] {
    return this.db.prepare<[], KeyRow>(`SELECT ${KEY_COLUMNS} FROM tongate_api_keys ORDER BY created_at, id`).all().map(keyInfoFromRow);
  }

  getKey(id: string): KeyInfo | null {
    const row = this.stmt.getKey.get(id);
    return row === undefined ? null : keyInfoFromRow(row);
  }

  revokeKey(id: string, at: number): { info: KeyInfo; hash: string } | null {
    const revoke = this.db.transaction(() => {
      const row = this.db
        .prepare<[string], { hash: string; revoked_at: number | null }>('SELECT hash, revoked_at FROM tongate_api_keys WHERE id = ?')
        .get(id);
      if (row === undefined) return null;
      if (row.revoked_at === null) {
        const revision = this.stmt.bump.get()!.revision;
        this.db.prepare('UPDATE tongate_api_keys SET revoked_at = ?, revision = ? WHERE id = ?').run(at, revision, id);
      }
      return row.hash;
    });
    const hash = revoke.immediate();
    return hash === null ? null : { info: this.getKey(id)!, hash };
  }

  updateKeyLimits(id: string, limits: KeyLimits): { info: KeyInfo; hash: string } | null {
    const { columns, values } = keyLimitColumns(limits);
    const update = this.db.transaction(() => {
      const row = this.db.prepare<[string], { hash: string }>('SELECT hash FROM tongate_api_keys WHERE id = ?').get(id);
      if (row === undefined) return null;
      // Stamped with a new revision, so every reader's poll drops its cached record of this key.
      const revision = this.stmt.bump.get()!.revision;
      const set = [...columns.map((column) => `${column} = ?`), 'revision = ?'].join(', ');
      this.db.prepare(`UPDATE tongate_api_keys SET ${set} WHERE id = ?`).run(...values, revision, id);
      return row.hash;
    });
    const hash = update.immediate();
    return hash === null ? null : { info: this.getKey(id)!, hash };
  }

  setAccountLimit(limit: AccountLimit): AccountLimit {
    this.db
      .transaction(() => {
        const revision = this.stmt.bump.get()!.revision;
        this.db
          .prepare(
            `INSERT INTO tongate_accounts (name, network, rps, updated_at, revision, stream_connections, stream_addresses) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (name, network) DO UPDATE SET rps = excluded.rps, updated_at = excluded.updated_at, revision = excluded.revision,
             stream_connections = excluded.stream_connections, stream_addresses = excluded.stream_addresses`,
          )
          .run(
            limit.name,
            limit.network,
            limit.rps,
            limit.updatedAt,
            revision,
            limit.streamConnections ?? null,
            limit.streamAddresses ?? null,
          );
      })
      .immediate();
    return { ...limit };
  }

  listAccountLimits(): AccountLimit[] {
    return this.db
      .prepare<
        [],
        {
          name: string;
          network: string;
          rps: number;
          updated_at: number;
          stream_connections: number | null;
          stream_addresses: number | null;
        }
      >(`SELECT ${ACCOUNT_COLUMNS} FROM tongate_accounts ORDER BY name, network`)
      .all()
      .map(accountFromRow);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS tongate_schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
  // IMMEDIATE: two processes opening a fresh data dir at once apply each version exactly once.
  db.transaction(() => {
    const done = db.prepare<[], { v: number | null }>('SELECT max(version) AS v FROM tongate_schema_migrations').get()!.v ?? 0;
    for (let version = done + 1; version <= MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version - 1]);
      db.prepare('INSERT INTO tongate_schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    }
  }).immediate();
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}
