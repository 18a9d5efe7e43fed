/**
 * Migration 6: what the offchain metadata fetcher (src/index/metadata-fetch) made of each token content `uri`.
 * Keyed by uri, not by contract: a collection's items each have their own, a jetton's may be shared by several
 * masters. `ok` 1: `json` holds the fetched object; 0: `failure_kind`/`error` say why it failed for good. A uri
 * with no row is pending. Self-contained (one table), so it merges with the other migrations in any order.
 */
import { types, type Migration } from '../sql/column-types.js';

export const TOKEN_METADATA_MIGRATION: Migration = {
  version: 6,
  name: 'tokens: fetched offchain metadata by uri',
  statements(dialect) {
    const { int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS token_metadata (
        uri TEXT PRIMARY KEY,
        ok INTEGER NOT NULL,
        json TEXT,
        failure_kind TEXT,
        error TEXT,
        fetched_at ${int64} NOT NULL
      )`,
    ];
  },
};
