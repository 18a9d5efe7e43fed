/**
 * What the PostgreSQL store's names and locks are, without `pg` itself: the schema code, the claim and the index's
 * opening need these on every start, and importing the driver would load `pg` (~40 ms of the main thread at start)
 * on an index that lives in SQLite.
 */
import { createHash } from 'node:crypto';

/** Held while a schema is created or migrated, so instances starting together take turns. */
export const MIGRATION_LOCK = 'SELECT pg_advisory_xact_lock(7404617, 1)';

/**
 * The second key of a schema's advisory locks (the driver's writer lock, the claim of sql/schema-claim.ts): the
 * first 4 bytes of its name's SHA-256, as a signed int4.
 */
export function schemaLockKey(schema: string): number {
  return createHash('sha256').update(schema).digest().readInt32BE(0);
}

/** Schema names are built from network names; anything else is refused rather than quoted. */
export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid PostgreSQL schema name '${schema}': use [a-z0-9_]`);
  return schema;
}
