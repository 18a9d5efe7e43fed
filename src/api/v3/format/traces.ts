/**
 * A page of v3 traces (/traces), written as text in toncenter's field order: the trace's row, its
 * trace_info, then (unless it is too large, or the page's budget of transactions is spent) its tree,
 * transactions_order and the transactions, each the same JSON /transactions writes; then the address_book
 * of every account they mention and the metadata of the token contracts among them. Each trace's
 * classification_state and, when asked for, its `actions` come from `format/actions.ts` (traceActionsOf), the
 * addresses the actions name joining the address_book and metadata.
 */
import type { TransactionPage } from '../../../index/read/pages.js';
import type { TracePage, TracePageLimits, TraceWithheld } from '../../../index/traces/reader.js';
import { jsonObject, type JsonText } from '../../json-text.js';
import { traceTree } from './trace-tree.js';
import { renderTransactions, type RenderedTransactions } from './transactions.js';
import type { TraceActions } from './actions.js';

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

function traceHead(row: TracePage['traces'][number], incomplete: boolean, warning: string | undefined, actions: TraceActions): string {
  const info = {
    trace_state: row.state,
    messages: row.messages,
    transactions: row.transactions,
    pending_messages: row.pendingMessages,
    classification_state: actions.states.get(row.traceId) ?? 'unclassified',
  };
  return (
    `{"trace_id":${hashText(row.traceId)},"external_hash":${hashText(row.externalHash)}` +
    `,"mc_seqno_start":"${row.mcSeqnoStart}","mc_seqno_end":"${row.mcSeqnoEnd}"` +
    `,"start_lt":"${row.startLt}","start_utime":${row.startUtime},"end_lt":"${row.endLt}","end_utime":${row.endUtime}` +
    `,"trace_info":${JSON.stringify(info)},"is_incomplete":${incomplete}` +
    (warning ? `,"warning":${JSON.stringify(warning)}` : '') +
    (actions.actions ? `,"actions":[${(actions.actions.get(row.traceId) ?? []).join(',')}]` : '')
  );
}

/** One carried trace of a page: its row, its transactions (indexes into the page's records, in order), their hashes and its tree. */
export interface CarriedTrace {
  row: TracePage['traces'][number];
  members: number[];
  hashes: string[];
  tree: ReturnType<typeof traceTree>;
}

/** Each trace of the page with the transactions it carries (none when withheld), grouped from the page's records. */
export function carriedTraces(page: TracePage, transactions: TransactionPage, rendered: RenderedTransactions): CarriedTrace[] {
  const { records } = transactions;
  const byTrace = new Map<string, number[]>();
  for (const [i, record] of records.entries()) {
    const id = record.traceId!.toString('base64');
    const list = byTrace.get(id);
    if (list) list.push(i);
    else byTrace.set(id, [i]);
  }
  return page.traces.map((row) => {
    const members = row.withheld === null ? (byTrace.get(row.traceId) ?? []) : [];
    const hashes = members.map((i) => records[i].hash.toString('base64'));
    return { row, members, hashes, tree: traceTree(members.map((i, k) => ({ hash: hashes[k], ...rendered.messages[i] }))) };
  });
}

/**
 * `transactions`: the page's transactions as IndexReader.transactionPage reads them, with their metadata.
 * `classified`: the page's classification states and actions (format/actions.ts); a boolean: none read, `actions: []` when true.
 */
export function tracesText(
  page: TracePage,
  transactions: TransactionPage,
  classified: TraceActions | boolean,
  testOnly: boolean,
): JsonText {
  const actions =
    typeof classified === 'boolean'
      ? { states: new Map(), actions: classified ? new Map() : null, addressBook: {}, metadata: {} }
      : classified;
  const rendered = renderTransactions(transactions, testOnly);
  const texts = carriedTraces(page, transactions, rendered).map(({ row, members, hashes, tree: { root, warning } }) => {
    if (row.withheld !== null) return `${traceHead(row, true, WARNINGS[row.withheld], actions)}}`;
    let body = traceHead(row, false, warning, actions);
    if (root) body += `,"trace":${JSON.stringify(root)}`;
    if (members.length > 0) {
      body += `,"transactions_order":${JSON.stringify(hashes)}`;
      body += `,"transactions":{${members.map((i, k) => `${JSON.stringify(hashes[k])}:${rendered.texts[i]}`).join(',')}}`;
    }
    return `${body}}`;
  });
  return jsonObject([
    ['traces', `[${texts.join(',')}]`],
    ['address_book', JSON.stringify({ ...actions.addressBook, ...rendered.addressBook })],
    ['metadata', JSON.stringify({ ...actions.metadata, ...rendered.metadata })],
  ]);
}
