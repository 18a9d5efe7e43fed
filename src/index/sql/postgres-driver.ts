/**
 * The scaled-out store: PostgreSQL through `pg`, one schema per network (`tongate_<network>`), so
 * several networks and several tongate instances share one database without sharing tables.
 * Writes go as multi-row INSERTs (one statement per table and up to 65,535 parameters), which keeps a
 * block to a handful of round trips.
 */
import pg from 'pg';
import type { InsertBatch, SqlDriver, SqlRow, SqlValue } from './driver.js';

/** Held while a schema is created or migrated, so instances starting together take turns. */
export const MIGRATION_LOCK = 'SELECT pg_advisory_xact_lock(7404617, 1)';

/** PostgreSQL's limit on bind parameters in one statement. */
const MAX_PARAMETERS = 65_535;
const INT8_OID = 20;

/** Schema names are built from network names; anything else is refused rather than quoted. */
export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid PostgreSQL schema name '${schema}': use [a-z0-9_]`);
  return schema;
}

/** `?` placeholders as `$1, $2, ...` (our SQL never holds a literal question mark). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;

  private constructor(private readonly pool: pg.Pool) {}

  static async open(databaseUrl: string, schema: string): Promise<PostgresDriver> {
    assertSchemaName(schema);
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 8,
      // Every connection works inside the network's schema: the SQL names tables without a prefix.
      options: `-c search_path=${schema}`,
      // int8 as bigint, for this pool only (pg.types is global and shared with the key store).
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const driver = new PostgresDriver(pool);
    // Under the migration lock: two instances creating the same schema at once collide otherwise
    // (CREATE SCHEMA IF NOT EXISTS is not atomic in PostgreSQL).
    await driver.write([], [MIGRATION_LOCK, `CREATE SCHEMA IF NOT EXISTS ${schema}`]);
    return driver;
  }

  async all(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    const result = await this.pool.query(numberPlaceholders(sql), params as unknown[]);
    return result.rows as SqlRow[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async write(batches: readonly InsertBatch[], before: readonly string[] = []): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const statement of before) await client.query(statement);
      for (const batch of batches) {
        const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / batch.columns.length));
        for (let start = 0; start < batch.rows.length; start += perStatement) {
          const rows = batch.rows.slice(start, start + perStatement);
          await client.query(insertSql(batch, rows.length), rows.flat() as unknown[]);
        }
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function insertSql(batch: InsertBatch, rowCount: number): string {
  const width = batch.columns.length;
  const tuples: string[] = [];
  for (let r = 0; r < rowCount; r++) {
    const marks: string[] = [];
    for (let c = 1; c <= width; c++) marks.push(`$${r * width + c}`);
    tuples.push(`(${marks.join(',')})`);
  }
  return `INSERT INTO ${batch.table} (${batch.columns.join(', ')}) VALUES ${tuples.join(',')} ${batch.conflict ?? ''}`;
}
