/**
 * The traces table's queries: traces by toncenter's filters, a /traces page with the transactions it carries in
 * one statement, and the transactions of given traces.
 */
import type { SqlReads, SqlValue } from '../sql/driver.js';
import { bigint, bytes, optionalBytes, optionalText } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import type { Page, SortOrder, TraceFilter } from '../types.js';
import { transactionOf, TX_COLUMNS, type TransactionRecord } from '../read/records.js';
import { TRACE_COLUMNS, traceRowOf, type TraceRow } from './trace-row.js';

/** What a /traces page may carry (api/v3/format/traces.ts sets them): see IndexReader.tracePage. */
export interface TracePageLimits {
  /** A trace with more transactions is listed without them. */
  perTrace: number;
  /** The most transactions one page carries. */
  perPage: number;
}

/** Why a trace of a page is listed without its transactions. */
export type TraceWithheld = 'too large' | 'page full';

/** A transaction with its trace's normalized external hash (null: its trace has no external message) and end_lt. */
export type TracedTransaction = TransactionRecord & { externalHashNorm: string | null; traceEndLt: bigint };

export interface TracePage {
  /** In page order; `withheld` null: its transactions are in `transactions`. */
  traces: (TraceRow & { withheld: TraceWithheld | null })[];
  /** The carried traces' transactions, by trace in page order, then lt and account. */
  transactions: TransactionRecord[];
}

/** traces()'s statement, and its ORDER BY as [column, direction] pairs (tracePage repeats the order). */
function tracesSql(filter: TraceFilter, sort: SortOrder, page: Page): { sql: string; params: SqlValue[]; orderBy: [string, string][] } {
  const where = new Where();
  if (filter.account !== undefined) where.add('trace_id IN (SELECT trace_id FROM transactions WHERE account = ?)', filter.account);
  if (filter.traceIds && filter.traceIds.length > 0) where.in('trace_id', filter.traceIds);
  if (filter.txHashes && filter.txHashes.length > 0) {
    where.add(`trace_id IN (SELECT trace_id FROM transactions WHERE hash IN (${placeholders(filter.txHashes)}))`, ...filter.txHashes);
  }
  if (filter.msgHashes && filter.msgHashes.length > 0) {
    // The message's own hash or its normalized one: two index lookups (an OR would scan).
    const marks = placeholders(filter.msgHashes);
    where.add(
      `trace_id IN (SELECT trace_id FROM messages WHERE msg_hash IN (${marks}) UNION SELECT trace_id FROM messages WHERE hash_norm IN (${marks}))`,
      ...filter.msgHashes,
      ...filter.msgHashes,
    );
  }
  if (filter.mcSeqno !== undefined) where.add(`state = 'complete'`).add('mc_seqno_end = ?', filter.mcSeqno);
  where.between('end_utime', filter.startUtime, filter.endUtime).between('end_lt', filter.startLt, filter.endLt);
  const dir = orderSql(sort);
  const byUtime = filter.startUtime !== undefined || filter.endUtime !== undefined;
  const orderBy: [string, string][] = [
    [byUtime ? 'end_utime' : 'end_lt', dir],
    ['trace_id', dir],
  ];
  return {
    sql: `SELECT ${TRACE_COLUMNS.join(', ')} FROM traces ${where} ORDER BY ${orderBy.map(([c, d]) => `${c} ${d}`).join(', ')} ${pageSql(page)}`,
    params: where.params,
    orderBy,
  };
}

export class TraceReader {
  constructor(private readonly reads: SqlReads) {}

  /**
   * Traces by toncenter's filters (at most one of account, traceIds, txHashes, msgHashes), ordered by
   * end_lt (end_utime when a utime bound is given), then trace_id. `mcSeqno`: complete traces that ended
   * in that masterchain block.
   */
  async traces(filter: TraceFilter, sort: SortOrder, page: Page): Promise<TraceRow[]> {
    const { sql, params } = tracesSql(filter, sort, page);
    return (await this.reads.all(sql, params)).map(traceRowOf);
  }

  /**
   * A /traces page in one statement: the traces as traces() finds them and, joined to them, the
   * transactions of those the page carries (by trace in page order, then lt and account: each trace's
   * transactions_order). One round trip instead of two: the page's reads are a chain, and each link costs a
   * network round trip where PostgreSQL is on another host (on localhost the two forms take the same time:
   * index/traces/README.md).
   *
   * Which traces are carried is decided here, in page order: a trace over `limits.perTrace` transactions
   * never is (and spends nothing); the others are while the running total of their transactions stays
   * within `limits.perPage`. The total only grows, so the first trace that does not fit and every trace
   * after it are left without their transactions: the carried traces are a prefix of the page (less the
   * too large ones), and a client goes on from the first one left out.
   */
  async tracePage(filter: TraceFilter, sort: SortOrder, page: Page, limits: TracePageLimits): Promise<TracePage> {
    const { sql: pageOfTraces, params, orderBy } = tracesSql(filter, sort, page);
    const perTrace = Math.trunc(limits.perTrace);
    const ordered = (prefix: string) => orderBy.map(([column, dir]) => `${prefix}${column} ${dir}`).join(', ');
    const rows = await this.reads.all(
      `WITH page AS (${pageOfTraces}),
       spent AS (
         SELECT page.*, SUM(CASE WHEN transactions <= ${perTrace} THEN transactions ELSE 0 END)
                        OVER (ORDER BY ${ordered('')} ROWS UNBOUNDED PRECEDING) AS spent
         FROM page)
       SELECT spent.*,
              CASE WHEN spent.transactions > ${perTrace} THEN 'too large' WHEN spent.spent > ? THEN 'page full' END AS withheld,
              t.hash, t.account, t.lt, t.doc, t.state_before, t.state_after
       FROM spent LEFT JOIN transactions t
         ON t.trace_id = spent.trace_id AND spent.transactions <= ${perTrace} AND spent.spent <= ?
       ORDER BY ${ordered('spent.')}, t.lt, t.account`,
      [...params, limits.perPage, limits.perPage],
    );
    const traces: TracePage['traces'] = [];
    const transactions: TransactionRecord[] = [];
    let last: Buffer | undefined;
    for (const row of rows) {
      // A trace's rows are adjacent (the statement orders by the trace first); a left-out trace has one, without a transaction.
      const id = bytes(row.trace_id);
      if (!last?.equals(id)) traces.push({ ...traceRowOf(row), withheld: optionalText(row.withheld) as TraceWithheld | null });
      last = id;
      if (row.hash !== null && row.hash !== undefined) transactions.push(transactionOf(row));
    }
    return { traces, transactions };
  }

  /**
   * These transactions (by hash), each with its trace's normalized external hash, in the order a /traces page
   * lists them (their traces by end_lt, then trace_id; within one, lt then account): a sealed block's followed
   * transactions for the stream when no client gets a whole trace (src/stream/sealed-traces.ts), without the trace
   * pages' other transactions. A transaction with no trace yet (an index whose back-fill has not run) is left out,
   * as a page leaves it out.
   */
  async tracedTransactions(hashes: readonly Buffer[]): Promise<TracedTransaction[]> {
    if (hashes.length === 0) return [];
    const columns = TX_COLUMNS.split(', ')
      .map((c) => `t.${c}`)
      .join(', ');
    const rows = await this.reads.all(
      `SELECT ${columns}, tr.external_hash_norm, tr.end_lt AS trace_end_lt FROM transactions t JOIN traces tr ON tr.trace_id = t.trace_id
       WHERE t.hash IN (${placeholders(hashes)}) ORDER BY tr.end_lt, tr.trace_id, t.lt, t.account`,
      hashes,
    );
    return rows.map((row) => ({
      ...transactionOf(row),
      externalHashNorm: optionalBytes(row.external_hash_norm)?.toString('base64') ?? null,
      traceEndLt: bigint(row.trace_end_lt),
    }));
  }

  /**
   * The transactions of these traces, by trace, then lt and account (a trace's transactions_order). /traces reads
   * them with its page (tracePage); this is the same read alone (tests, bench:traces' two-statement comparison).
   */
  async traceTransactions(traceIds: readonly Buffer[]): Promise<TransactionRecord[]> {
    if (traceIds.length === 0) return [];
    const rows = await this.reads.all(
      `SELECT ${TX_COLUMNS} FROM transactions WHERE trace_id IN (${traceIds.map(() => '?').join(', ')}) ORDER BY trace_id, lt, account`,
      traceIds,
    );
    return rows.map(transactionOf);
  }
}
