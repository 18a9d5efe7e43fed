/**
 * Migration 14: the classifier's version of each classified trace (classifier-version.ts). The traces classified
 * before it was kept are version 1, so a tongate whose classifier is newer classifies them again (backfill.ts).
 * Self-contained as every migration is: it creates `trace_classifications` as migration 11 does when this store
 * has not got it yet (migration 11's own CREATE is IF NOT EXISTS).
 */
import { addColumn, types, type Migration } from '../sql/column-types.js';

export const CLASSIFIER_VERSION_MIGRATION: Migration = {
  version: 14,
  name: "actions: the classifier's version of each classified trace",
  statements: (dialect) => [
    `CREATE TABLE IF NOT EXISTS trace_classifications (trace_id ${types(dialect).bytes} PRIMARY KEY, state TEXT NOT NULL)`,
    addColumn(dialect, 'trace_classifications', 'classifier_version', 'INTEGER NOT NULL DEFAULT 1'),
    'CREATE INDEX IF NOT EXISTS trace_classifications_version ON trace_classifications (classifier_version)',
  ],
};
