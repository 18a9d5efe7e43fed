/**
 * Gives actions to the traces an index completed before it classified them (migration 11 left the cursor row
 * ('actions', '') in index_backfill_cursors: schema.ts). Runs in the thread that commits blocks (the store thread,
 * or the writer's thread), beside live indexing and after the token back-fill (jetton wallets and NFT items must be
 * known first, or their transfers would be classified as contract calls).
 *
 * It reads the index, not the chain: `traces` in trace_id order (its primary key), a group at a time; the complete
 * ones not classified yet (live classification may have come first) are classified as live groups are
 * (classify-traces.ts: same inputs, same contracts, same rows), and their rows and the cursor (the group's last
 * trace_id, hex) go in one DB transaction: a restart resumes after the last group committed. The row is deleted
 * at the end. Progress (done, total, rate, ETA) goes to the log every few seconds (util/progress.ts).
 *
 * The same walk classifies again the traces an older classifier classified (their `classifier_version` below
 * classifierVersion(): classifier-version.ts): at start, when such traces exist and no walk is under way, the
 * cursor row is put back; their old actions and account rows are deleted in the group's DB transaction, before
 * the new ones are written.
 *
 * Throttled as the token back-fill: after each group it pauses at least as long as the group took, so block
 * commits and reads keep their pace. A group that fails (a PostgreSQL deadlock with a block commit, a connection
 * lost) is tried again a few times.
 */
import type { SqlDriver } from '../sql/driver.js';
import { text } from '../sql/values.js';
import { traceRowOf, type TraceRow } from '../traces/trace-row.js';
import { ProgressReporter } from '../../util/progress.js';
import type { Clock } from '../../util/clock.js';
import { MAX_CLASSIFIED_TRANSACTIONS, replacingBatches } from './classify-traces.js';
import { classifierVersion } from './classifier-version.js';
import { CLASSIFIER_VERSION_MIGRATION } from './classifier-version-schema.js';
import { int } from '../sql/values.js';
import { ACTIONS_BACKFILL } from './schema.js';

export interface ActionsBackfillOptions {
  logger?: { info?(object: object, message: string): void; warn?(object: object, message: string): void };
  /** Traces read per group (default 500). */
  groupTraces?: number;
  /** The least pause between groups (default 20 ms); the pause is at least the group's own time. */
  pauseMs?: number;
  /** Asked before each group: true stops the run (the index is closing); the next start resumes. */
  stopped?: () => boolean;
  clock?: Clock;
  /** How often progress is logged (default 5 s). */
  progressEveryMs?: number;
}

export type ActionsBackfillOutcome = 'none' | 'done' | 'stopped';

const GROUP_TRACES = 500;
const MIN_PAUSE_MS = 20;
const ATTEMPTS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One group after `cursor` (hex trace_id, '' for the start): the new cursor, or null when no trace is left. */
async function group(
  driver: SqlDriver,
  cursor: string,
  size: number,
): Promise<{ cursor: string; traces: number; classified: number } | null> {
  const rows = await driver.all(
    `SELECT t.*, c.state AS classified, c.classifier_version FROM traces t
     LEFT JOIN trace_classifications c ON c.trace_id = t.trace_id
     WHERE t.trace_id > ? ORDER BY t.trace_id LIMIT ${Math.trunc(size)}`,
    [Buffer.from(cursor, 'hex')],
  );
  if (rows.length === 0) return null;
  const version = classifierVersion();
  const unclassified = (row: (typeof rows)[number]) => row.classified === null || row.classified === undefined;
  const classifiable = (t: TraceRow) => t.state === 'complete' && t.transactions <= MAX_CLASSIFIED_TRANSACTIONS;
  const fresh = rows.filter(unclassified).map(traceRowOf).filter(classifiable);
  // Classified by an older classifier: complete and small enough, or they would not have been.
  const older = rows.filter((row) => !unclassified(row) && int(row.classifier_version) < version).map(traceRowOf);
  const next = Buffer.from(traceRowOf(rows[rows.length - 1]).traceId, 'base64').toString('hex');
  const { batches, before } = await replacingBatches(driver, fresh, older);
  await driver.write(batches, before, [`UPDATE index_backfill_cursors SET after_key = '${next}' WHERE name = '${ACTIONS_BACKFILL}'`]);
  return { cursor: next, traces: rows.length, classified: fresh.length + older.length };
}

/**
 * After an upgrade that raised the classifier's version: the cursor row put back (from the start) when traces of
 * an older version are stored and no walk is under way. True when it did.
 */
async function reclassificationDue(driver: SqlDriver, logger: ActionsBackfillOptions['logger']): Promise<boolean> {
  // A store kept at an earlier schema (no versions, perhaps no actions) has nothing to classify again.
  const kept = await driver.all(`SELECT 1 AS found FROM index_migrations WHERE version = ${CLASSIFIER_VERSION_MIGRATION.version}`);
  if (kept.length === 0) return false;
  const version = classifierVersion();
  const [older] = await driver.all('SELECT classifier_version FROM trace_classifications WHERE classifier_version < ? LIMIT 1', [version]);
  if (!older) return false;
  await driver.write(
    [],
    [],
    [`INSERT INTO index_backfill_cursors (name, after_key) VALUES ('${ACTIONS_BACKFILL}', '') ON CONFLICT (name) DO NOTHING`],
  );
  logger?.info?.(
    { from: int(older.classifier_version), to: version },
    'index: the classifier is newer than the one that classified stored traces; classifying them again',
  );
  return true;
}

/**
 * `run`, tried again (after a growing pause) while it throws and `again` says so, at most ATTEMPTS times; 'stopped'
 * when `again` says no (the index is closing).
 */
async function retried<T>(run: () => Promise<T>, again: (error: unknown, attempt: number) => boolean): Promise<T | 'stopped'> {
  let attempt = 1;
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      if (!again(error, attempt)) return 'stopped';
      await sleep(1000 * attempt++);
    }
  }
}

/** Runs the back-fill the cursor row asks for, if any, to its end (or until `stopped`). */
export async function backfillActions(driver: SqlDriver, options: ActionsBackfillOptions = {}): Promise<ActionsBackfillOutcome> {
  const { logger } = options;
  let [state] = await driver.all(`SELECT after_key FROM index_backfill_cursors WHERE name = '${ACTIONS_BACKFILL}'`);
  if (!state && (await reclassificationDue(driver, logger))) {
    [state] = await driver.all(`SELECT after_key FROM index_backfill_cursors WHERE name = '${ACTIONS_BACKFILL}'`);
  }
  if (!state) return 'none';
  let cursor = text(state.after_key);
  const [count] = await driver.all('SELECT COUNT(*) AS n FROM traces WHERE trace_id > ?', [Buffer.from(cursor, 'hex')]);
  const total = Number(count.n);
  const info = logger?.info?.bind(logger);
  info?.({ traces: total, after: cursor || null }, 'index: classifying the actions of the traces indexed before actions were kept');
  const progress = info
    ? new ProgressReporter({
        job: 'actions back-fill',
        unit: 'traces',
        total,
        log: { info },
        clock: options.clock,
        intervalMs: options.progressEveryMs,
      })
    : undefined;
  for (;;) {
    if (options.stopped?.()) return 'stopped';
    const started = Date.now();
    const done = await retried(
      () => group(driver, cursor, options.groupTraces ?? GROUP_TRACES),
      (error, attempt) => {
        if (options.stopped?.()) return false;
        logger?.warn?.({ err: error, after: cursor, attempt }, 'index: an actions back-fill group failed; trying it again');
        return true;
      },
    );
    if (done === 'stopped') return 'stopped';
    if (done === null) break;
    cursor = done.cursor;
    progress?.advance(done.traces);
    await sleep(Math.max(options.pauseMs ?? MIN_PAUSE_MS, Date.now() - started));
  }
  await driver.write([], [`DELETE FROM index_backfill_cursors WHERE name = '${ACTIONS_BACKFILL}'`]);
  progress?.finish();
  return 'done';
}
