/**
 * The token index's side of the offchain metadata seam (src/index/metadata-fetch/README.md): the tables
 * `token_metadata` (outcomes, migration 6) and `token_metadata_queue` (the schedule, migration 9) as the fetcher's
 * `MetadataSink`, the batch that enqueues the uris of written contents, and the lookup the v3 `metadata` makes.
 *
 * Reads go through the index's reads (SQLite: the reader threads; PostgreSQL: the pool). Writes go through
 * `writeRows`, which a running index sends to its store thread (attach.ts): on SQLite the main thread has no
 * connection that may write while the store thread commits blocks without blocking the HTTP thread on the lock.
 */
import type { FetchOutcome, MetadataSink, RetryLater } from '../metadata-fetch/queue.js';
import { offchainUriOf, type OffchainContent } from '../metadata-fetch/token-info.js';
import type { Dialect, InsertBatch, SqlReads } from '../sql/driver.js';

const COLUMNS = ['uri', 'ok', 'json', 'failure_kind', 'error', 'fetched_at'] as const;
const UPSERT = `ON CONFLICT (uri) DO UPDATE SET ok = excluded.ok, json = excluded.json, failure_kind = excluded.failure_kind,
  error = excluded.error, fetched_at = excluded.fetched_at`;
const QUEUE_COLUMNS = ['uri', 'failures', 'next_attempt_at', 'last_error'] as const;
const QUEUE_UPSERT = `ON CONFLICT (uri) DO UPDATE SET failures = excluded.failures, next_attempt_at = excluded.next_attempt_at,
  last_error = excluded.last_error`;
const LOOKUP_CHUNK = 500;

/**
 * PostgreSQL, several instances on one index: how long a claimed uri is not listed to another instance. Longer
 * than a batch can take (32 uris, 2 at a time per host, 10 s each: under 3 min); an instance that dies
 * mid-batch leaves its uris to the others after it.
 */
export const CLAIM_LEASE_MS = 600_000;

/**
 * The uris of token contents just written, enqueued for the fetcher (due at once) unless already known: part of the
 * block's own write (detector.ts), so a uri is in the schedule as soon as its content is. Written whether or not
 * `--fetch-metadata` is on, so turning it on later finds them. (Row triggers did this first: on SQLite even an
 * empty one made the item upsert 2-4x slower; this batch costs about 1.2x, bench:metadata-queue.)
 */
export function metadataQueueBatch(contents: Iterable<Record<string, string> | null>): InsertBatch | undefined {
  const uris = new Set<string>();
  for (const content of contents) {
    const uri = content ? offchainUriOf(content) : undefined;
    if (uri !== undefined) uris.add(uri);
  }
  if (uris.size === 0) return undefined;
  return {
    table: 'token_metadata_queue',
    columns: ['uri', 'failures', 'next_attempt_at'],
    rows: [...uris].map((uri) => [uri, 0, 0]),
    conflict: 'ON CONFLICT (uri) DO NOTHING',
  };
}

/** The rows storing one outcome for good: the outcome, and the uri no longer due. */
export function metadataRows(uri: string, outcome: FetchOutcome, now: number): InsertBatch[] {
  const row = outcome.ok ? [uri, 1, JSON.stringify(outcome.json), null, null, now] : [uri, 0, null, outcome.kind, outcome.error, now];
  return [
    { table: 'token_metadata', columns: COLUMNS, rows: [row], conflict: UPSERT },
    { table: 'token_metadata_queue', columns: QUEUE_COLUMNS, rows: [[uri, 0, null, null]], conflict: QUEUE_UPSERT },
  ];
}

/** The row scheduling the next attempt at a uri that failed for now. */
export function retryRow(uri: string, retry: RetryLater): InsertBatch {
  return {
    table: 'token_metadata_queue',
    columns: QUEUE_COLUMNS,
    rows: [[uri, retry.failures, retry.at, `${retry.kind}: ${retry.error}`]],
    conflict: QUEUE_UPSERT,
  };
}

/**
 * The due uris: a range scan of the partial index `token_metadata_queue_due` (migration 9), oldest due first.
 * SQLite: one tongate process writes the file, and its loop lists again only once the last batch is stored,
 * so a plain read on a reader thread suffices. PostgreSQL: instances sharing the index must not fetch one uri
 * together, so the listing claims what it lists (next_attempt_at moved a lease ahead) in one statement;
 * SKIP LOCKED gives two claims at once disjoint rows instead of making one wait for the other.
 */
function dueQuery(dialect: Dialect): string {
  const due = 'SELECT uri FROM token_metadata_queue WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?';
  if (dialect === 'sqlite') return due.replace('SELECT uri', 'SELECT uri, failures');
  return `UPDATE token_metadata_queue q SET next_attempt_at = ? WHERE q.uri IN (${due} FOR UPDATE SKIP LOCKED) RETURNING q.uri, q.failures`;
}

export function tokenMetadataSink(
  dialect: Dialect,
  reads: SqlReads,
  writeRows: (batches: InsertBatch[]) => Promise<void>,
  now: () => number = Date.now,
): MetadataSink {
  const query = dueQuery(dialect);
  return {
    async dueUris(limit, at) {
      // PostgreSQL's reads are the pool, which may write: the claim is one autocommitted statement.
      const params = dialect === 'sqlite' ? [at, limit] : [at + CLAIM_LEASE_MS, at, limit];
      return (await reads.all(query, params)).map((row) => ({ uri: String(row.uri), failures: Number(row.failures) }));
    },
    storeFetched: (uri, outcome) => writeRows(metadataRows(uri, outcome, now())),
    storeRetry: (uri, retry) => writeRows([retryRow(uri, retry)]),
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
      stored.set(
        String(row.uri),
        Number(row.ok) === 1 ? { state: 'fetched', json: JSON.parse(String(row.json)) as Record<string, unknown> } : { state: 'failed' },
      );
    }
  }
  return uris.map((uri) => (uri === undefined ? { state: 'absent' } : (stored.get(uri) ?? { state: 'pending' })));
}
