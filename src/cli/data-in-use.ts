/**
 * Whether a running tongate holds a network's data directory: the one question asked before the data is changed
 * from outside the server (`tongate reset`). The answer comes from SQLite's own locks: a running network keeps its
 * stores open, and no other process can take an exclusive lock on a database that a connection holds open in WAL
 * mode. So the check sees a tongate started with any options on this directory, not only the configured address.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The stores a network keeps open while it runs (chain.sqlite: local chains; index.sqlite: v3's index). */
const STORES = ['chain.sqlite', 'index.sqlite'];

/** The store of `networkDir` that a process holds open, or undefined when none is. */
export function heldOpen(networkDir: string): string | undefined {
  for (const name of STORES) {
    const file = join(networkDir, name);
    if (existsSync(file) && !canLockAlone(file)) return file;
  }
  return undefined;
}

function canLockAlone(file: string): boolean {
  let db: Database.Database | undefined;
  try {
    // No busy wait: a holder answers SQLITE_BUSY at once. Released with the connection, whatever happens.
    db = new Database(file, { timeout: 0, fileMustExist: true });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  } finally {
    db?.close();
  }
}
