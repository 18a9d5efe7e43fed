/** Picks the key store the options describe: PostgreSQL with a database URL, else SQLite in the data dir. */
import type { AccessOptions } from '../options.js';
import type { KeyStore } from './key-store.js';
import { PostgresKeyStore } from './postgres-key-store.js';
import { SqliteKeyStore } from './sqlite-key-store.js';

export async function openKeyStore(
  options: Pick<AccessOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'ephemeral'>,
  onError?: (error: Error) => void,
): Promise<KeyStore> {
  if (options.databaseUrl) return PostgresKeyStore.open({ url: options.databaseUrl, schema: options.databaseSchema, onError });
  if (!options.ephemeral && !options.dataDir) throw new Error('dataDir: required for the embedded key store (or set ephemeral, or databaseUrl)');
  return SqliteKeyStore.open(options.ephemeral ? undefined : options.dataDir);
}
