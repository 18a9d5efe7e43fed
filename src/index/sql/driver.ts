/**
 * The little the index needs from a SQL database, with one implementation per store (SQLite embedded,
 * PostgreSQL scaled out). Queries are written once with `?` placeholders; the PostgreSQL driver numbers
 * them. Values travel as: bigint/number (integers), Buffer (bytes), string (text), null.
 *
 * Integer columns come back as bigint or number depending on the store and the size; readers convert
 * them with the helpers in values.ts rather than trusting either.
 */

export type SqlValue = bigint | number | string | Buffer | null;
export type SqlRow = Record<string, unknown>;

export type Dialect = 'sqlite' | 'postgres';

/** Rows for one table, inserted in one go; `conflict` is the SQL after the VALUES list. */
export interface InsertBatch {
  table: string;
  columns: readonly string[];
  rows: SqlValue[][];
  /** e.g. `ON CONFLICT (hash) DO NOTHING`; both stores speak the same upsert syntax. */
  conflict?: string;
}

export interface SqlDriver {
  readonly dialect: Dialect;
  /** All rows of a read. */
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** Runs schema statements (several, separated by `;`), outside of any write batch. */
  exec(sql: string): Promise<void>;
  /**
   * Writes every batch in one transaction: all of them or none. `before` statements run first inside
   * the same transaction (a migration's DDL and PostgreSQL's migration lock).
   */
  write(batches: readonly InsertBatch[], before?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
