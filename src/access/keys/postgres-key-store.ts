/**
 * The shared key store: PostgreSQL, for deployments with several instances (`--database-url`).
 * Tables live in `schema` (default public) with the tongate_ prefix; migrations are versioned and
 * applied under an advisory lock, so instances starting together apply each version once.
 */
import pg from 'pg';
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

export interface PostgresKeyStoreOptions {
  url: string;
  schema?: string;
  /** Called for errors of idle pooled connections (they must not crash the process). */
  onError?: (error: Error) => void;
}

export class PostgresKeyStore implements KeyStore {
  readonly kind = 'postgres' as const;

  static async open(options: PostgresKeyStoreOptions): Promise<PostgresKeyStore> {
    const schema = options.schema ?? 'public';
    // The name is interpolated into SQL below: only plain identifiers.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`databaseSchema: invalid schema name ${JSON.stringify(schema)}`);
    const pool = new pg.Pool({
      connectionString: options.url,
      options: `-c search_path=${schema}`,
      max: 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      // A hung server must fail queries eventually so the key store's circuit breaker can trip.
      query_timeout: 2000,
    });
    pool.on('error', (error) => options.onError?.(error));
    const store = new PostgresKeyStore(pool);
    try {
      await migrate(pool, schema);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  private constructor(private readonly pool: pg.Pool) {}

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const { rows } = await this.pool.query<RecordRow>({ name: 'tongate_find_key', text: FIND_BY_HASH_SQL, values: [hash] });
    return rows.length === 0 ? null : keyRecordFromRow(rows[0]);
  }

  async revision(): Promise<number> {
    const { rows } = await this.pool.query<{ revision: string }>('SELECT revision FROM tongate_meta WHERE id = 1');
    return Number(rows[0].revision);
  }

  async changesSince(revision: number): Promise<KeyChanges> {
    // One statement, one snapshot: the revision read matches the rows read.
    const { rows } = await this.pool.query<{ revision: string; hashes: string[] | null; accounts: string }>(
      `SELECT (SELECT revision FROM tongate_meta WHERE id = 1) AS revision,
              (SELECT array_agg(hash) FROM tongate_api_keys WHERE revision > $1) AS hashes,
              (SELECT count(*) FROM tongate_accounts WHERE revision > $1) AS accounts`,
      [revision],
    );
    const r = rows[0];
    return { revision: Number(r.revision), hashes: r.hashes ?? [], accountsChanged: Number(r.accounts) > 0 };
  }

  async insertKey(key: NewKey): Promise<KeyInfo> {
    try {
      const rows = await this.write<KeyRow>(
        `INSERT INTO tongate_api_keys (id, hash, display, network, rps, account, label, expires_at, created_at, stream_connections, stream_addresses, revoked_at, revision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12) RETURNING ${KEY_COLUMNS}`,
        [
          key.id,
          key.hash,
          key.display,
          key.network,
          key.rps,
          key.account,
          key.label,
          key.expiresAt,
          key.createdAt,
          key.streamConnections ?? null,
          key.streamAddresses ?? null,
        ],
      );
      return keyInfoFromRow(rows[0]);
    } catch (error) {
      const e = error as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint?.includes('hash')) throw new DuplicateKeyError();
      throw error;
    }
  }

  async listKeys(): Promise<KeyInfo[]> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM tongate_api_keys ORDER BY created_at, id`);
    return rows.map(keyInfoFromRow);
  }

  async getKey(id: string): Promise<KeyInfo | null> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM tongate_api_keys WHERE id = $1`, [id]);
    return rows.length === 0 ? null : keyInfoFromRow(rows[0]);
  }

  async revokeKey(id: string, at: number): Promise<{ info: KeyInfo; hash: string } | null> {
    const { rows } = await this.pool.query<{ hash: string }>('SELECT hash FROM tongate_api_keys WHERE id = $1', [id]);
    if (rows.length === 0) return null;
    await this.write(`UPDATE tongate_api_keys SET revoked_at = $1, revision = $3 WHERE id = $2 AND revoked_at IS NULL`, [at, id]);
    return { info: (await this.getKey(id))!, hash: rows[0].hash };
  }

  async updateKeyLimits(id: string, limits: KeyLimits): Promise<{ info: KeyInfo; hash: string } | null> {
    const { columns, values } = keyLimitColumns(limits);
    // The revision is the last parameter (write() appends it), after the id.
    const set = [...columns.map((column, i) => `${column} = $${i + 2}`), `revision = $${columns.length + 2}`].join(', ');
    const rows = await this.write<KeyRow & { hash: string }>(
      `UPDATE tongate_api_keys SET ${set} WHERE id = $1 RETURNING hash, ${KEY_COLUMNS}`,
      [id, ...values],
    );
    return rows.length === 0 ? null : { info: keyInfoFromRow(rows[0]), hash: rows[0].hash };
  }

  async setAccountLimit(limit: AccountLimit): Promise<AccountLimit> {
    const rows = await this.write<{ name: string; network: string; rps: number; updated_at: string }>(
      `INSERT INTO tongate_accounts (name, network, rps, updated_at, stream_connections, stream_addresses, revision) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name, network) DO UPDATE SET rps = excluded.rps, updated_at = excluded.updated_at, revision = excluded.revision,
         stream_connections = excluded.stream_connections, stream_addresses = excluded.stream_addresses
       RETURNING ${ACCOUNT_COLUMNS}`,
      [limit.name, limit.network, limit.rps, limit.updatedAt, limit.streamConnections ?? null, limit.streamAddresses ?? null],
    );
    return accountFromRow(rows[0]);
  }

  async listAccountLimits(): Promise<AccountLimit[]> {
    const { rows } = await this.pool.query<{ name: string; network: string; rps: number; updated_at: string }>(
      `SELECT ${ACCOUNT_COLUMNS} FROM tongate_accounts ORDER BY name, network`,
    );
    return rows.map(accountFromRow);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /**
   * Runs one write in a transaction that first takes the next store revision; `sql` receives it
   * as its last parameter. The row lock on tongate_meta serialises writers until commit, so a
   * reader that saw revision R has seen every row stamped <= R.
   */
  private async write<R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ revision: string }>(
        'UPDATE tongate_meta SET revision = revision + 1 WHERE id = 1 RETURNING revision',
      );
      const result = await client.query<R>(sql, [...values, rows[0].revision]);
      await client.query('COMMIT');
      return result.rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tongate_migrations:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    await client.query('CREATE TABLE IF NOT EXISTS tongate_schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM tongate_schema_migrations');
    for (let version = (rows[0].v ?? 0) + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1]);
      await client.query('INSERT INTO tongate_schema_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
