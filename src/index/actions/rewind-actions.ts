/**
 * A devnet snapshot restore (../rewind.ts) and the actions: a trace that ended after the restored block either
 * started after it (deleted) or goes back to pending (its later transactions dropped); either way it has no
 * actions any more and is no longer classified. Its actions, their account rows and its classification are
 * deleted in the rewind's DB transaction; when it completes again it is classified again. So are the late finds
 * (late-finds.ts) of blocks after the restored one.
 *
 * The traces are found before the rewind rewrites them (their ends change), and named in scratch tables, so the
 * deletes go by key: action_accounts by account (its primary key's prefix) and trace.
 */
import { types } from '../sql/column-types.js';
import type { InsertBatch, SqlDriver, SqlValue } from '../sql/driver.js';
import { placeholders } from '../sql/where.js';
import { bytes, text } from '../sql/values.js';

export interface RewoundActions {
  batches: InsertBatch[];
  before: string[];
  after: string[];
}

const CHUNK = 500;

export async function rewoundActions(driver: SqlDriver, seqno: number): Promise<RewoundActions> {
  const traces = (await driver.all('SELECT trace_id FROM traces WHERE mc_seqno_end > ?', [seqno])).map((r) => bytes(r.trace_id));
  const accounts = new Set<string>();
  for (let i = 0; i < traces.length; i += CHUNK) {
    const chunk: SqlValue[] = traces.slice(i, i + CHUNK);
    for (const row of await driver.all(`SELECT accounts FROM actions WHERE trace_id IN (${placeholders(chunk)})`, chunk)) {
      for (const account of JSON.parse(text(row.accounts)) as string[]) accounts.add(account);
    }
  }
  const { bytes: bytesType } = types(driver.dialect);
  return {
    batches: [
      { table: 'rewind_traces', columns: ['trace_id'], rows: traces.map((t) => [t]), conflict: 'ON CONFLICT (trace_id) DO NOTHING' },
      {
        table: 'rewind_action_accounts',
        columns: ['account'],
        rows: [...accounts].map((a) => [a]),
        conflict: 'ON CONFLICT (account) DO NOTHING',
      },
    ],
    before: [
      `CREATE TABLE IF NOT EXISTS rewind_traces (trace_id ${bytesType} PRIMARY KEY)`,
      'CREATE TABLE IF NOT EXISTS rewind_action_accounts (account TEXT PRIMARY KEY)',
      'DELETE FROM rewind_traces',
      'DELETE FROM rewind_action_accounts',
    ],
    after: [
      'DELETE FROM action_accounts WHERE account IN (SELECT account FROM rewind_action_accounts) AND trace_id IN (SELECT trace_id FROM rewind_traces)',
      'DELETE FROM actions WHERE trace_id IN (SELECT trace_id FROM rewind_traces)',
      'DELETE FROM trace_classifications WHERE trace_id IN (SELECT trace_id FROM rewind_traces)',
      // A late find of a block the restore took away has nothing left to walk (late-finds.ts).
      `DELETE FROM late_finds WHERE since > ${Math.trunc(seqno)}`,
      // Emptied, not dropped (as ../rewind.ts's own scratch tables).
      'DELETE FROM rewind_traces',
      'DELETE FROM rewind_action_accounts',
    ],
  };
}
