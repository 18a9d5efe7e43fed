/**
 * Opens the v3 index of one network: PostgreSQL when a database URL is given (schema
 * `tongate_<network>`, shared by every instance pointed at that database), otherwise SQLite at
 * `<dataDir>/<network>/index.sqlite`. Without a data dir (ephemeral runs) the SQLite file lives in a
 * temporary directory removed on close: a file, not memory, because the index's store thread opens
 * its own connection to it. A data-dir SQLite file is written without fsync under a power-loss guard
 * (sql/power-loss-guard.ts): one left open by an earlier boot of the machine is discarded and rebuilt.
 *
 * The reader's queries never run on the calling thread for SQLite: they go to reader threads
 * (worker/reader-pool.ts). PostgreSQL's run in the server. Either way a read past `queryTimeoutMs`
 * fails with QueryTimeoutError. This thread's own connection migrates and serves `writer`.
 *
 * `openIndex` gives a writer in this thread (tests, tools, `attach` with `thread: 'main'`); `openServedIndex` none: a
 * server's blocks are written by the index's own threads, and the writer's modules (the action classifier, the
 * token detection, ~75 of them) are not loaded on the thread that serves HTTP while v3 waits for its index. The
 * trace back-fill and the rewind load their modules only when they have work.
 */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../ton/core-speedups.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { IndexReader } from './reader.js';
import { migrate } from './schema.js';
import { tracesBackfillFrom } from './traces/backfill-state.js';
import type { BackfillLogger } from './traces/backfill.js';
import { DEFAULT_QUERY_TIMEOUT_MS, type SqlDriver, type SqlReads } from './sql/driver.js';
import { assertSchemaName } from './sql/postgres-names.js';
import { guardSqliteFile, type Synchronous } from './sql/power-loss-guard.js';
import { SqliteDriver } from './sql/sqlite-driver.js';
import { SqliteReaderPool } from './worker/reader-pool.js';
import type { IndexWriter } from './writer.js';
import type { IndexRewind } from './types.js';
import type { GetMethodRunner } from './tokens/get-methods.js';

export interface IndexOptions {
  network: string;
  /** The data directory; the index file is `<dataDir>/<network>/index.sqlite`. Absent: in memory. */
  dataDir?: string;
  /** A PostgreSQL URL: the index lives there instead of SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema; default `tongate_<network>` (tests use their own per run). */
  schema?: string;
  /** A read's time budget (default 2000 ms): past it the read fails with QueryTimeoutError. */
  queryTimeoutMs?: number;
  /** SQLite: most reader threads (default 2). */
  readers?: number;
  /** Where the trace back-fill of an index written before traces reports its progress. */
  logger?: BackfillLogger;
  /** Transactions of late-found contracts walked per group by `writer` (actions/late-finds.ts; default 500, a test makes it small). */
  lateFindsPerGroup?: number;
}

/** Where an index lives: what a second connection (the store thread's) needs to open it. */
export type IndexLocation =
  { kind: 'sqlite'; file: string; synchronous: Synchronous } | { kind: 'postgres'; databaseUrl: string; schema: string };

/** An index whose blocks are written elsewhere (the index's threads: attach.ts). */
export interface ServedIndex {
  readonly network: string;
  readonly store: 'sqlite' | 'postgres';
  readonly location: IndexLocation;
  readonly reader: IndexReader;
  /** What `reader` reads through: SQLite's reader threads (SqliteReaderPool), or the PostgreSQL pool. */
  readonly reads: SqlReads;
  /** True when the SQLite file was left open by an earlier boot of the machine and was discarded, to be rebuilt. */
  readonly discarded: boolean;
  /**
   * Deletes what came after masterchain block `seqno` (its chain was put back there: rewind.ts); an Index's `writer`
   * reads its failed detections back from the store. Call it while nothing writes.
   */
  rewind(rewind: IndexRewind, runner?: GetMethodRunner, dnsRoots?: readonly string[]): Promise<boolean>;
  close(): Promise<void>;
}

/** An index with a writer in this thread. */
export interface Index extends ServedIndex {
  readonly writer: IndexWriter;
}

/** `tongate_<network>`, with characters a schema name cannot hold replaced by `_`. */
export function defaultSchema(network: string): string {
  return assertSchemaName(`tongate_${network.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`);
}

/** An index with its writer in this thread (tests, tools, `attach` with `thread: 'main'`). */
export async function openIndex(options: IndexOptions): Promise<Index> {
  const { index, driver } = await openStore(options);
  try {
    const { IndexWriter } = await import('./writer.js');
    const writer = new IndexWriter(driver, options.lateFindsPerGroup);
    return {
      ...index,
      writer,
      // This thread's writer forgets what it held of the later blocks (its failed detections); a store thread's is
      // told by attach.ts.
      rewind: (r, runner, dnsRoots) =>
        index.rewind(r, runner, dnsRoots).then((rewound) => {
          writer.rewound();
          return rewound;
        }),
    };
  } catch (error) {
    await index.close();
    throw error;
  }
}

/** An index whose blocks the index's threads write (`tongate start`: run-index.ts). */
export async function openServedIndex(options: IndexOptions): Promise<ServedIndex> {
  return (await openStore(options)).index;
}

async function openStore(options: IndexOptions): Promise<{ index: ServedIndex; driver: SqlDriver }> {
  const temporary = !options.databaseUrl && !options.dataDir ? mkdtempSync(join(tmpdir(), 'tongate-index-')) : undefined;
  const file = join(temporary ?? join(options.dataDir ?? '', options.network), 'index.sqlite');
  if (!options.databaseUrl && !temporary) mkdirSync(dirname(file), { recursive: true });
  // A temporary file dies with the process: nothing to guard, and nothing worth an fsync.
  const guard = options.databaseUrl
    ? undefined
    : temporary
      ? { synchronous: 'off' as const, discarded: false, closed: () => {} }
      : guardSqliteFile(file);
  const location: IndexLocation = options.databaseUrl
    ? { kind: 'postgres', databaseUrl: options.databaseUrl, schema: options.schema ?? defaultSchema(options.network) }
    : { kind: 'sqlite', file, synchronous: guard!.synchronous };
  const removeTemporary = () => temporary && rmSync(temporary, { recursive: true, force: true });
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  let driver: SqlDriver;
  try {
    if (location.kind === 'postgres') {
      // `pg` is loaded only for an index that lives in PostgreSQL (see sql/postgres-names.ts).
      const { PostgresDriver } = await import('./sql/postgres-driver.js');
      driver = await PostgresDriver.open(location.databaseUrl, location.schema, { queryTimeoutMs });
    } else {
      driver = SqliteDriver.open(location.file, location.synchronous);
    }
  } catch (error) {
    removeTemporary();
    throw error;
  }
  try {
    await migrate(driver);
    // Before anything follows the chain: new blocks may continue traces of the blocks already held.
    if ((await tracesBackfillFrom(driver)) !== undefined)
      await (await import('./traces/backfill.js')).backfillTraces(driver, options.logger);
  } catch (error) {
    await driver.close();
    removeTemporary();
    throw error;
  }
  // Threads start with the first read (an index only written, as by the seed script, starts none).
  const pool =
    location.kind === 'sqlite' ? new SqliteReaderPool(location.file, { readers: options.readers, timeoutMs: queryTimeoutMs }) : undefined;
  const reads: SqlReads = pool ?? driver;
  let closing: Promise<void> | undefined;
  const index: ServedIndex = {
    network: options.network,
    store: driver.dialect,
    location,
    reader: new IndexReader(reads),
    reads,
    discarded: guard?.discarded ?? false,
    rewind: async (r, runner, dnsRoots) => (await import('./rewind.js')).rewindIndex(driver, r, runner, dnsRoots),
    close: () =>
      // The readers first: the last connection to close checkpoints the WAL into the file.
      (closing ??= Promise.resolve(pool?.close())
        .then(() => driver.close())
        .finally(() => {
          guard?.closed();
          removeTemporary();
        })),
  };
  return { index, driver };
}
