/**
 * The index's writer thread: receives packed blocks from attach.ts, parses them and writes them, one at
 * a time and in order, answering each with {id, ok} or {id, error}. It opens its own connection to
 * the index (the main thread's connection stays for reads); the schema is already migrated.
 */
// @ton/core's cell hashing and bit copying, made fast in this thread (see core-speedups.ts).
import '../../ton/core-speedups.js';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqlDriver } from '../sql/driver.js';
import { PostgresDriver } from '../sql/postgres-driver.js';
import { SqliteDriver } from '../sql/sqlite-driver.js';
import { IndexWriter } from '../writer.js';
import { CellCache } from './cell-transfer.js';
import { unpackBlock, type PackedBlock } from './transfer.js';
import type { IndexLocation } from '../open-index.js';

export type WorkerRequest = { id: number; block: PackedBlock } | { id: number; close: true };
export type WorkerReply = { id: number; ok: true } | { id: number; ok: false; error: string };

async function open(location: IndexLocation): Promise<SqlDriver> {
  return location.kind === 'sqlite' ? SqliteDriver.open(location.file) : PostgresDriver.open(location.databaseUrl, location.schema);
}

const port = parentPort!;
const driver = open(workerData as IndexLocation);
const writer = driver.then((d) => new IndexWriter(d));
const cells = new CellCache();
let queue = Promise.resolve();

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    try {
      if ('close' in request) {
        await (await driver).close();
        port.postMessage({ id: request.id, ok: true } satisfies WorkerReply);
        port.close();
        return;
      }
      await (await writer).write(unpackBlock(request.block, cells));
      port.postMessage({ id: request.id, ok: true } satisfies WorkerReply);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply);
    }
  });
});
