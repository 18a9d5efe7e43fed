/**
 * The traces migration: a `traces` table, a `trace_id` column on transactions and messages, and the
 * back-fill marker. Self-contained (it touches no other migration's tables but by adding columns), so
 * it merges with other migrations whatever their order; `migrate` applies each version a store lacks.
 *
 *   traces            one row per trace, keyed by the hash of its root transaction; the counters are
 *                     toncenter's: transactions = nodes, messages = completed edges (the root's inbound
 *                     message and every external-out "log" included), pending_messages = internal
 *                     messages sent but not yet received
 *   index_backfills   work a migration left to do on rows written before it: ('traces', next mc seqno).
 *                     The migration inserts the row only when the index already holds blocks; the
 *                     back-fill (backfill.ts) deletes it when done.
 * Orders /traces needs: end_lt and end_utime (each with trace_id as the tie-break), mc_seqno_end; a
 * trace's transactions by trace_id.
 */
import { addColumn, types, type Migration } from '../sql/column-types.js';

export const TRACES_MIGRATION: Migration = {
  version: 3,
  name: 'traces: trace_id on transactions and messages, the traces table',
  statements(dialect) {
    const { bytes, int64 } = types(dialect);
    return [
      addColumn(dialect, 'transactions', 'trace_id', bytes),
      addColumn(dialect, 'messages', 'trace_id', bytes),
      `CREATE INDEX IF NOT EXISTS transactions_trace_id ON transactions (trace_id)`,
      `CREATE TABLE IF NOT EXISTS traces (
        trace_id ${bytes} PRIMARY KEY,
        external_hash ${bytes},
        external_hash_norm ${bytes},
        mc_seqno_start INTEGER NOT NULL,
        mc_seqno_end INTEGER NOT NULL,
        start_lt ${int64} NOT NULL,
        start_utime ${int64} NOT NULL,
        end_lt ${int64} NOT NULL,
        end_utime ${int64} NOT NULL,
        state TEXT NOT NULL,
        transactions INTEGER NOT NULL,
        messages INTEGER NOT NULL,
        pending_messages INTEGER NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS traces_end_lt ON traces (end_lt, trace_id)`,
      `CREATE INDEX IF NOT EXISTS traces_end_utime ON traces (end_utime, trace_id)`,
      `CREATE INDEX IF NOT EXISTS traces_mc_seqno_end ON traces (mc_seqno_end)`,
      `CREATE TABLE IF NOT EXISTS index_backfills (name TEXT PRIMARY KEY, next_seqno INTEGER NOT NULL)`,
      `INSERT INTO index_backfills (name, next_seqno)
        SELECT 'traces', MIN(seqno) FROM blocks WHERE workchain = -1 HAVING COUNT(*) > 0
        ON CONFLICT (name) DO NOTHING`,
    ];
  },
};
