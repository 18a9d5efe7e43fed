/**
 * The index's store thread: takes rendered blocks from the render thread (render-worker.ts) and
 * commits them in order, grouped while they wait (BlockCommitter), answering the main thread
 * {id, ok} or {id, error} for each. It opens its own connection to the index (the main thread's
 * connection stays for reads); the schema is already migrated.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { INDEX_NICE, lowerThisThreadPriority } from '../../util/thread-priority.js';
import { BlockCommitter } from '../block-committer.js';
import type { InsertBatch, SqlDriver, SqlValue } from '../sql/driver.js';
import { SqliteDriver } from '../sql/sqlite-driver.js';
import type { IndexLocation } from '../open-index.js';
import type { RenderedMessage } from './render-worker.js';
import { PortGetMethods, type GetMethodReplies, type GetMethodRequests } from '../tokens/get-methods.js';
import { backfillTokens } from '../tokens/backfill.js';
import { backfillActions } from '../actions/backfill.js';
import { buffer } from './transfer.js';

export interface StoreWorkerData {
  location: IndexLocation;
  /** Where rendered blocks arrive from the render thread. */
  rendered: MessagePort;
  /** The thread's nice value (default INDEX_NICE). */
  nice?: number;
  /** The main thread runs token detection's get-methods on the chain (tokens/get-methods.ts). */
  getMethods?: boolean;
  /** How long one may take before it fails; null: the chain always answers (IndexFeed.getMethodsAlwaysAnswer). */
  getMethodTimeoutMs?: number | null;
  /** The network's DNS root collections (raw addresses): their items are domains (src/index/dns). */
  dnsRoots?: string[];
}

/**
 * `rows`: rows of the index's own (the fetched token metadata) written here, the only connection that writes.
 * `rewound`: the index was put back to an earlier block (../rewind.ts): the committer drops what it holds of later ones.
 */
export type StoreRequest = { close: true } | GetMethodReplies | { rows: InsertBatch[]; id: number } | { rewound: true; id: number };
/** `log`: a line for the main thread's logger (the token back-fill's progress). */
export type StoreLog = { log: { level: 'info' | 'warn'; object: object; message: string } };
export type StoreReply =
  | { id: number; ok: true }
  | { id: number; ok: false; error: string }
  | { closed: true }
  | { failed: string }
  | GetMethodRequests
  | StoreLog;

async function open(location: IndexLocation): Promise<SqlDriver> {
  return location.kind === 'sqlite'
    ? SqliteDriver.open(location.file, location.synchronous)
    : (await import('../sql/postgres-driver.js')).PostgresDriver.open(location.databaseUrl, location.schema);
}

/** Structured clone turned every Buffer into a Uint8Array; the drivers bind Buffers. */
function reviveBytes(batches: InsertBatch[]): InsertBatch[] {
  for (const batch of batches) {
    for (const row of batch.rows) {
      for (let i = 0; i < row.length; i++) {
        const value: SqlValue | Uint8Array = row[i];
        if (value instanceof Uint8Array) row[i] = buffer(value);
      }
    }
  }
  return batches;
}

const port = parentPort!;
const { location, rendered, nice, getMethods, getMethodTimeoutMs, dnsRoots } = workerData as StoreWorkerData;
lowerThisThreadPriority(nice ?? INDEX_NICE);
const driver = open(location);
const runner = getMethods ? new PortGetMethods((request) => port.postMessage(request satisfies StoreReply), getMethodTimeoutMs) : undefined;
const committer = driver.then((d) => new BlockCommitter(d, undefined, runner, dnsRoots));
// Without a connection (PostgreSQL down when the thread started) this thread is of no use: it says
// why and ends; the owner starts new threads for the next attempt, which connect again.
driver.catch((error: Error) => {
  port.postMessage({ failed: error.stack ?? error.message } satisfies StoreReply);
  process.exit(1);
});

// The token back-fill of an index written before token detection (tokens/backfill.ts): beside the commits, with
// their detector; stopped (to resume at the next start) when the thread is closed.
let closing = false;
const log = (level: 'info' | 'warn') => (object: object, message: string) => {
  const { err, ...rest } = object as { err?: unknown };
  port.postMessage({
    log: { level, object: err === undefined ? rest : { ...rest, error: String((err as Error)?.message ?? err) }, message },
  } satisfies StoreReply);
};
const backfill = runner
  ? Promise.all([driver, committer])
      .then(([d, c]) =>
        backfillTokens(d, () => c.tokenDetector, {
          dnsRoots,
          logger: { info: log('info'), warn: log('warn') },
          stopped: () => closing,
          lateFindsStored: () => c.lateFindsStored(),
        }),
      )
      .catch((error: Error) => {
        if (!closing) log('warn')({ err: error }, 'index: the token back-fill stopped; it resumes at the next start');
      })
  : Promise.resolve();
// Then the actions of traces completed before actions were kept (actions/backfill.ts): they need the token contracts.
const actionsBackfill = backfill
  .then(() => driver)
  .then((d) => backfillActions(d, { logger: { info: log('info'), warn: log('warn') }, stopped: () => closing }))
  .catch((error: Error) => {
    if (!closing) log('warn')({ err: error }, 'index: the actions back-fill stopped; it resumes at the next start');
  });

rendered.on('message', (message: RenderedMessage) => {
  const { id, seqno, transactions } = message;
  const rows = 'error' in message ? new Error(message.error) : reviveBytes(message.rows);
  const traces = 'error' in message ? undefined : message.traces;
  const tokens = 'error' in message ? undefined : message.tokens;
  committer
    .then((c) => c.commit({ seqno, transactions, rows, traces, tokens }))
    .then(
      () => port.postMessage({ id, ok: true } satisfies StoreReply),
      (error: Error) => port.postMessage({ id, ok: false, error: error.stack ?? error.message } satisfies StoreReply),
    );
});

port.on('message', (request: StoreRequest) => {
  if ('getMethodResults' in request) return runner?.settle(request);
  if ('rewound' in request) {
    // Answered once done: the main thread sends no block before (attach.ts), so the next group reads the store.
    committer.then(
      (c) => {
        c.rewound();
        port.postMessage({ id: request.id, ok: true } satisfies StoreReply);
      },
      (error: Error) => port.postMessage({ id: request.id, ok: false, error: error.stack ?? error.message } satisfies StoreReply),
    );
    return;
  }
  if ('rows' in request) {
    const { id, rows } = request;
    driver
      .then((d) => d.write(reviveBytes(rows)))
      .then(
        () => port.postMessage({ id, ok: true } satisfies StoreReply),
        (error: Error) => port.postMessage({ id, ok: false, error: error.stack ?? error.message } satisfies StoreReply),
      );
    return;
  }
  void (async () => {
    closing = true;
    await actionsBackfill;
    await (await driver.catch(() => undefined))?.close();
    rendered.close();
    port.postMessage({ closed: true } satisfies StoreReply);
    port.close();
  })();
});
