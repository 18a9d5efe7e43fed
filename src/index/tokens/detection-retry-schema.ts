/**
 * Migration 17: the detections that failed (detection-retry.ts), kept so a restart goes on with them. Without it a
 * retry that waited was never run (its contract undetected until the account changed) and an account given up was
 * detected at its next change without its earlier traces classified again (no late find).
 *
 *   token_detection_failures   one row per account whose detection failed: `since`, the masterchain seqno of its first
 *                              failed state (its late find starts there); `seqno`, the state the retry asks at;
 *                              `failures` so far; `due_at`, the block the retry is due at (NULL: given up, remembered
 *                              for its next change only); `candidate`, what the retry asks (JSON: code and data hashes,
 *                              lt, get-methods; NULL when given up); `noted`, the order failures were noted in (the
 *                              oldest is forgotten first past the bound)
 * Written in the DB transaction of the block group that noted the failure, the retry's success, or the account met
 * again (the block committer's); read once at start. At most 10,000 waiting and 10,000 given up.
 */
import { types, type Migration } from '../sql/column-types.js';

export const DETECTION_FAILURES_MIGRATION: Migration = {
  version: 17,
  name: 'tokens: detections that failed, their retries and the accounts given up',
  statements(dialect) {
    return [
      `CREATE TABLE IF NOT EXISTS token_detection_failures (
        account TEXT PRIMARY KEY,
        since INTEGER NOT NULL,
        seqno INTEGER NOT NULL,
        failures INTEGER NOT NULL,
        due_at INTEGER,
        candidate TEXT,
        noted ${types(dialect).int64} NOT NULL
      )`,
    ];
  },
};

export const DETECTION_FAILURES_TABLE = 'token_detection_failures';
export const DETECTION_FAILURE_COLUMNS = ['account', 'since', 'seqno', 'failures', 'due_at', 'candidate', 'noted'] as const;
