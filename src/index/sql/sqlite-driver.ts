/**
 * The embedded store: one SQLite file per network (memory in some tests), in WAL mode so readers
 * never wait for the writer. The API's reads run on reader threads with connections of their own
 * (worker/reader-pool.ts); this driver's `all` runs where it is called. better-sqlite3 is synchronous, so a write batch runs start to finish
 * without yielding: no request can observe half a block.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { InsertBatch, SqlDriver, SqlRow, SqlValue } from './driver.js';
import type { Synchronous } from './power-loss-guard.js';

type Statement = Database.Statement<unknown[]>;

export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly reads = new Map<string, Statement>();
  private readonly inserts = new Map<string, Statement>();

  private constructor(private readonly db: Database.Database) {}

  /**
   * `file` undefined: an in-memory database (one connection only). `synchronous` 'off' only for a
   * file under a power-loss guard (power-loss-guard.ts) or a temporary one.
   */
  static open(file?: string, synchronous: Synchronous = 'normal'): SqliteDriver {
    if (file) mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file ?? ':memory:');
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL survives a process crash with every committed block; a power loss may drop the
    // last blocks, which the catch-up on the next start writes again from the chain's store. OFF
    // also survives a process crash; after a power loss the guard discards the file.
    db.pragma(`synchronous = ${synchronous === 'off' ? 'OFF' : 'NORMAL'}`);
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -131072'); // 128 MiB page cache: the hot index pages stay in memory
    // Reads through the OS page cache without a copy per page (measured: ~10 % off a block's write at 1M transactions).
    db.pragma('mmap_size = 1073741824');
    // The store thread and the readers share the file: a reader arriving during a checkpoint waits.
    db.pragma('busy_timeout = 5000');
    // Checkpoint every ~100 MB of WAL instead of every 4 MB: measured, half the write cost of a block
    // goes to checkpoints at the default. The WAL file is cut back to 128 MB after each one.
    db.pragma('wal_autocheckpoint = 25000');
    db.pragma('journal_size_limit = 134217728');
    return new SqliteDriver(db);
  }

  /**
   * A read-only connection to an index file another connection keeps in WAL mode (a reader thread's,
   * worker/read-worker.ts): it sees every committed write, never blocks the writer and cannot write.
   */
  static openReader(file: string): SqliteDriver {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    // The pages come through mmap from the OS page cache, shared with the writer: a small cache of
    // its own suffices (and a reader cut off mid-query holds little while it winds down).
    db.pragma('cache_size = -16384');
    db.pragma('mmap_size = 1073741824');
    db.pragma('busy_timeout = 5000');
    return new SqliteDriver(db);
  }

  async all(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    return this.read(sql).all(...params) as SqlRow[];
  }

  async exec(sql: string): Promise<void> {
    this.db.exec(sql);
  }

  async write(batches: readonly InsertBatch[], before: readonly string[] = [], after: readonly string[] = []): Promise<void> {
    this.db.transaction(() => {
      for (const statement of before) this.db.exec(statement);
      for (const batch of batches) {
        if (batch.rows.length === 0) continue;
        const insert = this.insert(batch);
        for (const row of batch.rows) insert.run(...row);
      }
      for (const statement of after) this.db.exec(statement);
    })();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private read(sql: string): Statement {
    let statement = this.reads.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // lt, shard and balances exceed 2^53: read every integer as bigint, convert where small.
      statement.safeIntegers(true);
      this.reads.set(sql, statement);
    }
    return statement;
  }

  private insert(batch: InsertBatch): Statement {
    const key = `${batch.table}|${batch.columns.join(',')}|${batch.conflict ?? ''}`;
    let statement = this.inserts.get(key);
    if (!statement) {
      const marks = batch.columns.map(() => '?').join(', ');
      statement = this.db.prepare(`INSERT INTO ${batch.table} (${batch.columns.join(', ')}) VALUES (${marks}) ${batch.conflict ?? ''}`);
      this.inserts.set(key, statement);
    }
    return statement;
  }
}
