/**
 * A page of v3 traces (/traces), written as text in toncenter's field order: the trace's row, its
 * trace_info, then (unless it is too large, or the page's budget of transactions is spent) its tree,
 * transactions_order and the transactions, each the same JSON /transactions writes; then the address_book
 * of every account they mention and the metadata of the token contracts among them. `actions` is written
 * only when asked for, empty: no actions are classified yet (classification_state "unclassified").
 */
import type { TransactionPage } from '../../../index/read/pages.js';
import type { TracePage, TracePageLimits, TraceWithheld } from '../../../index/traces/reader.js';
import { jsonObject, type JsonText } from '../json-text.js';
import { traceTree } from './trace-tree.js';
import { renderTransactions } from './transactions.js';

/** ton-index-go's default -max-trace-txs: a larger trace is listed without its transactions. */
export const MAX_TRACE_TRANSACTIONS = 4000;

/**
 * Most transactions one page carries (ours; toncenter has no such cap). A transaction costs ~0.06-0.16 ms
 * of CPU, mostly on the HTTP thread, and ~3.7 KB of JSON (index/traces/README.md): 1,000 traces of up to
 * 4,000 each would hold that thread for minutes and build gigabytes. Traces get their transactions in page
 * order while the page's total stays within this; the first that does not fit and every trace after it are
 * listed without them (`is_incomplete`, PAGE_FULL_WARNING), so the full traces are always a prefix of the
 * page and a client goes on from the first incomplete one (by offset, or by trace_id). The first trace
 * always fits: no trace within MAX_TRACE_TRANSACTIONS exceeds it. The choice is made by the page's query
 * (IndexReader.tracePage), with these limits.
 */
export const MAX_PAGE_TRANSACTIONS = MAX_TRACE_TRANSACTIONS;
export const TRACE_PAGE_LIMITS: TracePageLimits = { perTrace: MAX_TRACE_TRANSACTIONS, perPage: MAX_PAGE_TRANSACTIONS };
export const TOO_LARGE_WARNING = 'trace is too large';
export const PAGE_FULL_WARNING = 'too many transactions in this page: request this trace alone';

const WARNINGS: Record<TraceWithheld, string> = { 'too large': TOO_LARGE_WARNING, 'page full': PAGE_FULL_WARNING };

const hashText = (hash: string | null) => (hash === null ? 'null' : JSON.stringify(hash));

function traceHead(row: TracePage['traces'][number], incomplete: boolean, warning: string | undefined, includeActions: boolean): string {
  const info = {
    trace_state: row.state,
    messages: row.messages,
    transactions: row.transactions,
    pending_messages: row.pendingMessages,
    classification_state: 'unclassified',
  };
  return (
    `{"trace_id":${hashText(row.traceId)},"external_hash":${hashText(row.externalHash)}` +
    `,"mc_seqno_start":"${row.mcSeqnoStart}","mc_seqno_end":"${row.mcSeqnoEnd}"` +
    `,"start_lt":"${row.startLt}","start_utime":${row.startUtime},"end_lt":"${row.endLt}","end_utime":${row.endUtime}` +
    `,"trace_info":${JSON.stringify(info)},"is_incomplete":${incomplete}` +
    (warning ? `,"warning":${JSON.stringify(warning)}` : '') +
    (includeActions ? ',"actions":[]' : '')
  );
}

/** `transactions`: the page's transactions as IndexReader.transactionPage reads them, with their metadata. */
export function tracesText(page: TracePage, transactions: TransactionPage, includeActions: boolean, testOnly: boolean): JsonText {
  const { traces } = page;
  const { records } = transactions;
  const rendered = renderTransactions(transactions, testOnly);
  const byTrace = new Map<string, number[]>();
  for (const [i, record] of records.entries()) {
    const id = record.traceId!.toString('base64');
    const list = byTrace.get(id);
    if (list) list.push(i);
    else byTrace.set(id, [i]);
  }
  const texts = traces.map((row) => {
    if (row.withheld !== null) return `${traceHead(row, true, WARNINGS[row.withheld], includeActions)}}`;
    const members = byTrace.get(row.traceId) ?? [];
    const hashes = members.map((i) => records[i].hash.toString('base64'));
    const { root, warning } = traceTree(members.map((i, k) => ({ hash: hashes[k], ...rendered.messages[i] })));
    let body = traceHead(row, false, warning, includeActions);
    if (root) body += `,"trace":${JSON.stringify(root)}`;
    if (members.length > 0) {
      body += `,"transactions_order":${JSON.stringify(hashes)}`;
      body += `,"transactions":{${members.map((i, k) => `${JSON.stringify(hashes[k])}:${rendered.texts[i]}`).join(',')}}`;
    }
    return `${body}}`;
  });
  return jsonObject([
    ['traces', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify(rendered.addressBook)],
    ['metadata', JSON.stringify(rendered.metadata)],
  ]);
}
