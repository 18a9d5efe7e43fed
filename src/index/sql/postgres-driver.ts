/**
 * The scaled-out store: PostgreSQL through `pg`, one schema per network (`tongate_<network>`), so
 * several networks and several tongate instances share one database without sharing tables.
 * Writes go as multi-row INSERTs of prepared statements: each batch is cut into chunks of 256 rows
 * and a binary remainder (128, 64, ... 1), so a table needs at most nine statement shapes, each parsed
 * and planned once per connection. Measured with blocks of 500 transactions: a block's write took
 * ~25 % less time on an empty index (parsing and planning a fresh 500-row VALUES list each time), ~3 %
 * at a million transactions (where index maintenance dominates).
 */
import pg from 'pg';
import { assertSchemaName, MIGRATION_LOCK, schemaLockKey } from './postgres-names.js';
import { QueryTimeoutError, StoreUnavailableError, type InsertBatch, type SqlDriver, type SqlRow, type SqlValue } from './driver.js';

/**
 * Held by every write transaction on a schema, so instances sharing a lite network's index write one at a time.
 * They write the same blocks, and two transactions upserting the same rows in different orders deadlock (seen
 * with two instances on one network: PostgreSQL aborts one, its blocks retried a second later). Within one
 * instance writes are one at a time already; the lock costs a round trip per transaction (a group of blocks).
 */
const WRITER_LOCK_CLASS = 7404619;

/** PostgreSQL's limit on bind parameters in one statement. */
const MAX_PARAMETERS = 65_535;
const INT8_OID = 20;
/** How long a write waits for a connection of its own before it fails (and the writer retries). */
const WRITE_CONNECT_TIMEOUT_MS = 30_000;

/** `?` placeholders as `$1, $2, ...` (our SQL never holds a literal question mark). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;

  /** Prepared statement names by shape (table, columns, conflict clause, rows): one name per text. */
  private readonly statements = new Map<string, string>();

  private readonly writerLock: string;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly writers: pg.Pool,
    private readonly queryTimeoutMs: number | undefined,
    schema: string,
  ) {
    this.writerLock = `SELECT pg_advisory_xact_lock(${WRITER_LOCK_CLASS}, ${schemaLockKey(schema)})`;
  }

  private statementName(batch: InsertBatch, rows: number): string {
    const shape = `${batch.table}|${batch.columns.join(',')}|${batch.conflict ?? ''}|${rows}`;
    let name = this.statements.get(shape);
    if (!name) this.statements.set(shape, (name = `tongate_insert_${this.statements.size + 1}`));
    return name;
  }

  /**
   * `queryTimeoutMs`: the time budget of a read (`all`). The server cancels a statement past it
   * (statement_timeout), a connection that cannot be had within it fails, and a server that does not
   * answer at all is given up a second later (pg's client-side query_timeout). Writes (blocks,
   * migrations) are not requests and run without it, on connections of their own: a write never waits
   * for a connection behind reads, so busy reads can neither cut it at the read budget nor delay it.
   */
  static async open(databaseUrl: string, schema: string, options: { queryTimeoutMs?: number } = {}): Promise<PostgresDriver> {
    assertSchemaName(schema);
    const timeout = options.queryTimeoutMs;
    const common = {
      connectionString: databaseUrl,
      // int8 as bigint, for these pools only (pg.types is global and shared with the key store).
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8_OID
            ? (value: string) => BigInt(value)
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    };
    // Every connection works inside the network's schema: the SQL names tables without a prefix.
    const searchPath = `-c search_path=${schema}`;
    const reads = new pg.Pool({
      ...common,
      max: 8,
      options: searchPath + (timeout ? ` -c statement_timeout=${Math.trunc(timeout)}` : ''),
      ...(timeout ? { connectionTimeoutMillis: timeout } : {}),
    });
    // One instance writes one transaction at a time (the index's writer; migrations before it starts): two
    // connections leave room for a migration's DDL beside it. A server that takes no connection at all is given up
    // after WRITE_CONNECT_TIMEOUT_MS, so the writer reports it and retries instead of waiting for ever.
    const writes = new pg.Pool({ ...common, max: 2, options: searchPath, connectionTimeoutMillis: WRITE_CONNECT_TIMEOUT_MS });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    reads.on('error', () => {});
    writes.on('error', () => {});
    const driver = new PostgresDriver(reads, writes, timeout, schema);
    // Under the migration lock: two instances creating the same schema at once collide otherwise
    // (CREATE SCHEMA IF NOT EXISTS is not atomic in PostgreSQL).
    await driver.write([], [MIGRATION_LOCK, `CREATE SCHEMA IF NOT EXISTS ${schema}`]);
    return driver;
  }

  async all(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    const timeout = this.queryTimeoutMs;
    try {
      const result = await this.pool.query({
        text: numberPlaceholders(sql),
        values: params as unknown[],
        ...(timeout ? { query_timeout: timeout + 1_000 } : {}),
      });
      return result.rows as SqlRow[];
    } catch (error) {
      throw readError(error as Error & { code?: string }, timeout);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.writers.query(sql);
  }

  async write(batches: readonly InsertBatch[], before: readonly string[] = [], after: readonly string[] = []): Promise<void> {
    const client = await this.writers.connect();
    try {
      await client.query('BEGIN');
      await client.query(this.writerLock);
      for (const statement of before) await client.query(statement);
      for (const batch of batches) {
        let start = 0;
        for (const size of chunkSizes(batch.rows.length, batch.columns.length)) {
          const rows = batch.rows.slice(start, start + size);
          start += size;
          await client.query({ name: this.statementName(batch, size), text: insertSql(batch, size), values: rows.flat() as unknown[] });
        }
      }
      for (const statement of after) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.writers.end()]);
  }
}

/**
 * A failed read as the API should see it: past its budget (the server's statement_timeout, SQLSTATE
 * 57014, or no answer at all) a QueryTimeoutError; a server that cannot be reached a
 * StoreUnavailableError naming only the error's code (a pg message may quote the connection's
 * address); anything else (a bug in our SQL) as it is.
 */
function readError(error: Error & { code?: string }, timeoutMs: number | undefined): Error {
  if (timeoutMs && (error.code === '57014' || error.message === 'Query read timeout')) return new QueryTimeoutError(timeoutMs);
  const code = error.code ?? '';
  const connection =
    /^(08|57P0|53300)/.test(code) ||
    /^E[A-Z]+$/.test(code) ||
    /timeout exceeded when trying to connect|Connection terminated/.test(error.message);
  if (connection) return new StoreUnavailableError(`the index's PostgreSQL cannot be reached${code ? ` (${code})` : ''}`, { cause: error });
  return error;
}

/** The largest chunk: 256 rows, or fewer when the columns would pass PostgreSQL's parameter limit. */
const MAX_CHUNK_ROWS = 256;

/** `total` rows as chunks of the largest size, then the remainder in powers of two. */
export function* chunkSizes(total: number, columns: number): Generator<number> {
  let largest = 1;
  while (largest * 2 <= Math.min(MAX_CHUNK_ROWS, Math.floor(MAX_PARAMETERS / columns))) largest *= 2;
  let left = total;
  for (; left >= largest; left -= largest) yield largest;
  for (let size = largest >> 1; size >= 1; size >>= 1) {
    if (left >= size) {
      yield size;
      left -= size;
    }
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
