/**
 * Puts the index back to masterchain block `seqno` after its chain was (a devnet snapshot restore): the rows of
 * later blocks deleted, what they changed in earlier rows undone. Run while nothing else writes (attach.ts
 * quiesces its pump first), through the main thread's connection, as one DB transaction.
 *
 * What later blocks changed in rows that stay, and how each is undone:
 *   messages     an internal message sent by then and received after: its receiving transaction cleared (the
 *                pending edge is back); one nobody sent (a devnet-injected message) received after: deleted
 *   traces       a trace that started by then and went on after: its counters less what the later transactions
 *                added (each: one transaction, its inbound edge back to pending, its sent messages gone), its
 *                end (lt, utime, mc seqno) that of its last remaining transaction; a trace started after: deleted
 *   latest_account_states  the accounts changed after: their state as of `seqno`, which the chain hands over
 *                (a state changed by a devnet control has no transaction to find it by), or no row
 *   token tables events after deleted; jetton/NFT contracts among the accounts changed after detected again at
 *                their state as of `seqno` (tokens/rewind-tokens.ts); the failed detections of later states
 *                deleted, and the writers' memory of them read back after (open-index.ts, attach.ts)
 *   actions      the actions of the traces that ended after `seqno` deleted (actions/rewind-actions.ts)
 * Rows of later blocks are found by lt: every transaction, message and block after `seqno` has a higher lt than
 * any before it (the first later block's start_lt bounds them). account_states documents are keyed by state
 * hash and reached only through transactions: those of dropped blocks stay, unreachable.
 *
 * `seqno` -1 (the chain was replaced whole, by an import): every row goes.
 */
import { Cell as CellClass } from '@ton/core';
import { CodeBocCache, restoredStateRows } from './block-rows.js';
import { formatRawUpper } from '../ton/address.js';
import { types } from './sql/column-types.js';
import type { InsertBatch, SqlDriver, SqlValue } from './sql/driver.js';
import { bigint, bytes, int } from './sql/values.js';
import { rewoundTokens, TOKEN_CHILD_TABLES, TOKEN_EVENT_TABLES, TOKEN_STATE_TABLES } from './tokens/rewind-tokens.js';
import type { GetMethodRunner } from './tokens/get-methods.js';
import { TRACE_COLUMNS, TRACE_UPSERT, traceRowOf, traceRowValues, type TraceRow } from './traces/trace-row.js';
import type { IndexRewind } from './types.js';
import { ACTION_TABLES } from './actions/schema.js';
import { rewoundActions } from './actions/rewind-actions.js';
import { LATE_FINDS_TABLE } from './actions/late-finds-schema.js';
import { DETECTION_FAILURES_TABLE } from './tokens/detection-retry-schema.js';

const INDEX_TABLES = [
  'blocks',
  'shard_state',
  'transactions',
  'messages',
  'account_states',
  'latest_account_states',
  'traces',
  ...TOKEN_EVENT_TABLES,
  ...TOKEN_STATE_TABLES,
  ...TOKEN_CHILD_TABLES.map(([table]) => table),
  'dns_entries',
  ...ACTION_TABLES,
  LATE_FINDS_TABLE,
  DETECTION_FAILURES_TABLE,
] as const;
const LOOKUP_CHUNK = 500;

/** Resolves once the index holds nothing after `seqno`; false when it held nothing after it anyway. */
/** `runner`: the chain's get-methods, to detect the token contracts of changed accounts again (tokens/rewind-tokens.ts). */
export async function rewindIndex(
  driver: SqlDriver,
  rewind: IndexRewind,
  runner?: GetMethodRunner,
  dnsRoots: readonly string[] = [],
): Promise<boolean> {
  if (rewind.seqno < 0) {
    await driver.write(
      [],
      INDEX_TABLES.map((table) => `DELETE FROM ${table}`),
    );
    return true;
  }
  const seqno = Math.trunc(rewind.seqno);
  const [bound] = await driver.all('SELECT MIN(start_lt) AS lt FROM blocks WHERE mc_seqno > ?', [seqno]);
  if (bound.lt === null || bound.lt === undefined) return false;
  const firstLt = bigint(bound.lt);

  const dropped = await driver.all('SELECT hash, trace_id, doc FROM transactions WHERE lt >= ?', [firstLt]);
  const droppedPerTrace = new Map<string, number>();
  const receivedAfter: Buffer[] = [];
  for (const row of dropped) {
    if (row.trace_id !== null && row.trace_id !== undefined) {
      const id = bytes(row.trace_id).toString('base64');
      droppedPerTrace.set(id, (droppedPerTrace.get(id) ?? 0) + 1);
    }
    const inMsg = (JSON.parse(String(row.doc)) as { in_msg: string | null }).in_msg;
    if (inMsg) receivedAfter.push(Buffer.from(inMsg, 'base64'));
  }

  const traces = await rewoundTraces(driver, seqno, firstLt, droppedPerTrace);
  const codeBocs = new CodeBocCache();
  const stateRows: InsertBatch[] = [];
  const gone: SqlValue[][] = [];
  for (const { address, shardAccount } of rewind.accounts) {
    if (shardAccount === null) gone.push([formatRawUpper(address)]);
    else
      stateRows.push(
        ...restoredStateRows(address, Buffer.isBuffer(shardAccount) ? CellClass.fromBoc(shardAccount)[0] : shardAccount, codeBocs),
      );
  }

  const tokens = await rewoundTokens(driver, rewind, firstLt, runner, dnsRoots);
  // Before the traces are rewritten: the ones that ended after `seqno` lose their actions (actions/rewind-actions.ts).
  const actions = await rewoundActions(driver, seqno);
  const { bytes: bytesType } = types(driver.dialect);
  const lt = firstLt.toString();
  await driver.write(
    [
      { table: 'rewind_messages', columns: ['hash'], rows: receivedAfter.map((h) => [h]), conflict: 'ON CONFLICT (hash) DO NOTHING' },
      { table: 'rewind_accounts', columns: ['account'], rows: gone, conflict: 'ON CONFLICT (account) DO NOTHING' },
      ...mergeBatches(stateRows),
      ...(traces.length > 0 ? [{ table: 'traces', columns: TRACE_COLUMNS, rows: traces.map(traceRowValues), conflict: TRACE_UPSERT }] : []),
      ...tokens.batches,
      ...actions.batches,
    ],
    [
      `CREATE TABLE IF NOT EXISTS rewind_messages (hash ${bytesType} PRIMARY KEY)`,
      'CREATE TABLE IF NOT EXISTS rewind_accounts (account TEXT PRIMARY KEY)',
      'DELETE FROM rewind_messages',
      'DELETE FROM rewind_accounts',
      ...tokens.before,
      ...actions.before,
    ],
    [
      `DELETE FROM messages WHERE sort_lt >= ${lt}`,
      // Received after, sent by nobody the index knows (a devnet-injected message): it was not there before.
      'DELETE FROM messages WHERE out_tx_hash IS NULL AND msg_hash IN (SELECT hash FROM rewind_messages)',
      'UPDATE messages SET in_tx_hash = NULL WHERE msg_hash IN (SELECT hash FROM rewind_messages)',
      `DELETE FROM transactions WHERE lt >= ${lt}`,
      `DELETE FROM blocks WHERE mc_seqno > ${seqno}`,
      `DELETE FROM shard_state WHERE mc_seqno > ${seqno}`,
      `DELETE FROM traces WHERE mc_seqno_end > ${seqno} AND mc_seqno_start > ${seqno}`,
      'DELETE FROM latest_account_states WHERE account IN (SELECT account FROM rewind_accounts)',
      ...tokens.after,
      ...actions.after,
      // Emptied, not dropped: prepared statements (PostgreSQL's named ones) keep naming the same tables.
      'DELETE FROM rewind_messages',
      'DELETE FROM rewind_accounts',
    ],
  );
  return true;
}

/**
 * The traces that started by `seqno` and went on after it, as they were at `seqno`. Each dropped transaction of a
 * trace (never its root, which is not after `seqno`) had added: one transaction, its inbound internal message as a
 * completed edge (one message, one pending less), each message it sent (internal: one pending; external-out:
 * one message). So: transactions - n, messages - n - external-outs, pending + n - internal-outs.
 */
async function rewoundTraces(driver: SqlDriver, seqno: number, firstLt: bigint, droppedPerTrace: Map<string, number>): Promise<TraceRow[]> {
  const touched = (await driver.all('SELECT * FROM traces WHERE mc_seqno_end > ? AND mc_seqno_start <= ?', [seqno, seqno])).map(traceRowOf);
  if (touched.length === 0) return [];
  const sent = new Map<string, { internal: number; external: number }>();
  for (const row of await driver.all(
    `SELECT trace_id, SUM(CASE WHEN destination IS NULL THEN 1 ELSE 0 END) AS external, COUNT(*) AS total
     FROM messages WHERE sort_lt >= ? AND out_tx_hash IS NOT NULL AND trace_id IS NOT NULL GROUP BY trace_id`,
    [firstLt],
  )) {
    const external = int(row.external);
    sent.set(bytes(row.trace_id).toString('base64'), { external, internal: int(row.total) - external });
  }
  const ends = new Map<string, { lt: bigint; utime: number; seqno: number }>();
  for (let start = 0; start < touched.length; start += LOOKUP_CHUNK) {
    const chunk = touched.slice(start, start + LOOKUP_CHUNK).map((t): SqlValue => Buffer.from(t.traceId, 'base64'));
    const rows = await driver.all(
      `SELECT trace_id, MAX(lt) AS lt, MAX(now) AS utime, MAX(mc_seqno) AS seqno FROM transactions
       WHERE lt < ? AND trace_id IN (${chunk.map(() => '?').join(', ')}) GROUP BY trace_id`,
      [firstLt, ...chunk],
    );
    for (const row of rows)
      ends.set(bytes(row.trace_id).toString('base64'), { lt: bigint(row.lt), utime: int(row.utime), seqno: int(row.seqno) });
  }
  return touched.map((trace) => {
    const n = droppedPerTrace.get(trace.traceId) ?? 0;
    const out = sent.get(trace.traceId) ?? { internal: 0, external: 0 };
    const end = ends.get(trace.traceId);
    const row: TraceRow = {
      ...trace,
      transactions: trace.transactions - n,
      messages: trace.messages - n - out.external,
      pendingMessages: trace.pendingMessages + n - out.internal,
      ...(end ? { endLt: end.lt, endUtime: end.utime, mcSeqnoEnd: end.seqno } : {}),
    };
    if (row.state !== 'broken') row.state = row.pendingMessages === 0 ? 'complete' : 'pending';
    return row;
  });
}

/** One batch per table and conflict clause (PostgreSQL: fewer statements; the keys within are distinct accounts and states). */
function mergeBatches(batches: InsertBatch[]): InsertBatch[] {
  const merged = new Map<string, InsertBatch>();
  for (const batch of batches) {
    const key = `${batch.table}|${batch.conflict ?? ''}`;
    const known = merged.get(key);
    if (known) known.rows.push(...batch.rows);
    else merged.set(key, { ...batch, rows: [...batch.rows] });
  }
  // Two accounts may share a state hash (never in practice: the Account cell holds the address); keep one row each.
  const states = merged.get(`account_states|ON CONFLICT (hash) DO NOTHING`);
  if (states) {
    const seen = new Set<string>();
    states.rows = states.rows.filter((r) => {
      const key = bytes(r[0]).toString('hex');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return [...merged.values()];
}
