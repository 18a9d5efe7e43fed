/**
 * One of the index's reader threads: a read-only connection to the SQLite file (WAL: it sees every
 * committed block, the writer never waits for it) that runs the API's queries one at a time, so the
 * thread serving HTTP never runs SQL. Statements are prepared once per text (SqliteDriver), integers
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
export type ReadReply = { ready: true; tid: number | undefined } | { failed: string } | { id: number; rows: SqlRow[] } | { id: number; error: string };

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

port.on('message', ({ id, sql, params }: ReadRequest) => {
  // Buffers crossed as Uint8Arrays: bound as the Buffers they were.
  const values = params.map((value) => (value instanceof Uint8Array ? buffer(value) : value));
  driver.all(sql, values).then(
    (rows) => port.postMessage({ id, rows } satisfies ReadReply),
    (error: Error) => port.postMessage({ id, error: error.message } satisfies ReadReply),
  );
});
