/**
 * Snapshots of a local chain, in its own SQLite file: a name, the masterchain seqno it was taken at, and what
 * that seqno alone cannot bring back (the internal messages pending then, the public libraries then, the clock's
 * offset: tables the store keeps as they are now, not per seqno).
 *
 * Why so little is saved: the store never overwrites anything. Blocks, transactions and messages are appended
 * per masterchain seqno and an account's states are kept per seqno (account_states), so the chain as of seqno S
 * is the store with the rows after S removed. Saving costs one row, a copy of the pending messages and four
 * `MAX(rowid)` reads; restoring deletes what came after, which costs what came after, not what came before (at
 * 100,000 transactions a file copy or `VACUUM INTO` costs hundreds of milliseconds; see src/devnet/README.md).
 *
 * Rows are appended in seqno order (one SQLite transaction per sealed step, on the producer's lane), so a
 * table's rowids grow with mc_seqno: the rows after S are those past the snapshot's `MAX(rowid)` mark, deleted by
 * a rowid range. A mark that no longer fits (a store rewritten by VACUUM, which may renumber rowids) is noticed
 * and the rows are deleted by mc_seqno instead (a scan: slower, as correct).
 *
 * A restore drops the snapshots taken after it (their blocks are gone, and new blocks will reuse their seqnos).
 */
import type Database from 'better-sqlite3';
import type { Snapshot } from '../devnet-chain.js';
import { ChainInputError, NotFound } from '../errors.js';

/** A snapshot name that is taken, or a snapshot the chain's history no longer holds: 409. */
export class SnapshotConflict extends ChainInputError {
  override name = 'SnapshotConflict';
}

/** A snapshot as the chain describes it (chain/types.ts). */
export type SnapshotInfo = Snapshot;

/** The tables whose rows belong to a masterchain seqno, with that column. */
const HISTORY = [
  { table: 'blocks', seqno: 'mc_seqno' },
  { table: 'transactions', seqno: 'mc_seqno' },
  { table: 'messages', seqno: 'mc_seqno' },
  { table: 'account_states', seqno: 'mc_seqno' },
] as const;
type HistoryTable = (typeof HISTORY)[number]['table'];
type Marks = Record<HistoryTable, number>;

export const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS snapshots (
  name TEXT PRIMARY KEY, mc_seqno INTEGER NOT NULL, root_hash BLOB NOT NULL, created_at INTEGER NOT NULL,
  time_offset_ms TEXT NOT NULL, marks TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshot_pending (
  name TEXT NOT NULL, hash BLOB NOT NULL, created_lt INTEGER NOT NULL, boc BLOB NOT NULL, PRIMARY KEY (name, hash)
);
CREATE TABLE IF NOT EXISTS snapshot_libraries (
  name TEXT NOT NULL, account BLOB NOT NULL, hash BLOB NOT NULL, boc BLOB NOT NULL, PRIMARY KEY (name, account, hash)
);
CREATE INDEX IF NOT EXISTS states_by_mc_seqno ON account_states (mc_seqno);
`;

/** What a restore changed, for the chain's in-memory state and its listeners (the index). */
export interface RewoundStore {
  seqno: number;
  /** Accounts changed after the snapshot: their states as of it (null: the account did not exist then). */
  accounts: { workchain: number; account: Buffer; boc: Buffer | null }[];
  /** Later snapshots, dropped with the blocks they stood on. */
  dropped: string[];
}

interface SnapshotRow {
  name: string;
  mc_seqno: bigint;
  root_hash: Buffer;
  created_at: bigint;
  time_offset_ms: string;
  marks: string;
  pending?: bigint;
}

const OFFSET_KEY = 'time_offset_ms';

export class SnapshotStore {
  constructor(private readonly db: Database.Database) {}

  list(): SnapshotInfo[] {
    const rows = this.db
      .prepare(
        `SELECT s.*, (SELECT COUNT(*) FROM snapshot_pending p WHERE p.name = s.name) AS pending FROM snapshots s ORDER BY s.mc_seqno, s.created_at, s.name`,
      )
      .safeIntegers(true)
      .all() as SnapshotRow[];
    return rows.map(infoOf);
  }

  get(name: string): SnapshotInfo {
    const row = this.row(name);
    const pending = this.db.prepare('SELECT COUNT(*) AS n FROM snapshot_pending WHERE name = ?').safeIntegers(true).get(name) as {
      n: bigint;
    };
    return infoOf({ ...row, pending: pending.n });
  }

  /**
   * Records the store as it is (the caller runs this between seals: every row belongs to a sealed block) as
   * snapshot `name` of masterchain block (`seqno`, `rootHash`).
   */
  save(name: string, seqno: number, rootHash: Buffer, createdAtMs: number): SnapshotInfo {
    const run = this.db.transaction(() => {
      const taken = this.find(name);
      if (taken)
        throw new SnapshotConflict(
          `name: a snapshot named ${JSON.stringify(name)} exists (taken at seqno ${Number(taken.mc_seqno)}); delete it first or choose another name`,
        );
      const marks = {} as Marks;
      for (const { table } of HISTORY)
        marks[table] = Number(
          (this.db.prepare(`SELECT COALESCE(MAX(rowid), 0) AS m FROM ${table}`).safeIntegers(true).get() as { m: bigint }).m,
        );
      this.db
        .prepare('INSERT INTO snapshots (name, mc_seqno, root_hash, created_at, time_offset_ms, marks) VALUES (?, ?, ?, ?, ?, ?)')
        .run(name, seqno, rootHash, createdAtMs, this.meta(OFFSET_KEY) ?? '0', JSON.stringify(marks));
      this.db
        .prepare('INSERT INTO snapshot_pending (name, hash, created_lt, boc) SELECT ?, hash, created_lt, boc FROM pending_messages')
        .run(name);
      this.db
        .prepare('INSERT INTO snapshot_libraries (name, account, hash, boc) SELECT ?, account, hash, boc FROM public_libraries')
        .run(name);
    });
    run();
    return this.get(name);
  }

  delete(name: string): SnapshotInfo {
    const info = this.get(name);
    this.db.transaction(() => {
      this.forget(name);
    })();
    return info;
  }

  /**
   * Puts the store back to snapshot `name`: the rows of later seqnos deleted, the pending messages and the clock
   * offset as they were, later snapshots dropped. One SQLite transaction. The caller runs it between seals.
   */
  restore(name: string, blockRootHash: (seqno: number) => Buffer | undefined): RewoundStore {
    const row = this.row(name);
    const seqno = Number(row.mc_seqno);
    const held = blockRootHash(seqno);
    if (!held || !held.equals(row.root_hash)) {
      throw new SnapshotConflict(
        `name: snapshot ${JSON.stringify(name)} stands on a masterchain block ${seqno} this chain no longer holds`,
      );
    }
    const marks = JSON.parse(row.marks) as Marks;
    const run = this.db.transaction((): RewoundStore => {
      const changed = this.db
        .prepare('SELECT DISTINCT workchain, account FROM account_states WHERE mc_seqno > ?')
        .safeIntegers(true)
        .all(seqno) as { workchain: bigint; account: Buffer }[];
      for (const { table, seqno: column } of HISTORY) this.deleteAfter(table, column, marks[table], seqno);
      this.db.exec('DELETE FROM pending_messages');
      this.db
        .prepare('INSERT INTO pending_messages (hash, created_lt, boc) SELECT hash, created_lt, boc FROM snapshot_pending WHERE name = ?')
        .run(name);
      this.db
        .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run(OFFSET_KEY, row.time_offset_ms);
      const later = (this.db.prepare('SELECT name FROM snapshots WHERE mc_seqno > ?').all(seqno) as { name: string }[]).map((r) => r.name);
      this.db.exec('DELETE FROM public_libraries');
      this.db
        .prepare('INSERT INTO public_libraries (account, hash, boc) SELECT account, hash, boc FROM snapshot_libraries WHERE name = ?')
        .run(name);
      for (const dropped of later) this.forget(dropped);
      const stateAsOf = this.db.prepare(
        'SELECT boc FROM account_states WHERE workchain = ? AND account = ? AND mc_seqno <= ? ORDER BY mc_seqno DESC LIMIT 1',
      );
      const accounts = changed.map(({ workchain, account }) => ({
        workchain: Number(workchain),
        account,
        boc: (stateAsOf.get(workchain, account, seqno) as { boc: Buffer } | undefined)?.boc ?? null,
      }));
      return { seqno, accounts, dropped: later };
    });
    return run();
  }

  /**
   * Deletes the rows of seqnos after `seqno`: by the rowid range past `mark` when the mark still splits the table
   * there (the row at the mark is not after `seqno`, the one after it is), else by a scan of the seqno column.
   */
  private deleteAfter(table: HistoryTable, column: string, mark: number, seqno: number): void {
    const at = (rowid: number, op: '<=' | '>') =>
      this.db
        .prepare(`SELECT ${column} AS s FROM ${table} WHERE rowid ${op} ? ORDER BY rowid ${op === '<=' ? 'DESC' : 'ASC'} LIMIT 1`)
        .get(rowid) as { s: number } | undefined;
    const before = at(mark, '<=');
    const after = at(mark, '>');
    const fits = (before === undefined || before.s <= seqno) && (after === undefined || after.s > seqno);
    if (fits) this.db.prepare(`DELETE FROM ${table} WHERE rowid > ?`).run(mark);
    else this.db.prepare(`DELETE FROM ${table} WHERE ${column} > ?`).run(seqno);
  }

  private forget(name: string): void {
    for (const table of ['snapshot_pending', 'snapshot_libraries', 'snapshots'])
      this.db.prepare(`DELETE FROM ${table} WHERE name = ?`).run(name);
  }

  private find(name: string): SnapshotRow | undefined {
    return this.db.prepare('SELECT * FROM snapshots WHERE name = ?').safeIntegers(true).get(name) as SnapshotRow | undefined;
  }

  private row(name: string): SnapshotRow {
    const row = this.find(name);
    if (!row) {
      const known = this.list().map((s) => s.name);
      throw new NotFound(
        `name: no snapshot named ${JSON.stringify(name)} (${known.length > 0 ? `there are: ${known.map((n) => JSON.stringify(n)).join(', ')}` : 'there are none'})`,
      );
    }
    return row;
  }

  private meta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }
}

function infoOf(row: SnapshotRow): SnapshotInfo {
  return {
    name: row.name,
    seqno: Number(row.mc_seqno),
    rootHash: row.root_hash,
    createdAtMs: Number(row.created_at),
    pendingMessages: Number(row.pending ?? 0n),
  };
}
