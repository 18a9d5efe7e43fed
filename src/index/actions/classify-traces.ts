/**
 * Complete traces classified: their inputs read from a group of blocks and the store (trace-source.ts), the contracts
 * among their accounts, one classifyTrace each. And traces classified again: the rows that replace their stored
 * actions. Shared by the block committer's step (group-actions.ts: a group's traces, and those of contracts found
 * late: late-finds.ts) and the back-fill (backfill.ts: traces an older classifier classified), so a trace is
 * classified, and replaced, one way whoever asks.
 *
 * Traces of more transactions than toncenter's classifier takes (`big_traces_threshold`, 4,000) stay unclassified,
 * as toncenter leaves them.
 */
import type { Dialect, InsertBatch, SqlDriver, SqlReads, SqlValue } from '../sql/driver.js';
import { text } from '../sql/values.js';
import { placeholders } from '../sql/where.js';
import type { TraceRow } from '../traces/trace-row.js';
import { actionBatches, type ClassifiedTrace } from './action-rows.js';
import { classifyTrace } from './classify.js';
import { contractAccounts } from './contract-accounts.js';
import { jvaultStakeWallets, knownContracts, NO_GROUP_ROWS, traceInputs, type GroupRows } from './trace-source.js';

export const MAX_CLASSIFIED_TRANSACTIONS = 4000;

/** Classifies `traces` (complete), reading what the group does not hold from the store. */
export async function classifyTraces(
  store: SqlReads,
  traces: readonly TraceRow[],
  group: GroupRows = NO_GROUP_ROWS,
): Promise<ClassifiedTrace[]> {
  if (traces.length === 0) return [];
  const inputs = await traceInputs(store, traces, group);
  const asked = inputs.map(contractAccounts);
  const accounts = asked.flatMap((a) => a.accounts);
  const stakeWallets = asked.flatMap((a) => a.stakeWallets);
  const contracts = {
    ...(await knownContracts(store, accounts, group)),
    jvaultStakeWallets: await jvaultStakeWallets(store, stakeWallets, group),
  };
  return inputs.map((input) => ({ traceId: input.traceId, ...classifyTrace(input, contracts) }));
}

/** A bytes value as an SQL literal of the dialect (`before` statements take no parameters). */
const bytesLiteral = (dialect: Dialect, value: Buffer): string =>
  dialect === 'sqlite' ? `X'${value.toString('hex')}'` : `'\\x${value.toString('hex')}'::bytea`;
const textLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * The statements that delete the actions (and their account rows, found by the accounts each action names) of
 * traces classified before, so their new classification replaces them. Their trace_classifications rows are
 * replaced by the new ones' upsert (action-rows.ts).
 */
export async function forgetActions(driver: SqlDriver, traceIds: readonly Buffer[]): Promise<string[]> {
  if (traceIds.length === 0) return [];
  const ids: SqlValue[] = [...traceIds];
  const accounts = new Set<string>();
  for (const row of await driver.all(`SELECT accounts FROM actions WHERE trace_id IN (${placeholders(ids)})`, ids)) {
    for (const account of JSON.parse(text(row.accounts)) as string[]) accounts.add(account);
  }
  const traces = traceIds.map((id) => bytesLiteral(driver.dialect, id)).join(', ');
  return [
    ...(accounts.size > 0
      ? [`DELETE FROM action_accounts WHERE account IN (${[...accounts].map(textLiteral).join(', ')}) AND trace_id IN (${traces})`]
      : []),
    `DELETE FROM actions WHERE trace_id IN (${traces})`,
  ];
}

/**
 * The rows of `fresh` (never classified) and `again` (classified before) traces, all complete, and the statements
 * (`before`, for driver.write) that delete what `again` had.
 */
export async function replacingBatches(
  driver: SqlDriver,
  fresh: readonly TraceRow[],
  again: readonly TraceRow[],
  group: GroupRows = NO_GROUP_ROWS,
): Promise<{ batches: InsertBatch[]; before: string[] }> {
  const classified = await classifyTraces(driver, [...fresh, ...again], group);
  const before = await forgetActions(
    driver,
    again.map((t) => Buffer.from(t.traceId, 'base64')),
  );
  return { batches: actionBatches(classified), before };
}
