/**
 * For the tests of the fetch schedule on a real index: token rows whose content names a uri, a sink that says
 * when the loop has caught up, and the loop as `runIndex` starts it (startMetadataFetching) on a manual clock.
 */
import { masterBatch } from '../../../../src/index/tokens/token-rows.js';
import type { Index } from '../../../../src/index/open-index.js';
import { metadataQueueBatch, tokenMetadataSink } from '../../../../src/index/tokens/metadata-store.js';
import { startMetadataFetching } from '../../../../src/index/metadata-fetch/start.js';
import type { DueUri, FetchOutcome, MetadataFetchQueue, MetadataSink, RetryLater } from '../../../../src/index/metadata-fetch/queue.js';
import type { ManualClock } from '../../../../src/util/clock.js';
import type { InsertBatch, SqlDriver } from '../../../../src/index/sql/driver.js';

/** A raw address of the test's own, n-th. */
export const addressN = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;

/** A jetton master row (the values the API needs) whose TEP-64 content is `{uri}`, and its uri enqueued, as detector.ts writes them. */
export function masterWithUri(n: number, uri: string, lt = BigInt(n)): InsertBatch[] {
  const master = masterBatch([
    {
      address: addressN(n),
      totalSupply: 5n,
      mintable: true,
      admin: null,
      content: { uri },
      walletCodeHash: Buffer.alloc(32, 1),
      lastTxLt: lt,
      codeHash: Buffer.alloc(32, 2),
      dataHash: Buffer.alloc(32, 3),
    },
  ]);
  const queued = metadataQueueBatch([{ uri }]);
  return queued ? [master, queued] : [master];
}

/**
 * The index's sink, watched: `settle()` wakes the loop and resolves once it listed nothing due (everything due at
 * the clock's time has been fetched and stored), so a test can tell "not tried" from "not tried yet".
 */
export class WatchedSink implements MetadataSink {
  private lists = 0;
  private emptyAfter = -1;
  private waiters: Array<() => void> = [];

  constructor(private readonly inner: MetadataSink) {}

  async dueUris(limit: number, now: number): Promise<DueUri[]> {
    const call = ++this.lists;
    const due = await this.inner.dueUris(limit, now);
    if (due.length === 0) {
      this.emptyAfter = call;
      for (const wake of this.waiters.splice(0)) wake();
    }
    return due;
  }

  storeFetched(uri: string, outcome: FetchOutcome): Promise<void> {
    return this.inner.storeFetched(uri, outcome);
  }

  storeRetry(uri: string, retry: RetryLater): Promise<void> {
    return this.inner.storeRetry(uri, retry);
  }

  async settle(queue: MetadataFetchQueue): Promise<void> {
    const after = this.lists;
    queue.wake();
    while (this.emptyAfter <= after) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

/** The loop over `index`, as runIndex starts it, on `clock`; fetching from 127.0.0.1 only. */
export function startLoop(index: Index, clock: ManualClock): { queue: MetadataFetchQueue; sink: WatchedSink } {
  const sink = new WatchedSink(
    tokenMetadataSink(
      index.store,
      index.reads,
      (rows) => index.writer.writeRows(rows),
      () => clock.now(),
    ),
  );
  const config = { enabled: true, allowPrivate: false, timeoutMs: 2000, maxBytes: 65536, concurrency: 4 };
  const queue = startMetadataFetching(config, sink, undefined, { clock, exemptAddresses: ['127.0.0.1'], idleMs: 3_600_000 })!;
  return { queue, sink };
}

/** The schedule row of `uri`. */
export async function queueRow(
  driver: Pick<SqlDriver, 'all'>,
  uri: string,
): Promise<{ failures: number; next: number | null } | undefined> {
  const [row] = await driver.all('SELECT failures, next_attempt_at FROM token_metadata_queue WHERE uri = ?', [uri]);
  return row && { failures: Number(row.failures), next: row.next_attempt_at === null ? null : Number(row.next_attempt_at) };
}
