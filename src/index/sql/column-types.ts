/** Column types by store, and the shape of a schema migration (schema.ts and the rooms' own migrations). */
import type { Dialect } from './driver.js';

export interface Types {
  bytes: string;
  int64: string;
  /** Text compared byte by byte (zero-padded balances sort numerically). */
  sortableText: string;
}

export function types(dialect: Dialect): Types {
  return dialect === 'postgres'
    ? { bytes: 'BYTEA', int64: 'BIGINT', sortableText: 'TEXT COLLATE "C"' }
    : { bytes: 'BLOB', int64: 'INTEGER', sortableText: 'TEXT' };
}

export interface Migration {
  version: number;
  name: string;
  statements(dialect: Dialect): string[];
}

/**
 * A migration's new column. PostgreSQL can say IF NOT EXISTS, and must: two instances migrating one schema at once
 * both run the statement, the second after the first (schema.ts `migrate`). SQLite cannot, and needs not: one
 * process holds the file, and a migration and its record are one transaction.
 */
export function addColumn(dialect: Dialect, table: string, column: string, type: string): string {
  return dialect === 'postgres'
    ? `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`
    : `ALTER TABLE ${table} ADD COLUMN ${column} ${type}`;
}
