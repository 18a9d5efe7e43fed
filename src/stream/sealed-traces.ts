/**
 * What a sealed block means to the stream, read from the index once it holds the block: the traces of the
 * transactions subscribers care about, rendered by the same code that answers `/api/v3/traces` (tracePage, then
 * tracesText), so a streamed trace is the one the REST API shows. A trace's key is its external message's
 * normalized hash (toncenter's trace_external_hash_norm); a trace no external message started (a tick-tock, a
 * devnet internal message) is keyed by its trace id.
 */
import type { IndexReader } from '../index/reader.js';
import type { TracePage } from '../index/traces/reader.js';
import { TRACE_PAGE_LIMITS, tracesText } from '../api/v3/format/traces.js';
import type { TraceEvent } from './notifications.js';
import type { Finality } from './subscription.js';

/** Hashes per index read (an IN list); a block with more subscribed transactions takes several reads. */
const HASHES_PER_READ = 500;

interface ParsedTx {
  account: string;
  lt: string;
  in_msg: { source: string | null } | null;
  out_msgs: { destination: string | null }[];
}

interface ParsedTrace {
  trace_id: string;
  is_incomplete: boolean;
  trace?: unknown;
  transactions_order?: string[];
  transactions?: Record<string, ParsedTx>;
}

/** A trace as the index shows it, ready to be sent at any finality. */
export type SealedTrace = Omit<TraceEvent, 'finality'> & { traceId: string };

async function readPage(reader: IndexReader, page: TracePage, testOnly: boolean): Promise<SealedTrace[]> {
  if (page.traces.length === 0) return [];
  const rendered = JSON.parse(tracesText(page, await reader.transactionPage(page.transactions, true), false, testOnly).text) as {
    traces: ParsedTrace[];
    address_book: Record<string, unknown>;
    metadata: Record<string, unknown>;
  };
  const out: SealedTrace[] = [];
  rendered.traces.forEach((trace, i) => {
    const row = page.traces[i];
    if (trace.is_incomplete || !trace.transactions || !trace.transactions_order) return;
    const transactions = trace.transactions_order.map((hash) => {
      const tx = trace.transactions![hash];
      return {
        hash,
        account: tx.account,
        lt: BigInt(tx.lt),
        text: JSON.stringify(tx),
        mentioned: [tx.account, tx.in_msg?.source ?? null, ...tx.out_msgs.map((m) => m.destination)].filter((a): a is string => a !== null),
      };
    });
    const mentioned = new Set(transactions.flatMap((tx) => tx.mentioned));
    const subset = (from: Record<string, unknown>) => Object.fromEntries(Object.entries(from).filter(([k]) => mentioned.has(k)));
    out.push({
      traceId: row.traceId,
      norm: row.externalHashNorm ?? row.traceId,
      transactions,
      tree: JSON.stringify(trace.trace ?? null),
      actions: [],
      addressBook: subset(rendered.address_book),
      metadata: subset(rendered.metadata),
    });
  });
  return out;
}

/** The traces holding these transactions, or started by these external messages (hash or normalized hash). */
export async function sealedTraces(
  reader: IndexReader,
  testOnly: boolean,
  txHashes: Buffer[],
  externalHashes: Buffer[],
): Promise<SealedTrace[]> {
  const found = new Map<string, SealedTrace>();
  const read = async (filter: { txHashes?: Buffer[]; msgHashes?: Buffer[] }, count: number) => {
    const page = await reader.tracePage(filter, 'asc', { limit: count, offset: 0 }, TRACE_PAGE_LIMITS);
    for (const trace of await readPage(reader, page, testOnly)) found.set(trace.traceId, trace);
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
