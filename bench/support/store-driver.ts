/** A SQL driver of the bench's own on an index's store: synthetic rows written beside the index's writer, and ANALYZE. */
import type { Index } from '../../src/index/open-index.js';
import type { SqlDriver } from '../../src/index/sql/driver.js';
import { PostgresDriver } from '../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../src/index/sql/sqlite-driver.js';

export async function storeDriver(index: Index): Promise<SqlDriver> {
  const location = index.location;
  return location.kind === 'sqlite' ? SqliteDriver.open(location.file) : PostgresDriver.open(location.databaseUrl, location.schema);
}
