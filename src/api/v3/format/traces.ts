/**
 * A page of v3 traces (/traces), written as text in toncenter's field order: the trace's row, its
 * trace_info, then (unless it is too large) its tree, transactions_order and the transactions, each the
 * same JSON /transactions writes; then the address_book of every account they mention and the metadata
 * of the token contracts among them. `actions` is written only when asked for, empty: no actions are
 * classified yet (classification_state "unclassified").
 */
import type { IndexReader, TransactionRecord } from '../../../index/reader.js';
import type { TraceRow } from '../../../index/traces/trace-row.js';
import { metadataOf } from './metadata.js';
import { jsonObject, type JsonText } from '../json-text.js';
import { traceTree } from './trace-tree.js';
import { renderTransactions } from './transactions.js';

/** ton-index-go's default -max-trace-txs: a larger trace is listed without its transactions. */
export const MAX_TRACE_TRANSACTIONS = 4000;

const hashText = (hash: string | null) => (hash === null ? 'null' : JSON.stringify(hash));

function traceHead(row: TraceRow, incomplete: boolean, warning: string | undefined, includeActions: boolean): string {
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

export async function tracesText(reader: IndexReader, traces: TraceRow[], includeActions: boolean, testOnly: boolean): Promise<JsonText> {
  const small = traces.filter((t) => t.transactions <= MAX_TRACE_TRANSACTIONS);
  const records: TransactionRecord[] = await reader.traceTransactions(small.map((t) => Buffer.from(t.traceId, 'base64')));
  const rendered = await renderTransactions(reader, records, testOnly);
  const byTrace = new Map<string, number[]>();
  for (const [i, record] of records.entries()) {
    const id = record.traceId!.toString('base64');
    const list = byTrace.get(id);
    if (list) list.push(i);
    else byTrace.set(id, [i]);
  }
  const texts = traces.map((row) => {
    if (row.transactions > MAX_TRACE_TRANSACTIONS) return `${traceHead(row, true, 'trace is too large', includeActions)}}`;
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
    ['metadata', JSON.stringify(await metadataOf(reader, Object.keys(rendered.addressBook)))],
  ]);
}
