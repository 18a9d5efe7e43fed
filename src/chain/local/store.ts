/**
 * The local chain on disk: blocks (both chains), transactions, messages, account states per
 * masterchain seqno and the internal messages still waiting for delivery, in SQLite.
 *
 * Durability: WAL with synchronous=NORMAL. A commit is in the WAL file before COMMIT returns, so a
 * killed process (kill -9) loses nothing committed; only a power loss / OS crash may lose the last
 * commits (NORMAL skips the fsync per commit, which costs ~a millisecond each on this machine's disk).
 * The producer commits a block BEFORE it moves the in-memory "last block" pointer that
 * masterchainInfo reports, so nothing ever reported can be lost to a crash.
 *
 * Visibility: every read takes the visible masterchain seqno and filters on it. A block is written
 * in slices (one SQLite transaction, with pauses for the event loop between slices); readers on this
 * same connection would see those uncommitted rows, and the seqno filter keeps them invisible until
 * the pointer moves.
 *
 * Ephemeral chains use ':memory:' (nothing on disk).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pacer } from './lane.js';
import { checkChainFile, exportChainFile, importChainFile } from './snapshot-file.js';
import { SNAPSHOT_SCHEMA, SnapshotStore } from './snapshot-store.js';
import {
  toBlockRow,
  toMessageRow,
  toTxRow,
  type BlockRow,
  type LibraryRow,
  type MessageRow,
  type PendingRow,
  type RawBlockRow,
  type RawMessageRow,
  type RawTxRow,
  type SealRecord,
  type TxRow,
} from './store-rows.js';
import { SCHEMA, SCHEMA_VERSION } from './store-schema.js';

/** Longest stretch of row writes in a block's SQLite transaction before yielding to the event loop. */
const SLICE_MS = 4;

type Stmt = Database.Statement<unknown[]>;

export class ChainStore {
  private readonly db: Database.Database;
  private readonly s: Record<string, Stmt>;
  private closed = false;
  /** Named points to put the chain back to (snapshot-store.ts). */
  readonly snapshots: SnapshotStore;

  private constructor(db: Database.Database) {
    this.db = db;
    db.exec(SCHEMA);
    db.exec(SNAPSHOT_SCHEMA);
    this.snapshots = new SnapshotStore(db);
    const prepare = (sql: string) => db.prepare(sql).safeIntegers(true) as Stmt;
    this.s = {
      metaGet: prepare('SELECT value FROM meta WHERE key = ?'),
      metaSet: prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      blockInsert: prepare(
        `INSERT INTO blocks (workchain, seqno, shard, root_hash, file_hash, mc_seqno, gen_utime, start_lt, end_lt, tx_count, state_hash, rand_seed, boc)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      blockGet: prepare('SELECT * FROM blocks WHERE workchain = ? AND seqno = ? AND mc_seqno <= ?'),
      blockByLt: prepare('SELECT * FROM blocks WHERE workchain = ? AND end_lt >= ? AND mc_seqno <= ? ORDER BY end_lt LIMIT 1'),
      blockByUtime: prepare(
        'SELECT * FROM blocks WHERE workchain = ? AND gen_utime <= ? AND mc_seqno <= ? ORDER BY gen_utime DESC, seqno DESC LIMIT 1',
      ),
      lastMcSeqno: prepare('SELECT MAX(seqno) AS seqno FROM blocks WHERE workchain = -1'),
      txInsert: prepare(
        `INSERT INTO transactions (hash, workchain, account, lt, now, block_seqno, mc_seqno, in_msg_hash, boc)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      txByHash: prepare('SELECT * FROM transactions WHERE hash = ? AND mc_seqno <= ?'),
      txLastOfAccount: prepare('SELECT * FROM transactions WHERE workchain = ? AND account = ? AND mc_seqno <= ? ORDER BY lt DESC LIMIT 1'),
      txAtLt: prepare('SELECT * FROM transactions WHERE workchain = ? AND account = ? AND lt = ? AND mc_seqno <= ?'),
      txsOfAccount: prepare(
        `SELECT * FROM transactions WHERE workchain = ? AND account = ? AND lt <= ? AND lt > ? AND mc_seqno <= ?
         ORDER BY lt DESC LIMIT ?`,
      ),
      txsOfBlock: prepare(
        `SELECT * FROM transactions WHERE workchain = ? AND block_seqno = ? AND mc_seqno <= ? AND (account > ? OR (account = ? AND lt > ?))
         ORDER BY account, lt LIMIT ?`,
      ),
      txsByInMsg: prepare('SELECT * FROM transactions WHERE in_msg_hash = ? AND mc_seqno <= ?'),
      txByOutMsg: prepare(`SELECT t.* FROM messages m JOIN transactions t ON t.hash = m.out_tx_hash WHERE m.hash = ? AND t.mc_seqno <= ?`),
      msgInsert: prepare(
        `INSERT INTO messages (hash, kind, source, destination, created_lt, created_at, opcode, body_hash, hash_norm, out_tx_hash, mc_seqno, boc)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
      ),
      msgByHash: prepare('SELECT * FROM messages WHERE hash = ? AND mc_seqno <= ?'),
      msgByNorm: prepare('SELECT * FROM messages WHERE hash_norm = ? AND mc_seqno <= ?'),
      stateInsert: prepare('INSERT INTO account_states (workchain, account, mc_seqno, boc) VALUES (?, ?, ?, ?)'),
      stateAsOf: prepare(
        'SELECT boc, mc_seqno FROM account_states WHERE workchain = ? AND account = ? AND mc_seqno <= ? ORDER BY mc_seqno DESC LIMIT 1',
      ),
      statesAt: prepare('SELECT workchain, account FROM account_states WHERE mc_seqno = ?'),
      pendingInsert: prepare('INSERT INTO pending_messages (hash, created_lt, boc) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING'),
      pendingDelete: prepare('DELETE FROM pending_messages WHERE hash = ?'),
      pendingAll: prepare('SELECT hash, created_lt, boc FROM pending_messages ORDER BY created_lt'),
      libSet: prepare('INSERT INTO public_libraries (account, hash, boc) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
      libDrop: prepare('DELETE FROM public_libraries WHERE account = ? AND hash = ?'),
      libAll: prepare('SELECT account, hash, boc FROM public_libraries'),
    };
  }

  /** Opens (creating if needed) the store under dataDir, or an in-memory one when dataDir is undefined. */
  static open(dataDir: string | undefined): ChainStore {
    let db: Database.Database;
    if (dataDir === undefined) {
      db = new Database(':memory:');
    } else {
      mkdirSync(dataDir, { recursive: true });
      db = new Database(join(dataDir, 'chain.sqlite'));
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    const store = new ChainStore(db);
    const version = store.meta('schema_version');
    if (version === undefined) store.setMeta('schema_version', SCHEMA_VERSION);
    else if (version !== SCHEMA_VERSION) {
      db.close();
      throw new Error(`chain data in ${dataDir} has schema version ${version}; this tongate reads version ${SCHEMA_VERSION}`);
    }
    return store;
  }

  meta(key: string): string | undefined {
    return (this.s.metaGet.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.s.metaSet.run(key, value);
  }

  /** Highest masterchain seqno on disk, or undefined for a new store. */
  lastMcSeqno(): number | undefined {
    const row = this.s.lastMcSeqno.get() as { seqno: bigint | null };
    return row.seqno === null ? undefined : Number(row.seqno);
  }

  block(workchain: number, seqno: number, visibleMc: number): BlockRow | undefined {
    const row = this.s.blockGet.get(workchain, seqno, visibleMc) as RawBlockRow | undefined;
    return row && toBlockRow(row);
  }

  /** The first block whose lt range reaches `lt` (end_lt >= lt). */
  blockByLt(workchain: number, lt: bigint, visibleMc: number): BlockRow | undefined {
    const row = this.s.blockByLt.get(workchain, lt, visibleMc) as RawBlockRow | undefined;
    return row && toBlockRow(row);
  }

  /** The newest block generated at or before `utime`. */
  blockByUtime(workchain: number, utime: number, visibleMc: number): BlockRow | undefined {
    const row = this.s.blockByUtime.get(workchain, utime, visibleMc) as RawBlockRow | undefined;
    return row && toBlockRow(row);
  }

  transaction(hash: Buffer, visibleMc: number): TxRow | undefined {
    const row = this.s.txByHash.get(hash, visibleMc) as RawTxRow | undefined;
    return row && toTxRow(row);
  }

  lastTransaction(workchain: number, account: Buffer, visibleMc: number): TxRow | undefined {
    const row = this.s.txLastOfAccount.get(workchain, account, visibleMc) as RawTxRow | undefined;
    return row && toTxRow(row);
  }

  transactionAt(workchain: number, account: Buffer, lt: bigint, visibleMc: number): TxRow | undefined {
    const row = this.s.txAtLt.get(workchain, account, lt, visibleMc) as RawTxRow | undefined;
    return row && toTxRow(row);
  }

  /** Newest first: lt <= fromLt and lt > toLt. */
  accountTransactions(workchain: number, account: Buffer, fromLt: bigint, toLt: bigint, limit: number, visibleMc: number): TxRow[] {
    return (this.s.txsOfAccount.all(workchain, account, fromLt, toLt, visibleMc, limit) as RawTxRow[]).map(toTxRow);
  }

  /** Ordered by (account, lt), strictly after (afterAccount, afterLt). */
  blockTransactions(
    workchain: number,
    blockSeqno: number,
    afterAccount: Buffer,
    afterLt: bigint,
    limit: number,
    visibleMc: number,
  ): TxRow[] {
    return (this.s.txsOfBlock.all(workchain, blockSeqno, visibleMc, afterAccount, afterAccount, afterLt, limit) as RawTxRow[]).map(toTxRow);
  }

  /** Transactions that consumed the message, then the one that created it. */
  transactionsByMessage(msgHash: Buffer, visibleMc: number): TxRow[] {
    const inTxs = (this.s.txsByInMsg.all(msgHash, visibleMc) as RawTxRow[]).map(toTxRow);
    const outTxs = (this.s.txByOutMsg.all(msgHash, visibleMc) as RawTxRow[]).map(toTxRow);
    return [...inTxs, ...outTxs];
  }

  message(hash: Buffer, visibleMc: number): MessageRow | undefined {
    const row = this.s.msgByHash.get(hash, visibleMc) as RawMessageRow | undefined;
    return row && toMessageRow(row);
  }

  messagesByNormHash(hashNorm: Buffer, visibleMc: number): MessageRow[] {
    return (this.s.msgByNorm.all(hashNorm, visibleMc) as RawMessageRow[]).map(toMessageRow);
  }

  /** The account's ShardAccount BoC as of masterchain seqno `mcSeqno`, if it ever had one. */
  accountState(workchain: number, account: Buffer, mcSeqno: number): { boc: Buffer; mcSeqno: number } | undefined {
    const row = this.s.stateAsOf.get(workchain, account, mcSeqno) as { boc: Buffer; mc_seqno: bigint } | undefined;
    return row && { boc: row.boc, mcSeqno: Number(row.mc_seqno) };
  }

  /** The accounts whose state changed in masterchain block `mcSeqno` (block 0: every account of the zero state). */
  accountsChangedAt(mcSeqno: number): Array<{ workchain: number; account: Buffer }> {
    return (this.s.statesAt.all(mcSeqno) as Array<{ workchain: bigint; account: Buffer }>).map((r) => ({
      workchain: Number(r.workchain),
      account: r.account,
    }));
  }

  pendingMessages(): PendingRow[] {
    return (this.s.pendingAll.all() as Array<{ hash: Buffer; created_lt: bigint; boc: Buffer }>).map((r) => ({
      hash: r.hash,
      createdLt: r.created_lt,
      boc: r.boc,
    }));
  }

  /** Every public library of every masterchain account (read once, when the chain opens). */
  publicLibraries(): LibraryRow[] {
    return this.s.libAll.all() as LibraryRow[];
  }

  /** Writes snapshot `name` (of masterchain `seqno`) as a chain file (snapshot-file.ts). Call it between seals. */
  exportSnapshot(file: string, name: string, seqno: number): void {
    exportChainFile(this.db, file, name, seqno);
  }

  /** Checks that `file` is a chain of this network; its last masterchain seqno. */
  checkImport(file: string): { seqno: number } {
    return checkChainFile(this.db, file);
  }

  /** Replaces the chain's rows by the file's (checked with checkImport first). Call it between seals. */
  importFile(file: string): void {
    importChainFile(this.db, file);
  }

  /**
   * Commits one production step atomically. Written in slices with event-loop pauses between them
   * (see "Visibility" above); on any error the whole step is rolled back and the error rethrown.
   */
  async writeSeal(rec: SealRecord): Promise<void> {
    this.db.exec('BEGIN');
    try {
      const pacer = new Pacer(SLICE_MS);
      let rows = 0;
      // the clock is read every 16 rows, not every row
      for (const _ of this.sealRows(rec)) if ((++rows & 15) === 0) await pacer.pause();
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** Writes the step's rows one at a time, yielding after each (writeSeal paces them). */
  private *sealRows(rec: SealRecord): Generator<void> {
    const { s } = this;
    const seqno = rec.mcSeqno;
    for (const b of rec.blocks) {
      s.blockInsert.run(
        b.workchain,
        b.seqno,
        BigInt.asIntN(64, b.shard),
        b.rootHash,
        b.fileHash,
        b.mcSeqno,
        b.genUtime,
        b.startLt,
        b.endLt,
        b.txCount,
        b.stateHash,
        b.randSeed,
        b.boc,
      );
      yield;
    }
    for (const t of rec.transactions) {
      s.txInsert.run(t.hash, t.workchain, t.account, t.lt, t.now, seqno, seqno, t.inMsgHash, t.boc);
      yield;
    }
    for (const m of rec.messages) {
      s.msgInsert.run(
        m.hash,
        m.kind,
        m.source,
        m.destination,
        m.createdLt,
        m.createdAt,
        m.opcode,
        m.bodyHash,
        m.hashNorm,
        m.outTxHash,
        seqno,
        m.boc,
      );
      yield;
    }
    for (const a of rec.accountStates) {
      s.stateInsert.run(a.workchain, a.account, seqno, typeof a.boc === 'string' ? Buffer.from(a.boc, 'base64') : a.boc);
      yield;
    }
    for (const p of rec.pendingAdded) {
      s.pendingInsert.run(p.hash, p.createdLt, p.boc);
      yield;
    }
    for (const h of rec.pendingDelivered) {
      s.pendingDelete.run(h);
      yield;
    }
    for (const l of rec.libraries?.set ?? []) {
      s.libSet.run(l.account, l.hash, l.boc);
      yield;
    }
    for (const l of rec.libraries?.dropped ?? []) {
      s.libDrop.run(l.account, l.hash);
      yield;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
