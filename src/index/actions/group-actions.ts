/**
 * The actions a group of blocks adds, in the store thread, right before the group's DB transaction: every trace
 * the group completed is classified (its transactions from the group and the store, the token contracts the
 * group detected or the store knows) and its actions go into the same transaction as the blocks. So a trace is
 * `complete` in the index exactly when its actions are, and nothing of this runs on the HTTP thread.
 *
 * Traces of more transactions than toncenter's classifier takes (`big_traces_threshold`, 4,000) stay unclassified,
 * as toncenter leaves them.
 */
import type { InsertBatch, SqlReads, SqlRow } from '../sql/driver.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import { actionBatches, type ClassifiedTrace } from './action-rows.js';
import { classifyTrace } from './classify.js';
import { ghostDestinations } from './ghosts.js';
import { swapTargetWallets } from './swaps.js';
import { stonfiV2SwapWallets } from './stonfi-v2-swaps.js';
import { toncoSwapWallets } from './tonco-swaps.js';
import { toncoDepositWallets } from './tonco-liquidity.js';
import { groupRowsOf, knownContracts, NO_GROUP_ROWS, traceInputs, type GroupRows } from './trace-source.js';
import { ACTIONS_MIGRATION } from './schema.js';

export const MAX_CLASSIFIED_TRANSACTIONS = 4000;

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

/** Classifies `traces` (complete), reading what the group does not hold from the store. */
export async function classifyTraces(
  store: SqlReads,
  traces: readonly TraceRow[],
  group: GroupRows = NO_GROUP_ROWS,
): Promise<ClassifiedTrace[]> {
  if (traces.length === 0) return [];
  const inputs = await traceInputs(store, traces, group);
  // The trace's accounts, those a lone wallet request names (its jetton wallet: ghosts.ts) and the wallets swaps ask for or route through, a TONCO deposit's other router wallet.
  const accounts = inputs.flatMap((t) =>
    t.transactions.flatMap((tx) => [
      tx.account,
      ...(t.transactions.length === 1 ? ghostDestinations(tx) : []),
      ...swapTargetWallets(tx),
      ...stonfiV2SwapWallets(tx),
      ...toncoSwapWallets(tx),
      ...toncoDepositWallets(tx),
    ]),
  );
  const contracts = await knownContracts(store, accounts, group);
  return inputs.map((input) => ({ traceId: input.traceId, ...classifyTrace(input, contracts) }));
}

/**
 * The committer's step. A store without the actions tables (migration 11: a store an earlier tongate's schema was
 * given, as tests that rebuild old indexes do) is written as that tongate wrote it: no actions; asked once.
 */
export class GroupActions {
  private enabled: Promise<boolean> | undefined;

  constructor(private readonly store: SqlReads) {}

  /** The action rows of the traces a group completes: `blockRows` its blocks' rows (trace ids final), `traces` the linker's, `tokens` detection's. */
  async batches(blockRows: readonly InsertBatch[], traces: readonly InsertBatch[], tokens: readonly InsertBatch[]): Promise<InsertBatch[]> {
    const complete = classifiableTraces(traces);
    if (complete.length === 0) return [];
    this.enabled ??= this.store
      .all(`SELECT 1 AS found FROM index_migrations WHERE version = ${ACTIONS_MIGRATION.version}`)
      .then((rows) => rows.length > 0);
    if (!(await this.enabled)) return [];
    const group = groupRowsOf([...blockRows, ...tokens], new Set(complete.map((t) => t.traceId)));
    return actionBatches(await classifyTraces(this.store, complete, group));
  }
}
