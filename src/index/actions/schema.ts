/**
 * Migration 11: the actions of every complete trace, and what `?account=` reads them by.
 *
 *   actions                one row per action, keyed by (trace_id, action_id): the columns its filters and orders
 *                          read, `doc` = its answer as JSON text without `accounts` and `finality` (written once, at
 *                          classification), `accounts` = its accounts (JSON), `ancestors` = the types of the actions
 *                          it is part of as `,a,b,` (NULL: none; the version filter hides it from clients that know one)
 *   action_accounts        one row per (account, action), with the trace's and the action's ends: `?account=` is an
 *                          index range in the answer's order (ton-indexer's own table and index)
 *   trace_classifications  one row per classified trace: toncenter's classification_state (ok, broken, failed)
 * Orders: trace_end_lt or trace_end_utime, then trace_id, the action's end, action_id (ton-index-go's).
 *
 * An index that already holds blocks gets the back-fill's cursor row ('actions', '') in index_backfill_cursors
 * (migration 7's table, created here too if this store skipped it): backfill.ts classifies its complete traces in
 * trace_id order and deletes the row when done. Self-contained (it reads no other migration's table but
 * `blocks`), as every migration is: `migrate` applies the versions a store lacks in any order.
 */
import { types, type Migration } from '../sql/column-types.js';
import type { Dialect } from '../sql/driver.js';

export const ACTIONS_BACKFILL = 'actions';

/** The tables of this room, emptied when an index is wiped (rewind.ts, an import). */
export const ACTION_TABLES = ['actions', 'action_accounts', 'trace_classifications'] as const;

/** The three tables and their indexes. */
function tables(dialect: Dialect): string[] {
  const { bytes, int64 } = types(dialect);
  return [
    // Columns grouped by what they are: the key, the action's bounds, its trace's end, the rest.
    `CREATE TABLE IF NOT EXISTS actions (
        trace_id ${bytes} NOT NULL, action_id ${bytes} NOT NULL, type TEXT NOT NULL,
        start_lt ${int64} NOT NULL, end_lt ${int64} NOT NULL, start_utime ${int64} NOT NULL, end_utime ${int64} NOT NULL,
        trace_end_lt ${int64} NOT NULL, trace_end_utime ${int64} NOT NULL, trace_mc_seqno_end INTEGER NOT NULL,
        success INTEGER NOT NULL, ancestors TEXT, accounts TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (trace_id, action_id)
      )`,
    `CREATE INDEX IF NOT EXISTS actions_trace_end_lt ON actions (trace_end_lt, trace_id, end_lt, action_id)`,
    `CREATE INDEX IF NOT EXISTS actions_trace_end_utime ON actions (trace_end_utime, trace_id, end_utime, action_id)`,
    `CREATE INDEX IF NOT EXISTS actions_action_id ON actions (action_id)`,
    `CREATE INDEX IF NOT EXISTS actions_mc_seqno ON actions (trace_mc_seqno_end)`,
    `CREATE TABLE IF NOT EXISTS action_accounts (
        account TEXT NOT NULL, trace_id ${bytes} NOT NULL, action_id ${bytes} NOT NULL,
        trace_end_lt ${int64} NOT NULL, trace_end_utime ${int64} NOT NULL, action_end_lt ${int64} NOT NULL, action_end_utime ${int64} NOT NULL,
        PRIMARY KEY (account, trace_id, action_id)
      )`,
    `CREATE INDEX IF NOT EXISTS action_accounts_lt ON action_accounts (account, trace_end_lt, trace_id, action_end_lt, action_id)`,
    `CREATE INDEX IF NOT EXISTS action_accounts_utime ON action_accounts (account, trace_end_utime, trace_id, action_end_utime, action_id)`,
    `CREATE TABLE IF NOT EXISTS trace_classifications (trace_id ${bytes} PRIMARY KEY, state TEXT NOT NULL)`,
  ];
}

/** The back-fill's cursor row, for an index that already holds blocks. */
const BACKFILL_ROW = [
  `CREATE TABLE IF NOT EXISTS index_backfill_cursors (name TEXT PRIMARY KEY, after_key TEXT NOT NULL)`,
  `INSERT INTO index_backfill_cursors (name, after_key)
    SELECT '${ACTIONS_BACKFILL}', '' WHERE EXISTS (SELECT 1 FROM blocks)
    ON CONFLICT (name) DO NOTHING`,
];

export const ACTIONS_MIGRATION: Migration = {
  version: 11,
  name: 'actions: the classified actions of complete traces, their accounts, the traces classified',
  statements: (dialect) => [...tables(dialect), ...BACKFILL_ROW],
};
