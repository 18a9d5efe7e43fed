/**
 * Migration 16: the late finds still to walk (late-finds.ts). A contract token detection found late has the stored
 * traces of its account from the failed block on classified again, a bounded share per group; what is left waits
 * here, written in the DB transaction of the group that found it (or walked part of it), so a restart resumes the
 * walk instead of leaving those traces with the actions they had. The token back-fill writes the finds it makes
 * here too (../tokens/backfill.ts).
 *
 *   late_finds   one row per (account, masterchain seqno of the state whose detection failed); `from_lt`: where the
 *                walk of the account's transactions goes on (NULL: from the first lt of that block)
 */
import { types, type Migration } from '../sql/column-types.js';
import type { InsertBatch } from '../sql/driver.js';

export const LATE_FINDS_TABLE = 'late_finds';

export const LATE_FINDS_MIGRATION: Migration = {
  version: 16,
  name: 'actions: late finds whose traces are still to be classified again',
  statements(dialect) {
    return [
      `CREATE TABLE IF NOT EXISTS late_finds (
        account TEXT NOT NULL,
        since INTEGER NOT NULL,
        from_lt ${types(dialect).int64},
        PRIMARY KEY (account, since)
      )`,
    ];
  },
};

/** A late find (the account, and the masterchain seqno of the state whose detection failed), as the detector reports it. */
export interface LateFindKey {
  account: string;
  since: number;
}

/** The rows of `late_finds` (the token back-fill's finds), walked from their start. */
export function lateFindBatch(finds: readonly LateFindKey[]): InsertBatch {
  return {
    table: LATE_FINDS_TABLE,
    columns: ['account', 'since', 'from_lt'],
    rows: finds.map((f) => [f.account, f.since, null]),
    // The same find again: its walk, wherever it is, still covers every trace from its block on.
    conflict: 'ON CONFLICT (account, since) DO NOTHING',
  };
}
