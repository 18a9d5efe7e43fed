/**
 * The index of one served network, opened and following its chain: what `tongate start` runs per
 * network. Its reader goes into the network's context (NetworkContext.index) for the v3 endpoints.
 */
import { attachIndexToChain, type IndexAttachment, type IndexLogger } from './attach.js';
import type { IndexFeed } from './feed.js';
import { defaultSchema, openServedIndex, type ServedIndex } from './open-index.js';
import { catchUpProgress, type CatchUpProgressOptions } from './catch-up-progress.js';
import type { ClaimKind, SchemaClaim } from './sql/schema-claim.js';
import { SqliteReaderPool } from './worker/reader-pool.js';
import type { MetadataFetchQueue, QueueLogger } from './metadata-fetch/queue.js';
import type { MetadataFetchOptions } from './metadata-fetch/start.js';

/** The index's logger as the fetch loop's (its failures are warnings; per-uri failures are not logged). */
function queueLogger(logger: IndexLogger | undefined): QueueLogger | undefined {
  return logger?.warn ? { warn: (object, message) => logger.warn!(object, message) } : undefined;
}

export interface RunIndexOptions {
  network: string;
  chain: IndexFeed;
  /** The data directory (SQLite file `<dataDir>/<network>/index.sqlite`); absent: a temporary file. */
  dataDir?: string;
  /** PostgreSQL instead of SQLite (schema `tongate_<network>`), for a chain that outlives the process. */
  databaseUrl?: string;
  /** Another PostgreSQL schema (tests). */
  schema?: string;
  /**
   * The chain starts from its zero state on every run and lives only in this process (--ephemeral): so
   * does its index, a temporary SQLite file, even with a database URL. A shared schema would be shared
   * by instances that each run a chain of their own, and no two of those chains are the same.
   */
  ephemeral?: boolean;
  /** A read's time budget (--query-timeout; default 2000 ms). */
  queryTimeoutMs?: number;
  logger?: IndexLogger;
  /** An empty index starts at this masterchain seqno (a real network's: where tongate starts, or --index-from). */
  startAt?: number;
  /** The index threads' nice value (attach.ts). */
  threadNice?: number;
  /** `--fetch-metadata` and its options: tokens' offchain metadata fetched in the background (metadata-fetch/). Absent: off. */
  metadataFetch?: MetadataFetchOptions;
  /** The network's DNS root collections, raw addresses (src/index/dns). */
  dnsRoots?: string[];
  /**
   * What writes this index, for a shared PostgreSQL schema (sql/schema-claim.ts): a local chain holds it alone, lite
   * networks share it. Absent: no claim (tests, tools).
   */
  claim?: ClaimKind;
  /**
   * Reports a catch-up of more than a block (a back-fill, a rebuilt index) through `logger.info` every few seconds,
   * with a bar on `bar` (catch-up-progress.ts). Absent: silent.
   */
  progress?: Pick<CatchUpProgressOptions, 'clock' | 'intervalMs' | 'bar'>;
}

export interface RunningIndex {
  index: ServedIndex;
  attachment: IndexAttachment;
  /** Stops following the chain and closes the store. Call it before stopping the chain. */
  close(): Promise<void>;
}

export async function runIndex(options: RunIndexOptions): Promise<RunningIndex> {
  // Before the schema is even migrated: an instance that may not write it touches nothing.
  const claim =
    options.claim && options.databaseUrl && !options.ephemeral
      ? // pg is loaded only for an index in PostgreSQL.
        await (
          await import('./sql/schema-claim.js')
        ).claimSchema({
          databaseUrl: options.databaseUrl,
          schema: options.schema ?? defaultSchema(options.network),
          network: options.network,
          kind: options.claim,
        })
      : undefined;
  try {
    return await openAndAttach(options, claim);
  } catch (error) {
    await claim?.release();
    throw error;
  }
}

async function openAndAttach(options: RunIndexOptions, claim: SchemaClaim | undefined): Promise<RunningIndex> {
  const index = await openServedIndex(
    options.ephemeral
      ? { network: options.network, queryTimeoutMs: options.queryTimeoutMs }
      : {
          network: options.network,
          dataDir: options.dataDir,
          databaseUrl: options.databaseUrl,
          schema: options.schema,
          queryTimeoutMs: options.queryTimeoutMs,
          logger: options.logger,
        },
  );
  if (index.discarded) {
    options.logger?.warn?.(
      { network: options.network },
      'the index was open when the machine went down (a crash or power loss, possibly mid-write): it was discarded and is being rebuilt from the chain',
    );
  }
  // The reader threads load while the chain starts, not while requests wait.
  if (index.reads instanceof SqliteReaderPool) index.reads.warm().catch(() => {});
  let attachment: IndexAttachment;
  // Started once attached (its writes go through the attachment's store thread); woken by every committed
  // block, which may have stored token contents with a new uri (it polls anyway).
  let fetching: MetadataFetchQueue | undefined;
  try {
    const logger = options.logger;
    let reportCatchUp: ((seqno: number) => void) | undefined;
    if (options.progress && logger?.info) {
      const last = await index.reader.lastMasterchainSeqno();
      reportCatchUp = catchUpProgress({
        ...options.progress,
        network: options.network,
        from: last >= 0 ? last : (options.startAt ?? 0) - 1,
        head: () => options.chain.masterchainInfo().last.id.seqno,
        log: { info: (fields, message) => logger.info!(fields, message) },
      });
    }
    attachment = await attachIndexToChain(index, options.chain, {
      logger: options.logger,
      startAt: options.startAt,
      threadNice: options.threadNice,
      onIndexed: (seqno) => {
        fetching?.wake();
        reportCatchUp?.(seqno);
      },
      dnsRoots: options.dnsRoots,
    });
  } catch (error) {
    await index.close();
    throw error;
  }
  if (options.metadataFetch?.enabled) {
    // The fetcher (and undici) is loaded only when metadata is fetched.
    const [{ tokenMetadataSink }, { startMetadataFetching }] = await Promise.all([
      import('./tokens/metadata-store.js'),
      import('./metadata-fetch/start.js'),
    ]);
    const sink = tokenMetadataSink(index.store, index.reads, (rows) => attachment.writeRows(rows));
    fetching = startMetadataFetching(options.metadataFetch, sink, queueLogger(options.logger));
  }
  let closing: Promise<void> | undefined;
  return {
    index,
    attachment,
    close: () =>
      (closing ??= (async () => {
        // Before detaching: nothing is stored after stop() resolves, and the store thread is still there for what is.
        await fetching?.stop();
        await attachment.detach();
        await index.close();
        await claim?.release();
      })()),
  };
}
