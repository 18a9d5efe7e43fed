/**
 * The actions a group of blocks adds, in the store thread, right before the group's DB transaction: every trace
 * the group completed is classified (its transactions from the group and the store, the token contracts the
 * group detected or the store knows) and its actions go into the same transaction as the blocks. So a trace is
 * `complete` in the index exactly when its actions are, and nothing of this runs on the HTTP thread.
 *
 * With them, the traces classified earlier without a contract the group's detection found late (a retried
 * detection: late-finds.ts) are classified again, their old actions deleted in the same transaction.
 */
import type { InsertBatch, SqlDriver, SqlRow } from '../sql/driver.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import type { LateFind } from '../tokens/detector.js';
import { MAX_CLASSIFIED_TRANSACTIONS, replacingBatches } from './classify-traces.js';
import { LateFinds } from './late-finds.js';
import { groupRowsOf } from './trace-source.js';
import { ACTIONS_MIGRATION } from './schema.js';

/** The traces among the linker's rows that are complete and not too large to classify. */
export function classifiableTraces(batches: readonly InsertBatch[]): TraceRow[] {
  const traces: TraceRow[] = [];
  for (const batch of batches) {
    if (batch.table !== 'traces') continue;
    for (const values of batch.rows) {
      const row: SqlRow = Object.fromEntries(batch.columns.map((c, i) => [c, values[i]]));
      const trace = traceRowOf(row);
      if (trace.state === 'complete' && trace.transactions <= MAX_CLASSIFIED_TRANSACTIONS) traces.push(trace);
    }
  }
  return traces;
}

/** What a group adds to its DB transaction: the action rows, and the statements that delete replaced actions first. */
export interface GroupActionRows {
  batches: InsertBatch[];
  before: string[];
}

const NOTHING: GroupActionRows = { batches: [], before: [] };

/**
 * The committer's step. A store without the actions tables (migration 11: a store an earlier tongate's schema was
 * given, as tests that rebuild old indexes do) is written as that tongate wrote it: no actions; asked once.
 */
export class GroupActions {
  private enabled: Promise<boolean> | undefined;
  private readonly late = new LateFinds();

  constructor(private readonly store: SqlDriver) {}

  /**
   * The action rows of the traces a group completes: `blockRows` its blocks' rows (trace ids final), `traces` the
   * linker's, `tokens` detection's; and of the stored traces of the contracts detection found late (`lateFinds`).
   */
  async batches(
    blockRows: readonly InsertBatch[],
    traces: readonly InsertBatch[],
    tokens: readonly InsertBatch[],
    lateFinds: readonly LateFind[] = [],
  ): Promise<GroupActionRows> {
    const complete = classifiableTraces(traces);
    if (complete.length === 0 && lateFinds.length === 0 && this.late.size === 0) return NOTHING;
    this.enabled ??= this.store
      .all(`SELECT 1 AS found FROM index_migrations WHERE version = ${ACTIONS_MIGRATION.version}`)
      .then((rows) => rows.length > 0);
    if (!(await this.enabled)) return NOTHING;
    this.late.add(lateFinds);
    const fresh = new Set(complete.map((t) => t.traceId));
    const again = await this.late.take(this.store, fresh);
    const group = groupRowsOf([...blockRows, ...tokens], new Set([...fresh, ...again.map((t) => t.traceId)]));
    return replacingBatches(this.store, complete, again, group);
  }
}
