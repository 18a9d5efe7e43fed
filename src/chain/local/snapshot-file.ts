/**
 * A snapshot as a file, to carry a chain's state across restarts and machines: a chain store (SQLite, the schema
 * of store.ts) holding exactly the chain as of the snapshot, its pending messages and clock offset. Export copies
 * the store with `VACUUM INTO` and cuts the copy back to the snapshot; import checks the file is a chain of the
 * same network (name, global id, faucet key) and schema, then replaces the store's rows with the file's. Both cost
 * the size of the chain (an export of 100,000 transactions: about a second), which is fine for what they are for;
 * the cheap path between test cases is save/restore (snapshot-store.ts).
 */
import Database from 'better-sqlite3';
import { ChainInputError } from '../errors.js';

/** The tables a chain's state is made of (snapshots are not carried: an import starts a history of its own). */
const CHAIN_TABLES = ['blocks', 'transactions', 'messages', 'account_states', 'pending_messages', 'public_libraries'] as const;
/** meta keys that say which chain a store is: an import must match the running chain on each. */
const IDENTITY = ['schema_version', 'network', 'global_id', 'faucet_public_key'] as const;

/** Writes the chain as of masterchain `seqno` (pending messages and clock offset of snapshot `name`) to `file`. */
export function exportChainFile(db: Database.Database, file: string, name: string, seqno: number): void {
  db.prepare('VACUUM INTO ?').run(file);
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = DELETE');
    const snapshot = copy.prepare('SELECT time_offset_ms FROM snapshots WHERE name = ?').get(name) as
      { time_offset_ms: string } | undefined;
    if (!snapshot) throw new Error(`snapshot ${name} vanished during its export`);
    copy.transaction(() => {
      for (const table of ['blocks', 'transactions', 'messages', 'account_states'])
        copy.prepare(`DELETE FROM ${table} WHERE mc_seqno > ?`).run(seqno);
      copy.exec('DELETE FROM pending_messages');
      copy
        .prepare('INSERT INTO pending_messages (hash, created_lt, boc) SELECT hash, created_lt, boc FROM snapshot_pending WHERE name = ?')
        .run(name);
      copy.exec('DELETE FROM public_libraries');
      copy
        .prepare('INSERT INTO public_libraries (account, hash, boc) SELECT account, hash, boc FROM snapshot_libraries WHERE name = ?')
        .run(name);
      copy.prepare("UPDATE meta SET value = ? WHERE key = 'time_offset_ms'").run(snapshot.time_offset_ms);
      copy.exec('DELETE FROM snapshot_pending; DELETE FROM snapshot_libraries; DELETE FROM snapshots');
    })();
    copy.exec('VACUUM');
  } finally {
    copy.close();
  }
}

/** Refuses a file that is not a chain store of this chain's network and schema (a 422 naming what differs). */
export function checkChainFile(db: Database.Database, file: string): { seqno: number } {
  let other: Database.Database;
  try {
    other = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ChainInputError(`file: not a tongate snapshot file (${(error as Error).message})`);
  }
  try {
    const metaOf = (d: Database.Database, key: string) =>
      (d.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    let seqno: number | null;
    try {
      for (const key of IDENTITY) {
        const theirs = metaOf(other, key);
        const ours = metaOf(db, key);
        if (theirs !== ours) {
          const what = key === 'faucet_public_key' ? 'another faucet mnemonic' : `${key} ${theirs ?? '(none)'}`;
          throw new ChainInputError(
            `file: it holds a chain of ${what}; this network's chain has ${key === 'faucet_public_key' ? 'its own' : ours}`,
          );
        }
      }
      seqno = (other.prepare('SELECT MAX(seqno) AS s FROM blocks WHERE workchain = -1').get() as { s: number | null }).s;
    } catch (error) {
      if (error instanceof ChainInputError) throw error;
      throw new ChainInputError(`file: not a tongate snapshot file (${(error as Error).message})`);
    }
    if (seqno === null) throw new ChainInputError('file: the chain in it has no block');
    return { seqno };
  } finally {
    other.close();
  }
}

/** Replaces every row of the chain's state by the file's (checked first with checkChainFile); drops every snapshot. */
export function importChainFile(db: Database.Database, file: string): void {
  db.prepare('ATTACH DATABASE ? AS imported').run(file);
  try {
    db.transaction(() => {
      db.exec('DELETE FROM snapshot_pending; DELETE FROM snapshot_libraries; DELETE FROM snapshots');
      for (const table of CHAIN_TABLES) {
        db.exec(`DELETE FROM main.${table}`);
        db.exec(`INSERT INTO main.${table} SELECT * FROM imported.${table}`);
      }
      const offset = db.prepare("SELECT value FROM imported.meta WHERE key = 'time_offset_ms'").get() as { value: string } | undefined;
      db.prepare(
        "INSERT INTO main.meta (key, value) VALUES ('time_offset_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      ).run(offset?.value ?? '0');
    })();
  } finally {
    db.exec('DETACH DATABASE imported');
  }
}
