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

/** What the index's reader needs: reads, nothing else (the SQLite reader pool offers no more). */
export interface SqlReads {
  /** All rows of a read. Fails with QueryTimeoutError past the store's time budget. */
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
}

export interface SqlDriver extends SqlReads {
  readonly dialect: Dialect;
  /** Runs schema statements (several, separated by `;`), outside of any write batch. */
  exec(sql: string): Promise<void>;
  /**
   * Writes every batch in one transaction: all of them or none. `before` statements run first inside
   * the same transaction (a migration's DDL and PostgreSQL's migration lock), `after` statements last
   * (a back-fill's UPDATEs from the rows it inserted into a scratch table).
   */
  write(batches: readonly InsertBatch[], before?: readonly string[], after?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A read's time budget unless told (`--query-timeout`). */
export const DEFAULT_QUERY_TIMEOUT_MS = 2_000;

/**
 * A read ran past its time budget (`--query-timeout`) and was cut off: the store is fine, the question
 * was too expensive (a deep offset, a filter that scans). The API answers it 504.
 */
export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the index query ran longer than ${timeoutMs} ms (--query-timeout) and was stopped: narrow the filters or use a smaller offset`);
    this.name = 'QueryTimeoutError';
  }
}

/** The store could not be reached or could not answer (PostgreSQL down, a reader thread that would not start): 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
