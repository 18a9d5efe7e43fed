/**
 * The token index's side of the offchain metadata seam (src/index/metadata-fetch/README.md): the
 * `token_metadata` table as the fetcher's `MetadataSink`, and the lookup the v3 `metadata` answers make.
 *
 * Reads go through the index's reads (SQLite: the reader threads; PostgreSQL: the pool). Writes go through
 * `writeRows`, which a running index sends to its store thread (attach.ts): on SQLite the main thread has no
 * connection that may write while the store thread commits blocks without blocking the HTTP thread on the lock.
 */
import type { FetchOutcome, MetadataSink } from '../metadata-fetch/queue.js';
import { offchainUriOf, type OffchainContent } from '../metadata-fetch/token-info.js';
import type { Dialect, InsertBatch, SqlReads } from '../sql/driver.js';

const COLUMNS = ['uri', 'ok', 'json', 'failure_kind', 'error', 'fetched_at'] as const;
const UPSERT = `ON CONFLICT (uri) DO UPDATE SET ok = excluded.ok, json = excluded.json, failure_kind = excluded.failure_kind,
  error = excluded.error, fetched_at = excluded.fetched_at`;
const LOOKUP_CHUNK = 500;

/** The content's `uri` as SQL, trimmed (offchainUriOf trims too). Content columns hold TEP-64 content as JSON text. */
function uriOf(dialect: Dialect, column: string): string {
  return dialect === 'postgres' ? `TRIM((${column})::jsonb ->> 'uri')` : `TRIM(json_extract(${column}, '$.uri'))`;
}

/** The row storing one outcome. */
export function metadataRow(uri: string, outcome: FetchOutcome, now: number): InsertBatch {
  const row = outcome.ok ? [uri, 1, JSON.stringify(outcome.json), null, null, now] : [uri, 0, null, outcome.kind, outcome.error, now];
  return { table: 'token_metadata', columns: COLUMNS, rows: [row], conflict: UPSERT };
}

export function tokenMetadataSink(dialect: Dialect, reads: SqlReads, writeRows: (batches: InsertBatch[]) => Promise<void>, now: () => number = Date.now): MetadataSink {
  // Content that is not JSON cannot be in these columns (content.ts writes JSON); a LIKE first spares
  // json parsing of the (usually many) onchain contents.
  const source = (table: string, column: string) =>
    `SELECT ${uriOf(dialect, column)} AS uri FROM ${table} WHERE ${column} LIKE '%"uri"%'`;
  const pending = `SELECT DISTINCT u.uri FROM (${source('jetton_masters', 'jetton_content')} UNION ALL ${source('nft_collections', 'collection_content')}
    UNION ALL ${source('nft_items', 'content')}) u
    WHERE u.uri IS NOT NULL AND u.uri <> '' AND NOT EXISTS (SELECT 1 FROM token_metadata m WHERE m.uri = u.uri) LIMIT ?`;
  return {
    async pendingUris(limit) {
      return (await reads.all(pending, [limit])).map((row) => String(row.uri));
    },
    storeFetched: (uri, outcome) => writeRows([metadataRow(uri, outcome, now())]),
  };
}

/** What became of each content's uri, for the `metadata` answers: absent (no uri), pending, fetched or failed. */
export async function offchainStates(reads: SqlReads, contents: readonly Record<string, string>[]): Promise<OffchainContent[]> {
  const uris = contents.map(offchainUriOf);
  const wanted = [...new Set(uris.filter((u): u is string => u !== undefined))];
  const stored = new Map<string, OffchainContent>();
  for (let start = 0; start < wanted.length; start += LOOKUP_CHUNK) {
    const chunk = wanted.slice(start, start + LOOKUP_CHUNK);
    const rows = await reads.all(`SELECT uri, ok, json FROM token_metadata WHERE uri IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const row of rows) {
      stored.set(String(row.uri), Number(row.ok) === 1 ? { state: 'fetched', json: JSON.parse(String(row.json)) as Record<string, unknown> } : { state: 'failed' });
    }
  }
  return uris.map((uri) => (uri === undefined ? { state: 'absent' } : (stored.get(uri) ?? { state: 'pending' })));
}
