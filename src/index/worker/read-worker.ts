/**
 * One of the index's reader threads: a read-only connection to the SQLite file (WAL: it sees every
 * committed block, the writer never waits for it) that runs the API's queries one at a time (a batch
 * of them per message), so the thread serving HTTP never runs SQL. Statements are prepared once per text (SqliteDriver), integers
 * come back as bigint. reader-pool.ts is the main thread's side.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { thisThreadId } from '../../util/thread-priority.js';
import type { SqlRow, SqlValue } from '../sql/driver.js';
import { SqliteDriver } from '../sql/sqlite-driver.js';
import { buffer } from './transfer.js';

export interface ReadWorkerData {
  file: string;
}

export interface ReadRequest {
  id: number;
  sql: string;
  params: readonly (SqlValue | Uint8Array)[];
}

/**
 * `ready` carries the thread's kernel id: the pool lowers the priority of a thread it gave up on (a
 * query past its budget runs on until SQLite returns; better-sqlite3 cannot interrupt it).
 */
export type ReadResult = { id: number; rows: SqlRow[] } | { id: number; error: string };
export type ReadReply = { ready: true; tid: number | undefined } | { failed: string } | { results: ReadResult[] };

const port = parentPort!;
const { file } = workerData as ReadWorkerData;
let driver: SqliteDriver;
try {
  driver = SqliteDriver.openReader(file);
} catch (error) {
  port.postMessage({ failed: (error as Error).message } satisfies ReadReply);
  process.exit(1);
}
port.postMessage({ ready: true, tid: thisThreadId() } satisfies ReadReply);

/** Queries asked together come together, and their answers go back in one message. */
port.on('message', (requests: ReadRequest[]) => {
  void Promise.all(
    requests.map(({ id, sql, params }): Promise<ReadResult> => {
      // Buffers crossed as Uint8Arrays: bound as the Buffers they were.
      const values = params.map((value) => (value instanceof Uint8Array ? buffer(value) : value));
      return driver.all(sql, values).then(
        (rows) => ({ id, rows }),
        (error: Error) => ({ id, error: error.message }),
      );
    }),
  ).then((results) => port.postMessage({ results } satisfies ReadReply));
});
