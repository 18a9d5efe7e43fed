/**
 * A sealed block's traces as the stream reads them from the index once it holds the block (block-traces.ts says
 * which, for whom): whole, rendered by the same code that answers `/api/v3/traces` (tracePage, then
 * renderTransactions and carriedTraces, as tracesText uses them), so a streamed trace is the one the REST API
 * shows; or only the followed transactions, as `/api/v3/transactions` answers them. A trace's key is its external
 * message's normalized hash (toncenter's trace_external_hash_norm); a trace no external message started (a
 * tick-tock, a devnet internal message) is keyed by its trace id. */
import type { IndexReader } from '../index/reader.js';
import type { TracePage } from '../index/traces/reader.js';
import { carriedTraces, TRACE_PAGE_LIMITS } from '../api/v3/format/traces.js';
import { renderTransactions, type RenderedTransactions } from '../api/v3/format/transactions.js';
import type { TransactionPage } from '../index/read/pages.js';
import { metadataOf, type TraceEvent } from './notifications.js';
import type { Finality } from './subscription.js';

/** Hashes or ids per index read (an IN list); a block with more followed transactions or traces takes several reads. */
const HASHES_PER_READ = 500;

/** A trace as the index shows it, ready to be sent at any finality. */
export type SealedTrace = Omit<TraceEvent, 'finality'> & {
  traceId: string;
  /** The trace's end_lt as the index holds it: with the trace id, a /traces page's order (byPageOrder). */
  endLt: bigint;
  /** Read without its tree and its transactions not asked for (sealedTransactions): never sent as a `trace`. */
  partial?: boolean;
};

/** The transactions' entries of a page's address book and metadata (`i`: indexes into the rendered page). */
function extrasOf(rendered: RenderedTransactions, members: number[]) {
  const book = rendered.addressBook as Record<string, unknown>;
  const metadata = (rendered.metadata ?? {}) as Record<string, unknown>;
  const mentioned = new Set(members.flatMap((i) => rendered.mentioned[i]));
  // The trace's own entries, looked up by its accounts: the page's book holds every trace's (filtering it per
  // trace cost ~0.1 ms per transfer at 500 traces a page).
  const addressBook: Record<string, unknown> = {};
  for (const account of mentioned) if (account in book) addressBook[account] = book[account];
  return { addressBook, metadata: metadataOf(metadata, mentioned) };
}

const transactionOf = (transactions: TransactionPage, rendered: RenderedTransactions, i: number, hash: string) => ({
  hash,
  account: transactions.records[i].account,
  lt: transactions.records[i].lt,
  text: rendered.texts[i],
  mentioned: rendered.mentioned[i],
});

/**
 * The page's traces it carries, each transaction the text /api/v3/transactions writes for it (renderTransactions),
 * taken as it is: nothing is parsed back.
 */
async function readPage(reader: IndexReader, page: TracePage, testOnly: boolean, wanted: Extras): Promise<SealedTrace[]> {
  if (page.transactions.length === 0) return [];
  const transactions = await reader.transactionPage(page.transactions, wanted.metadata, wanted.addressBook);
  const rendered = renderTransactions(transactions, testOnly, wanted.addressBook);
  const out: SealedTrace[] = [];
  for (const { row, members, hashes, tree } of carriedTraces(page, transactions, rendered)) {
    if (members.length === 0) continue;
    out.push({
      traceId: row.traceId,
      endLt: row.endLt,
      norm: row.externalHashNorm ?? row.traceId,
      transactions: members.map((i, k) => transactionOf(transactions, rendered, i, hashes[k])),
      tree: JSON.stringify(tree.root ?? null),
      actions: [],
      ...extrasOf(rendered, members),
    });
  }
  return out;
}

/** What some client asked for beside the transactions (`include_address_book`, `include_metadata`): each is more reading. */
export interface Extras {
  addressBook: boolean;
  metadata: boolean;
}

/**
 * These traces (ids) as /api/v3/traces pages them, in page order. A page carries at most MAX_PAGE_TRANSACTIONS
 * transactions: the traces it left out for that are read by the next page; a trace over MAX_TRACE_TRANSACTIONS is
 * never carried (/api/v3/traces lists it without its transactions), so it is not sent.
 */
export async function sealedTraces(reader: IndexReader, testOnly: boolean, traceIds: Buffer[], wanted: Extras): Promise<SealedTrace[]> {
  const out: SealedTrace[] = [];
  let left = traceIds;
  while (left.length > 0) {
    const chunk = left.slice(0, HASHES_PER_READ);
    const page = await reader.tracePage({ traceIds: chunk }, 'asc', { limit: chunk.length, offset: 0 }, TRACE_PAGE_LIMITS);
    out.push(...(await readPage(reader, page, testOnly, wanted)));
    // The page's first trace always fits, so each read carries at least one trace.
    const full = page.traces.filter((trace) => trace.withheld === 'page full').map((trace) => Buffer.from(trace.traceId, 'base64'));
    left = [...full, ...left.slice(chunk.length)];
  }
  return out.sort(byPageOrder);
}

/**
 * Only these transactions, grouped by trace in a /traces page's order (end_lt, then trace_id; within a trace lt, then
 * account), each the text /api/v3/transactions writes: what `transactions` and `actions` notifications need (a
 * trace's tree and its other transactions would need the whole trace page). The traces come `partial`: no tree, not
 * every transaction, no address book or metadata (the hub reads those for the clients that asked: block-traces.ts).
 * Unlike a page, a trace over MAX_TRACE_TRANSACTIONS is not withheld: its block's followed transactions are told as
 * any others.
 */
export async function sealedTransactions(reader: IndexReader, testOnly: boolean, txHashes: Buffer[]): Promise<SealedTrace[]> {
  const traces = new Map<string, SealedTrace>();
  for (let at = 0; at < txHashes.length; at += HASHES_PER_READ) {
    const records = await reader.tracedTransactions(txHashes.slice(at, at + HASHES_PER_READ));
    if (records.length === 0) continue;
    const transactions = await reader.transactionPage(records, false, false);
    const rendered = renderTransactions(transactions, testOnly, false);
    for (let i = 0; i < records.length;) {
      const { traceId, traceEndLt } = records[i];
      const members: number[] = [];
      for (; i < records.length && records[i].traceId!.equals(traceId!); i++) members.push(i);
      const id = traceId!.toString('base64');
      const txs = members.map((m) => transactionOf(transactions, rendered, m, records[m].hash.toString('base64')));
      const known = traces.get(id);
      if (known) {
        // A trace whose transactions fell into two reads: one trace, in (lt, account) order.
        known.transactions = [...known.transactions, ...txs].sort((x, y) =>
          x.lt === y.lt ? (x.account < y.account ? -1 : 1) : x.lt < y.lt ? -1 : 1,
        );
        continue;
      }
      traces.set(id, {
        traceId: id,
        norm: records[members[0]].externalHashNorm ?? id,
        transactions: txs,
        tree: 'null',
        partial: true,
        actions: [],
        addressBook: {},
        metadata: {},
        endLt: traceEndLt,
      });
    }
  }
  // Each read is in page order; across reads, the same order again (end_lt, then trace_id as the store orders it).
  const ordered = [...traces.values()];
  if (txHashes.length > HASHES_PER_READ) ordered.sort(byPageOrder);
  return ordered;
}

/** A /traces page's order: end_lt, then the trace id's bytes (the store's BLOB / bytea order). */
export const byPageOrder = (x: { endLt: bigint; traceId: string }, y: { endLt: bigint; traceId: string }) =>
  x.endLt === y.endLt ? Buffer.compare(Buffer.from(x.traceId, 'base64'), Buffer.from(y.traceId, 'base64')) : x.endLt < y.endLt ? -1 : 1;

export const atFinality = (trace: SealedTrace, finality: Finality): TraceEvent => ({ ...trace, finality });
