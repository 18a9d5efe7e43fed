/** Picks the key store the options describe: PostgreSQL with a database URL, else SQLite in the data dir. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessOptions } from '../options.js';
import type { KeyStore } from './key-store.js';
import { KEYS_FILE_NAME, SqliteKeyStore } from './sqlite-key-store.js';

export async function openKeyStore(
  options: Pick<AccessOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'ephemeral'>,
  onError?: (error: Error) => void,
): Promise<KeyStore> {
  if (options.databaseUrl) {
    // Loaded here: pg is not what an embedded deployment or a key command on SQLite should pay to import.
    const { PostgresKeyStore } = await import('./postgres-key-store.js');
    return PostgresKeyStore.open({ url: options.databaseUrl, schema: options.databaseSchema, onError });
  }
  if (!options.ephemeral && !options.dataDir)
    throw new Error('dataDir: required for the embedded key store (or set ephemeral, or databaseUrl)');
  return SqliteKeyStore.open(options.ephemeral ? undefined : options.dataDir);
}

/**
 * The embedded store's file when it does not exist yet (undefined when it does, or when the keys live in
 * PostgreSQL or in memory): commands that only read keys check it first, so running one in the wrong folder
 * says so instead of creating an empty store there.
 */
export function missingEmbeddedKeyStore(options: Pick<AccessOptions, 'databaseUrl' | 'dataDir' | 'ephemeral'>): string | undefined {
  if (options.databaseUrl || options.ephemeral || !options.dataDir) return undefined;
  const file = join(options.dataDir, KEYS_FILE_NAME);
  return existsSync(file) ? undefined : file;
}
