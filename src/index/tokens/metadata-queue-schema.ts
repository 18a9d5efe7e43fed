/**
 * Migration 9: the offchain metadata fetch schedule, so that finding "uris to fetch now" is an index range scan
 * (O(uris due)) instead of reading every token content (O(contents)) each round.
 *
 * `token_metadata_queue` has one row per uri any token content ever named: `failures` so far, `next_attempt_at`
 * (ms; 0 for a new uri: due at once; NULL once fetched or failed for good: never due), `last_error` of the last
 * transient failure. The partial index on `next_attempt_at` holds only the uris still to fetch. Outcomes stay
 * in `token_metadata` (migration 6), which the API reads: while a uri waits for a retry it has no row there and
 * its tokens answer `is_indexed: false`.
 *
 * New rows come with the token rows whose content names them (metadata-store.ts `metadataQueueBatch`, in the
 * block's write). This migration enqueues the uris of the contents written before it; its SQL for the uri is
 * `offchainUriOf` (the content's `uri` trimmed, non-empty).
 *
 * Upgrade in place: every uri of the existing contents is enqueued; a uri with a stored outcome is not due,
 * except failures that were transient (a timeout, a reset connection, a 5xx...: stored for good before this
 * migration), which get one more attempt (failures 1, due at once). Existing `token_metadata` rows are kept as they are.
 * Its own file (one table, its index, the back-fill), idempotent (IF NOT EXISTS, ON CONFLICT DO NOTHING, UPDATEs
 * that give the same result twice). Not independent of the others: it needs migration 4's content tables
 * and 6's token_metadata, which come before it in MIGRATIONS (and which any index at version 6 has).
 */
import { types, type Migration } from '../sql/column-types.js';
import type { Dialect } from '../sql/driver.js';
import { PASSING } from '../metadata-fetch/errors.js';

/** The tables whose content names a uri, and their content column. */
const CONTENTS = [
  ['jetton_masters', 'jetton_content'],
  ['nft_collections', 'collection_content'],
  ['nft_items', 'content'],
] as const;

/**
 * Failures stored for good before migration 9 that the schedule now retries (fetch-json.ts's rules, read back
 * from the stored kind and message): timeouts, connection failures that may pass, 5xx, 429 and 408.
 */
const TRANSIENT = `(failure_kind = 'timeout'
  OR (failure_kind = 'network' AND (${[...PASSING].map((code) => `error LIKE '${code}:%'`).join(' OR ')}))
  OR (failure_kind = 'http-status' AND (error LIKE 'HTTP 5__' OR error IN ('HTTP 429', 'HTTP 408'))))`;

/** The trimmed `uri` of a JSON content column, as SQL (NULL when there is none). */
function uriSql(dialect: Dialect, content: string): string {
  return dialect === 'postgres' ? `NULLIF(TRIM((${content})::jsonb ->> 'uri'), '')` : `NULLIF(TRIM(json_extract(${content}, '$.uri')), '')`;
}

// A LIKE first spares parsing the (usually many) contents without a uri.
const hasUri = (content: string) => `${content} LIKE '%"uri"%'`;

/** The uris existing contents name, enqueued; those with a stored outcome set not due (or due once more). */
function backfill(dialect: Dialect): string[] {
  const uris = CONTENTS.map(([table, column]) => `SELECT ${uriSql(dialect, column)} AS uri FROM ${table} WHERE ${hasUri(column)}`).join(
    ' UNION ',
  );
  return [
    // The WHERE also keeps SQLite from reading ON CONFLICT as the FROM's join constraint.
    `INSERT INTO token_metadata_queue (uri, failures, next_attempt_at)
      SELECT uri, 0, 0 FROM (${uris}) u WHERE uri IS NOT NULL ON CONFLICT (uri) DO NOTHING`,
    `UPDATE token_metadata_queue SET next_attempt_at = NULL
      WHERE uri IN (SELECT uri FROM token_metadata WHERE NOT COALESCE(ok = 0 AND ${TRANSIENT}, false))`,
    `UPDATE token_metadata_queue SET failures = 1, last_error = (SELECT error FROM token_metadata m WHERE m.uri = token_metadata_queue.uri)
      WHERE uri IN (SELECT uri FROM token_metadata WHERE ok = 0 AND ${TRANSIENT})`,
  ];
}

export const TOKEN_METADATA_QUEUE_MIGRATION: Migration = {
  version: 9,
  name: 'tokens: offchain metadata fetch schedule by uri',
  statements(dialect) {
    const { int64 } = types(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS token_metadata_queue (
        uri TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        next_attempt_at ${int64},
        last_error TEXT
      )`,
      `CREATE INDEX IF NOT EXISTS token_metadata_queue_due ON token_metadata_queue (next_attempt_at) WHERE next_attempt_at IS NOT NULL`,
      ...backfill(dialect),
    ];
  },
};
