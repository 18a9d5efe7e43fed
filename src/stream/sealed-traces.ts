/**
 * What a sealed block means to the stream, read from the index once it holds the block: the traces of the
 * transactions subscribers care about, rendered by the same code that answers `/api/v3/traces` (tracePage, then
 * renderTransactions and carriedTraces, as tracesText uses them), so a streamed trace is the one the REST API shows. A trace's key is its external message's
 * normalized hash (toncenter's trace_external_hash_norm); a trace no external message started (a tick-tock, a
 * devnet internal message) is keyed by its trace id.
 */
import type { IndexReader } from '../index/reader.js';
import type { TracePage } from '../index/traces/reader.js';
import { carriedTraces, TRACE_PAGE_LIMITS } from '../api/v3/format/traces.js';
import { renderTransactions } from '../api/v3/format/transactions.js';
import { metadataOf, type TraceEvent } from './notifications.js';
import type { Finality } from './subscription.js';

/** Hashes per index read (an IN list); a block with more subscribed transactions takes several reads. */
const HASHES_PER_READ = 500;

/** A trace as the index shows it, ready to be sent at any finality. */
export type SealedTrace = Omit<TraceEvent, 'finality'> & { traceId: string };

/**
 * The page's complete traces, each transaction the text /api/v3/transactions writes for it (renderTransactions),
 * taken as it is: nothing is parsed back.
 */
async function readPage(reader: IndexReader, page: TracePage, testOnly: boolean, wanted: Extras): Promise<SealedTrace[]> {
  if (page.traces.length === 0) return [];
  const transactions = await reader.transactionPage(page.transactions, wanted.metadata, wanted.addressBook);
  const rendered = renderTransactions(transactions, testOnly, wanted.addressBook);
  const book = rendered.addressBook as Record<string, unknown>;
  const metadata = (rendered.metadata ?? {}) as Record<string, unknown>;
  const out: SealedTrace[] = [];
  for (const { row, members, hashes, tree } of carriedTraces(page, transactions, rendered)) {
    if (members.length === 0) continue;
    const txs = members.map((i, k) => ({
      hash: hashes[k],
      account: transactions.records[i].account,
      lt: transactions.records[i].lt,
      text: rendered.texts[i],
      mentioned: rendered.mentioned[i],
    }));
    const mentioned = new Set(txs.flatMap((tx) => tx.mentioned));
    // The trace's own entries, looked up by its accounts: the page's book holds every trace's (filtering it per
    // trace cost ~0.1 ms per transfer at 500 traces a page).
    const subset = (from: Record<string, unknown>) => {
      const out: Record<string, unknown> = {};
      for (const account of mentioned) if (account in from) out[account] = from[account];
      return out;
    };
    out.push({
      traceId: row.traceId,
      norm: row.externalHashNorm ?? row.traceId,
      transactions: txs,
      tree: JSON.stringify(tree.root ?? null),
      actions: [],
      addressBook: subset(book),
      metadata: metadataOf(metadata, mentioned),
    });
  }
  return out;
}

/** What some client asked for beside the transactions (`include_address_book`, `include_metadata`): each is more reading. */
export interface Extras {
  addressBook: boolean;
  metadata: boolean;
}

/** The traces holding these transactions, or started by these external messages (hash or normalized hash). */
export async function sealedTraces(
  reader: IndexReader,
  testOnly: boolean,
  txHashes: Buffer[],
  externalHashes: Buffer[],
  wanted: Extras,
): Promise<SealedTrace[]> {
  const found = new Map<string, SealedTrace>();
  const read = async (filter: { txHashes?: Buffer[]; msgHashes?: Buffer[] }, count: number) => {
    const page = await reader.tracePage(filter, 'asc', { limit: count, offset: 0 }, TRACE_PAGE_LIMITS);
    for (const trace of await readPage(reader, page, testOnly, wanted)) found.set(trace.traceId, trace);
  };
  for (let i = 0; i < txHashes.length; i += HASHES_PER_READ) {
    const chunk = txHashes.slice(i, i + HASHES_PER_READ);
    await read({ txHashes: chunk }, chunk.length);
  }
  for (let i = 0; i < externalHashes.length; i += HASHES_PER_READ) {
    const chunk = externalHashes.slice(i, i + HASHES_PER_READ);
    await read({ msgHashes: chunk }, chunk.length);
  }
  return [...found.values()];
}

export const atFinality = (trace: SealedTrace, finality: Finality): TraceEvent => ({ ...trace, finality });
