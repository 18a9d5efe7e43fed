/**
 * Contracts found late, and the traces classified without them. A detection the chain did not answer (a lite
 * network's get-method past its time budget) is retried a few blocks later (../tokens/detection-retry.ts), but a
 * trace that touched the account and completed meanwhile was classified without the contract: a jetton mint whose
 * wallet was unknown is a `call_contract` (toncenter's matcher needs the wallet known), and nothing else would ever
 * classify it again. So a contract found late (TokenDetector's LateFind: the account, and the block whose state
 * failed) has the stored, classified traces with a transaction of that account from that block on classified again
 * (group-actions.ts, through classify-traces.ts as every classification), in the DB transaction of the group that
 * found it, with the contract just detected.
 *
 * Bounded: the account's transactions are walked by its (account, lt) index from the first lt of that masterchain
 * block, at most MAX_LATE_TRANSACTIONS per group over all late finds (and at most MAX_FINDS_PER_GROUP finds looked
 * at); what is left waits for the next groups in `late_finds` (late-finds-schema.ts), each find with the lt its walk
 * goes on from. The table is written in the group's own DB transaction: a restart resumes the walk where the last
 * committed group left it, and a group whose write failed leaves the table as it was (its new finds are kept here
 * until a group carrying them is committed). The token back-fill writes its finds into the table too
 * (storedElsewhere()). In practice a find covers one block or a few; only a burst (many retries succeeding at once
 * after a liteserver came back, an account with hundreds of transactions since its failed block) spreads over groups.
 */
import type { InsertBatch, SqlReads, SqlValue } from '../sql/driver.js';
import { bigint, bytes, int, optionalBigint, text } from '../sql/values.js';
import { placeholders } from '../sql/where.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import type { LateFind } from '../tokens/detector.js';
import { MAX_CLASSIFIED_TRANSACTIONS } from './classify-traces.js';
import { lateFindBatch } from './late-finds-schema.js';

/** Transactions of late-found accounts walked per group (the back-fill's group is 500 traces). */
export const MAX_LATE_TRANSACTIONS = 500;
/** Late finds looked at per group: each costs a query or two even when it has no transaction left. */
const MAX_FINDS_PER_GROUP = 100;

/** A late find and where its walk goes on (null: from the first lt of block `since`). */
interface Walk extends LateFind {
  fromLt: bigint | null;
}

const keyOf = (find: LateFind): string => `${find.account}|${find.since}`;
const textLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** A group's share of the late finds: the traces to classify again, and what the group writes to `late_finds`. */
export interface LateShare {
  traces: TraceRow[];
  batches: InsertBatch[];
  before: string[];
}

/** The late finds and their walk (the store thread's: one instance per block committer). */
export class LateFinds {
  /** Finds of groups not committed yet (the current one, or one whose write failed): not in the table. */
  private unsaved: LateFind[] = [];
  /** Whether `late_finds` may hold rows; unknown at start (a restart resumes what is there). */
  private stored: boolean | undefined;
  /** Raised by storedElsewhere(): a take() that read the table before it does not know those rows. */
  private notes = 0;
  /** What committed() settles: the unsaved finds the share took and whether rows are left, as of that take(). */
  private pending: { unsaved: number; left: boolean; notes: number } | undefined;

  /** `perGroup`: transactions walked per take() (a test makes it small to see a walk go on over groups). */
  constructor(private readonly perGroup = MAX_LATE_TRANSACTIONS) {}

  add(finds: readonly LateFind[]): void {
    this.unsaved.push(...finds);
  }

  /** Rows were written to `late_finds` by someone else (the token back-fill): the next take() reads the table. */
  storedElsewhere(): void {
    this.stored = true;
    this.notes++;
  }

  /** True when a take() may have work: new finds, or rows in the table (or not known yet). */
  get waiting(): boolean {
    return this.unsaved.length > 0 || this.stored !== false;
  }

  /**
   * This group's share: the stored, classified, complete traces with a transaction of a late-found account from its
   * block on, not in `skip` (the traces the group classifies anyway); and the rows and statements that bring
   * `late_finds` to what is left, for the group's DB transaction. Nothing here changes until committed().
   */
  async take(store: SqlReads, skip: ReadonlySet<string>): Promise<LateShare> {
    const notes = this.notes;
    const storedRows =
      this.stored === false
        ? []
        : await store.all(`SELECT account, since, from_lt FROM late_finds ORDER BY since, account LIMIT ${MAX_FINDS_PER_GROUP}`);
    const walks: Array<Walk & { saved: boolean }> = [
      ...storedRows.map((r) => ({ account: text(r.account), since: int(r.since), fromLt: optionalBigint(r.from_lt), saved: true })),
      ...this.unsaved.map((f) => ({ ...f, fromLt: null, saved: false })),
    ];
    const traceIds = new Set<string>();
    const done = new Set<(typeof walks)[number]>();
    let partial: Walk | undefined;
    let budget = this.perGroup;
    for (const walk of walks.slice(0, MAX_FINDS_PER_GROUP)) {
      if (budget <= 0) break;
      if (walk.fromLt === null) {
        // The first lt of the blocks that masterchain block committed: the account's transactions in it come after.
        const [first] = await store.all('SELECT MIN(start_lt) AS lt FROM blocks WHERE mc_seqno = ?', [walk.since]);
        if (first?.lt === null || first?.lt === undefined) {
          done.add(walk);
          continue;
        }
        walk.fromLt = bigint(first.lt);
      }
      const rows = await store.all(
        `SELECT trace_id, lt FROM transactions WHERE account = ? AND lt >= ? AND mc_seqno >= ? ORDER BY lt LIMIT ${budget}`,
        [walk.account, walk.fromLt, walk.since],
      );
      for (const row of rows) if (row.trace_id !== null) traceIds.add(bytes(row.trace_id).toString('base64'));
      budget -= rows.length;
      if (budget > 0) done.add(walk);
      else partial = { account: walk.account, since: walk.since, fromLt: bigint(rows[rows.length - 1].lt) + 1n };
    }

    // Stored finds walked to their end are deleted; the one walked in part goes on from where it stopped; new finds
    // not reached are written from their start.
    const doneStored = [...done].filter((w) => w.saved);
    const before =
      doneStored.length > 0
        ? [
            `DELETE FROM late_finds WHERE ${doneStored.map((w) => `(account = ${textLiteral(w.account)} AND since = ${w.since})`).join(' OR ')}`,
          ]
        : [];
    // One row per key (PostgreSQL refuses an upsert that meets a row twice): the same find reported twice is one walk.
    const unwalked = new Map<string, SqlValue[]>();
    if (partial) unwalked.set(keyOf(partial), [partial.account, partial.since, partial.fromLt]);
    for (const w of walks) if (!w.saved && !done.has(w) && !unwalked.has(keyOf(w))) unwalked.set(keyOf(w), [w.account, w.since, null]);
    const rows = [...unwalked.values()];
    const batches: InsertBatch[] =
      rows.length > 0
        ? [{ ...lateFindBatch([]), rows, conflict: 'ON CONFLICT (account, since) DO UPDATE SET from_lt = excluded.from_lt' }]
        : [];
    const left = storedRows.length >= MAX_FINDS_PER_GROUP || rows.length > 0 || storedRows.length > doneStored.length;
    this.pending = { unsaved: this.unsaved.length, left, notes };

    for (const id of skip) traceIds.delete(id);
    if (traceIds.size === 0) return { traces: [], batches, before };
    const ids = [...traceIds].map((id) => Buffer.from(id, 'base64'));
    const traces = await store.all(
      `SELECT t.* FROM traces t JOIN trace_classifications c ON c.trace_id = t.trace_id WHERE t.trace_id IN (${placeholders(ids)})`,
      ids,
    );
    return {
      traces: traces.map(traceRowOf).filter((t) => t.state === 'complete' && t.transactions <= MAX_CLASSIFIED_TRANSACTIONS),
      batches,
      before,
    };
  }

  /** The group of the last take() is committed: its new finds are in the table now (or walked to their end). */
  committed(): void {
    if (!this.pending) return;
    const { unsaved, left, notes } = this.pending;
    this.pending = undefined;
    this.unsaved = this.unsaved.slice(unsaved);
    // Rows the back-fill wrote after that take() read the table are still to be read.
    this.stored = left || notes !== this.notes;
  }
}
