/**
 * Drops a network's v3 index kept in PostgreSQL (its schema, `tongate_<network>`), for `tongate reset`: a chain
 * started over must not be served by an index of the old one. The SQLite index lives in the network's data
 * directory and goes with it.
 */
import pg from 'pg';
import { defaultSchema } from './open-index.js';

/** Resolves with the schema dropped (nothing happens when it does not exist). */
export async function dropPostgresIndex(databaseUrl: string, network: string): Promise<string> {
  const schema = defaultSchema(network);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
  return schema;
}
