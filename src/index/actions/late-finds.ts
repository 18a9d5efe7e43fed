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
 * block, at most MAX_LATE_TRANSACTIONS per group over all late finds; what is left waits for the next groups (a
 * cursor per find, in memory: a restart forgets it, and those traces keep the actions they had). In practice a find
 * covers one block: an account that changed again after the failed block was met again, and its newer state, detected
 * then, replaced the retry (that is the late find, with the failed block as `since`). Only a burst (many retries
 * succeeding at once after a liteserver came back, an account with hundreds of transactions in that block) spreads
 * over groups.
 */
import type { SqlReads } from '../sql/driver.js';
import { bigint, bytes } from '../sql/values.js';
import { placeholders } from '../sql/where.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import type { LateFind } from '../tokens/detector.js';
import { MAX_CLASSIFIED_TRANSACTIONS } from './classify-traces.js';

/** Transactions of late-found accounts walked per group (the back-fill's group is 500 traces). */
export const MAX_LATE_TRANSACTIONS = 500;
/** Late finds waiting for a later group; beyond it the oldest is forgotten (as detection-retry.ts bounds its retries). */
const MAX_LATE_FINDS = 10_000;

interface Waiting extends LateFind {
  /** Where the walk of the account's transactions goes on (null: from the first lt of block `since`). */
  fromLt: bigint | null;
}

/** The late finds of the groups so far, and their walk (the store thread's: one instance per block committer). */
export class LateFinds {
  private readonly waiting: Waiting[] = [];

  /** `perGroup`: transactions walked per take() (a test makes it small to see a walk go on over groups). */
  constructor(private readonly perGroup = MAX_LATE_TRANSACTIONS) {}

  add(finds: readonly LateFind[]): void {
    for (const find of finds) this.waiting.push({ ...find, fromLt: null });
    if (this.waiting.length > MAX_LATE_FINDS) this.waiting.splice(0, this.waiting.length - MAX_LATE_FINDS);
  }

  get size(): number {
    return this.waiting.length;
  }

  /**
   * This group's share: the stored, classified, complete traces with a transaction of a late-found account from its
   * block on, not in `skip` (the traces the group classifies anyway).
   */
  async take(store: SqlReads, skip: ReadonlySet<string>): Promise<TraceRow[]> {
    const traceIds = new Set<string>();
    let budget = this.perGroup;
    while (this.waiting.length > 0 && budget > 0) {
      const find = this.waiting[0];
      if (find.fromLt === null) {
        // The first lt of the blocks that masterchain block committed: the account's transactions in it come after.
        const [first] = await store.all('SELECT MIN(start_lt) AS lt FROM blocks WHERE mc_seqno = ?', [find.since]);
        if (first?.lt === null || first?.lt === undefined) {
          this.waiting.shift();
          continue;
        }
        find.fromLt = bigint(first.lt);
      }
      const rows = await store.all(
        `SELECT trace_id, lt FROM transactions WHERE account = ? AND lt >= ? AND mc_seqno >= ? ORDER BY lt LIMIT ${budget}`,
        [find.account, find.fromLt, find.since],
      );
      for (const row of rows) if (row.trace_id !== null) traceIds.add(bytes(row.trace_id).toString('base64'));
      budget -= rows.length;
      if (budget > 0) this.waiting.shift();
      else find.fromLt = bigint(rows[rows.length - 1].lt) + 1n;
    }
    for (const id of skip) traceIds.delete(id);
    if (traceIds.size === 0) return [];
    const ids = [...traceIds].map((id) => Buffer.from(id, 'base64'));
    const rows = await store.all(
      `SELECT t.* FROM traces t JOIN trace_classifications c ON c.trace_id = t.trace_id WHERE t.trace_id IN (${placeholders(ids)})`,
      ids,
    );
    return rows.map(traceRowOf).filter((t) => t.state === 'complete' && t.transactions <= MAX_CLASSIFIED_TRANSACTIONS);
  }
}
