/**
 * Migration 10: the account index of transactions carries trace_id, (account, lt) becomes (account, lt, trace_id).
 *
 * Why: /traces?account=X finds X's traces as `trace_id IN (SELECT trace_id FROM transactions WHERE account = X)`.
 * With (account, lt) alone every one of X's transactions costs a read of its table row (a random page, ~1.4 KB
 * of document beside the 32 bytes wanted); with trace_id in the index the lookup reads index pages only
 * (SQLite: a covering index; PostgreSQL: an index-only scan). The new index replaces the old one instead of
 * sitting beside it: (account, lt) is its prefix, so /transactions?account= uses it as before, and each insert
 * still updates one account index (ingestion is the index's tightest figure).
 *
 * Idempotent (IF NOT EXISTS / IF EXISTS) and in one transaction with its record: a store from before upgrades
 * in place at open (the index is built from the table: measured in README.md), a new store builds it empty.
 */
import type { Migration } from '../sql/column-types.js';

export const ACCOUNT_TRACE_INDEX_MIGRATION: Migration = {
  version: 10,
  name: 'traces: the account index of transactions carries trace_id (account, lt, trace_id)',
  statements() {
    return [
      `CREATE INDEX IF NOT EXISTS transactions_account_lt_trace ON transactions (account, lt, trace_id)`,
      `DROP INDEX IF EXISTS transactions_account_lt`,
    ];
  },
};
