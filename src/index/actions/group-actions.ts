/**
 * The actions a group of blocks adds, in the store thread, right before the group's DB transaction: every trace
 * the group completed is classified (its transactions from the group and the store, the token contracts the
 * group detected or the store knows) and its actions go into the same transaction as the blocks. So a trace is
 * `complete` in the index exactly when its actions are, and nothing of this runs on the HTTP thread.
 *
 * With them, the traces classified earlier without a contract the group's detection (or an earlier group's, or the
 * token back-fill's) found late (a retried detection: late-finds.ts) are classified again, a bounded share per
 * group, their old actions deleted in the same transaction, and what is left of the walk written there too.
 */
import type { InsertBatch, SqlDriver, SqlRow } from '../sql/driver.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import type { LateFind } from '../tokens/detector.js';
import { MAX_CLASSIFIED_TRANSACTIONS, replacingBatches } from './classify-traces.js';
import { LateFinds, type LateShare } from './late-finds.js';
import { groupRowsOf } from './trace-source.js';
import { ACTIONS_MIGRATION } from './schema.js';
import { LATE_FINDS_MIGRATION } from './late-finds-schema.js';

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
 * given, as tests that rebuild old indexes do) is written as that tongate wrote it: no actions; one without
 * `late_finds` (migration 16) classifies no trace again. Asked once.
 */
export class GroupActions {
  private enabled: Promise<{ actions: boolean; lateFinds: boolean }> | undefined;
  private readonly late: LateFinds;

  /** `lateFindsPerGroup`: transactions of late-found accounts walked per group (late-finds.ts; a test makes it small). */
  constructor(
    private readonly store: SqlDriver,
    lateFindsPerGroup?: number,
  ) {
    this.late = new LateFinds(lateFindsPerGroup);
  }

  /** The token back-fill wrote late finds to `late_finds` (../tokens/backfill.ts): a later group walks them. */
  lateFindsStored(): void {
    this.late.storedElsewhere();
  }

  /** The group of the last batches() is committed (its late finds' walk with it). */
  committed(): void {
    this.late.committed();
  }

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
    if (complete.length === 0 && lateFinds.length === 0 && !this.late.waiting) return NOTHING;
    this.enabled ??= this.store
      .all(`SELECT version FROM index_migrations WHERE version IN (${ACTIONS_MIGRATION.version}, ${LATE_FINDS_MIGRATION.version})`)
      .then((rows) => {
        const versions = new Set(rows.map((r) => Number(r.version)));
        return { actions: versions.has(ACTIONS_MIGRATION.version), lateFinds: versions.has(LATE_FINDS_MIGRATION.version) };
      });
    const enabled = await this.enabled;
    if (!enabled.actions) return NOTHING;
    const fresh = new Set(complete.map((t) => t.traceId));
    let late: LateShare = { traces: [], batches: [], before: [] };
    if (enabled.lateFinds) {
      this.late.add(lateFinds);
      if (this.late.waiting) late = await this.late.take(this.store, fresh);
    }
    const again = late.traces;
    const group = groupRowsOf([...blockRows, ...tokens], new Set([...fresh, ...again.map((t) => t.traceId)]));
    const rows = await replacingBatches(this.store, complete, again, group);
    return { batches: [...rows.batches, ...late.batches], before: [...late.before, ...rows.before] };
  }
}
