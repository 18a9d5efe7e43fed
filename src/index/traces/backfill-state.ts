/**
 * Whether an index still owes its older transactions their traces (migration 3 left an `index_backfills` row):
 * asked at every open, apart from the back-fill itself, whose modules load only when there is work.
 */
import type { SqlDriver } from '../sql/driver.js';
import { int } from '../sql/values.js';

/** The masterchain seqno the trace back-fill goes on from, or undefined when there is nothing to do. */
export async function tracesBackfillFrom(driver: SqlDriver): Promise<number | undefined> {
  const [state] = await driver.all(`SELECT next_seqno FROM index_backfills WHERE name = 'traces'`);
  return state ? int(state.next_seqno) : undefined;
}
