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
