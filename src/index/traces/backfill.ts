/**
 * Gives traces to the blocks an index held before it knew of traces (the traces migration leaves a
 * row ('traces', first seqno) in index_backfills when the index had blocks). Runs at open, before the
 * index follows its chain again: a new block's transactions may continue traces of the old ones.
 *
 * The index's own rows say everything assembly needs (a transaction's inbound and outbound message
 * hashes in its document; a message's source, destination and normalized hash in its row), so the
 * back-fill reads the index, not the chain: it works the same for every kind of network, the local
 * chain's store and a lite network alike. Masterchain blocks are taken in order, in groups of about
 * MAX_GROUP_TRANSACTIONS transactions, each group assembled and linked exactly as live blocks are
 * (block-traces.ts, trace-linker.ts) and committed with the next seqno to do: a crash resumes where it
 * stopped, the traces it left pending found again through the messages' trace_id.
 */
import { placeholders } from '../sql/where.js';
import { MAX_GROUP_TRANSACTIONS } from '../block-committer.js';
import type { SqlDriver, SqlRow, SqlValue } from '../sql/driver.js';
import { types } from '../sql/column-types.js';
import { bigint, bytes, int, optionalBytes, optionalText, text } from '../sql/values.js';
import { assembleBlockTraces, type BlockTraces, type TraceTransactionInput } from './block-traces.js';
import { TraceLinker } from './trace-linker.js';
import { tracesBackfillFrom } from './backfill-state.js';

export interface BackfillLogger {
  info?(object: object, message: string): void;
}

const LOOKUP_CHUNK = 500;
/** At most one progress line per this many milliseconds. */
const PROGRESS_EVERY_MS = 2_000;

interface StoredTransaction {
  mcSeqno: number;
  input: TraceTransactionInput;
}

interface MessageFacts {
  hashNorm: string | null;
  source: string | null;
  destination: string | null;
}

const b64 = (value: unknown) => bytes(value).toString('base64');

/** Masterchain seqnos from `from` on, cut into ranges of about `maxTransactions` transactions. */
async function ranges(
  driver: SqlDriver,
  from: number,
  maxTransactions: number,
): Promise<{ ranges: [number, number][]; transactions: number }> {
  const rows = await driver.all('SELECT mc_seqno, SUM(tx_count) AS n FROM blocks WHERE mc_seqno >= ? GROUP BY mc_seqno ORDER BY mc_seqno', [
    from,
  ]);
  const result: [number, number][] = [];
  let total = 0;
  let start: number | undefined;
  let end = 0;
  let size = 0;
  for (const row of rows) {
    const seqno = int(row.mc_seqno);
    const n = int(row.n);
    total += n;
    if (start !== undefined && size + n > maxTransactions) {
      result.push([start, end]);
      start = undefined;
      size = 0;
    }
    start ??= seqno;
    end = seqno;
    size += n;
  }
  if (start !== undefined) result.push([start, end]);
  return { ranges: result, transactions: total };
}

async function messageFacts(driver: SqlDriver, hashes: string[]): Promise<Map<string, MessageFacts>> {
  const facts = new Map<string, MessageFacts>();
  for (let i = 0; i < hashes.length; i += LOOKUP_CHUNK) {
    const chunk = hashes.slice(i, i + LOOKUP_CHUNK).map((h): SqlValue => Buffer.from(h, 'base64'));
    const rows = await driver.all(
      `SELECT msg_hash, hash_norm, source, destination FROM messages WHERE msg_hash IN (${placeholders(chunk)})`,
      chunk,
    );
    for (const row of rows) {
      const norm = optionalBytes(row.hash_norm);
      facts.set(b64(row.msg_hash), {
        hashNorm: norm ? norm.toString('base64') : null,
        source: optionalText(row.source),
        destination: optionalText(row.destination),
      });
    }
  }
  return facts;
}

async function storedTransactions(driver: SqlDriver, first: number, last: number): Promise<StoredTransaction[]> {
  const rows: SqlRow[] = await driver.all(
    `SELECT hash, account, lt, now, mc_seqno, doc FROM transactions
     WHERE mc_seqno BETWEEN ? AND ? AND lt BETWEEN (SELECT MIN(start_lt) FROM blocks WHERE mc_seqno BETWEEN ? AND ?) AND (SELECT MAX(end_lt) FROM blocks WHERE mc_seqno BETWEEN ? AND ?)`,
    [first, last, first, last, first, last],
  );
  const docs = rows.map((row) => JSON.parse(text(row.doc)) as { in_msg: string | null; out_msgs: string[] });
  const facts = await messageFacts(driver, [...new Set(docs.flatMap((d) => [...(d.in_msg ? [d.in_msg] : []), ...d.out_msgs]))]);
  return rows.map((row, i) => {
    const { in_msg: inMsg, out_msgs: outMsgs } = docs[i];
    const inFacts = inMsg ? facts.get(inMsg) : undefined;
    return {
      mcSeqno: int(row.mc_seqno),
      input: {
        hash: b64(row.hash),
        lt: bigint(row.lt),
        now: int(row.now),
        account: text(row.account),
        inMsg: inMsg ? { hash: inMsg, hashNorm: inFacts?.hashNorm ?? null, source: inFacts?.source ?? null } : null,
        outMsgs: outMsgs.map((hash) => ({ hash, internal: (facts.get(hash)?.destination ?? null) !== null })),
      },
    };
  });
}

export async function backfillTraces(driver: SqlDriver, logger?: BackfillLogger): Promise<void> {
  const from = await tracesBackfillFrom(driver);
  if (from === undefined) return;
  const { bytes: bytesType } = types(driver.dialect);
  await driver.write(
    [],
    [
      `CREATE TABLE IF NOT EXISTS trace_backfill_tx (hash ${bytesType} PRIMARY KEY, trace_id ${bytesType} NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS trace_backfill_msg (hash ${bytesType} PRIMARY KEY, trace_id ${bytesType} NOT NULL)`,
      'DELETE FROM trace_backfill_tx',
      'DELETE FROM trace_backfill_msg',
    ],
  );
  const { ranges: todo, transactions: total } = await ranges(driver, from, MAX_GROUP_TRANSACTIONS);
  logger?.info?.({ from, transactions: total }, 'index: giving traces to the transactions indexed before traces were kept');
  const linker = new TraceLinker(driver);
  const started = Date.now();
  let reported = started;
  let done = 0;
  for (const [first, last] of todo) {
    const stored = await storedTransactions(driver, first, last);
    const bySeqno = new Map<number, TraceTransactionInput[]>();
    for (const { mcSeqno, input } of stored) {
      const list = bySeqno.get(mcSeqno);
      if (list) list.push(input);
      else bySeqno.set(mcSeqno, [input]);
    }
    const blocks: BlockTraces[] = [...bySeqno.entries()]
      .sort(([a], [b]) => a - b)
      .map(([seqno, inputs]) => assembleBlockTraces(seqno, inputs));
    const linked = await linker.link(blocks, { rewrite: true });
    const txRows: SqlValue[][] = [];
    const msgRows: SqlValue[][] = [];
    for (const [k, block] of blocks.entries()) {
      const inputs = bySeqno.get(block.seqno)!;
      const remap = linked.remaps[k];
      for (const [i, input] of inputs.entries()) {
        const root = block.traces[block.traceOf[i]].root;
        const id = Buffer.from(remap?.get(root) ?? root, 'base64');
        txRows.push([Buffer.from(input.hash, 'base64'), id]);
        for (const hash of [...(input.inMsg ? [input.inMsg.hash] : []), ...input.outMsgs.map((m) => m.hash)])
          msgRows.push([Buffer.from(hash, 'base64'), id]);
      }
    }
    await driver.write(
      [
        { table: 'trace_backfill_tx', columns: ['hash', 'trace_id'], rows: txRows, conflict: 'ON CONFLICT (hash) DO NOTHING' },
        { table: 'trace_backfill_msg', columns: ['hash', 'trace_id'], rows: msgRows, conflict: 'ON CONFLICT (hash) DO NOTHING' },
        linked.traces,
      ],
      [],
      [
        'UPDATE transactions SET trace_id = (SELECT b.trace_id FROM trace_backfill_tx b WHERE b.hash = transactions.hash) WHERE hash IN (SELECT hash FROM trace_backfill_tx)',
        // A message's trace is its sender's, met first (lower lt): a later side does not overwrite it.
        'UPDATE messages SET trace_id = (SELECT b.trace_id FROM trace_backfill_msg b WHERE b.hash = messages.msg_hash) WHERE trace_id IS NULL AND msg_hash IN (SELECT hash FROM trace_backfill_msg)',
        'DELETE FROM trace_backfill_tx',
        'DELETE FROM trace_backfill_msg',
        `UPDATE index_backfills SET next_seqno = ${Math.trunc(last) + 1} WHERE name = 'traces'`,
      ],
    );
    done += stored.length;
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      logger?.info?.(
        { transactions: done, of: total, mcSeqno: last, percent: total ? Math.floor((done / total) * 100) : 100 },
        'index: trace back-fill progress',
      );
    }
  }
  await driver.write(
    [],
    [`DELETE FROM index_backfills WHERE name = 'traces'`, 'DROP TABLE trace_backfill_tx', 'DROP TABLE trace_backfill_msg'],
  );
  logger?.info?.({ transactions: done, seconds: (Date.now() - started) / 1000 }, 'index: trace back-fill done');
}
