/**
 * Opens the v3 index of one network: PostgreSQL when a database URL is given (schema
 * `tongate_<network>`, shared by every instance pointed at that database), otherwise SQLite at
 * `<dataDir>/<network>/index.sqlite`, or in memory when there is no data dir (ephemeral runs).
 */
import { join } from 'node:path';
import { IndexReader } from './reader.js';
import { migrate } from './schema.js';
import type { SqlDriver } from './sql/driver.js';
import { assertSchemaName, PostgresDriver } from './sql/postgres-driver.js';
import { SqliteDriver } from './sql/sqlite-driver.js';
import { IndexWriter } from './writer.js';

export interface IndexOptions {
  network: string;
  /** The data directory; the index file is `<dataDir>/<network>/index.sqlite`. Absent: in memory. */
  dataDir?: string;
  /** A PostgreSQL URL: the index lives there instead of SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema; default `tongate_<network>` (tests use their own per run). */
  schema?: string;
}

export interface Index {
  readonly network: string;
  readonly store: 'sqlite' | 'postgres';
  readonly reader: IndexReader;
  readonly writer: IndexWriter;
  close(): Promise<void>;
}

/** `tongate_<network>`, with characters a schema name cannot hold replaced by `_`. */
export function defaultSchema(network: string): string {
  return assertSchemaName(`tongate_${network.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`);
}

export async function openIndex(options: IndexOptions): Promise<Index> {
  const driver: SqlDriver = options.databaseUrl
    ? await PostgresDriver.open(options.databaseUrl, options.schema ?? defaultSchema(options.network))
    : SqliteDriver.open(options.dataDir ? join(options.dataDir, options.network, 'index.sqlite') : undefined);
  try {
    await migrate(driver);
  } catch (error) {
    await driver.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    network: options.network,
    store: driver.dialect,
    reader: new IndexReader(driver),
    writer: new IndexWriter(driver),
    close: () => (closing ??= driver.close()),
  };
}
