/**
 * What a sealed block's `finalized` (and late `confirmed`) notifications are read as, each trace in two views that
 * are read apart, so that one client's needs cost only its own notifications. One rule for every network (a local
 * chain's sealed block, a lite network's block read from its index: lite-feed.ts):
 *
 * - `view`, what `transactions` and `actions` clients get: the followed transactions the block's source hands over
 *   as news (`BlockReads.txHashes`: a local block's own; on a lite network those of the traces the block completes).
 *   A trace the seal confirmed from the pending layer is told from its confirmed texts (finalized-early.ts); the
 *   others are read alone (`IndexReader.tracedTransactions`, sealedTransactions). No trace page, no tree. The
 *   address book and the metadata are read apart (`accountExtras`), for the accounts the clients that asked get,
 *   and only then.
 * - `whole`, what a `trace` client gets: the trace page /api/v3/traces answers (every transaction, the tree), read
 *   once, at the block the index holds the trace complete in (its `mc_seqno_end`), and only for the traces a
 *   connected `trace` client follows. toncenter sends a `trace` at the finality all of it reached (ton-streaming-go
 *   v2: the trace's finality is its transactions' lowest), so a trace whose internal messages ran in a later block
 *   is `finalized` once, complete, with that block, whoever else is connected.
 */
import type { NetworkContext } from '../http/network-context.js';
import type { IndexReader } from '../index/reader.js';
import { addressBookFor } from '../pending/endpoints.js';
import type { StreamConnection } from './connection.js';
import { finalizedFromConfirmed, type LandedTrace } from './finalized-early.js';
import { byPageOrder, sealedTraces, sealedTransactions, type Extras, type SealedTrace } from './sealed-traces.js';

/** One trace of a sealed block, in the views its clients get. */
export interface BlockTrace {
  traceId: string;
  endLt: bigint;
  /** For `transactions` and `actions` clients: its address book and metadata are the block's (each client's picked by notifications.ts). */
  view: SealedTrace;
  /** For `trace` clients: the trace page, read only at the block that completes the trace and when one follows it. */
  whole?: SealedTrace;
}

/** A trace the index holds complete at a block: its id (base64) and the key clients follow it by. */
export interface CompletedTrace {
  traceId: string;
  /** Its external message's normalized hash, else its trace id (what `trace_external_hash_norm` names). */
  key: string;
}

/** What the hub knows of its clients when it reads a block. */
export interface BlockAsks {
  /** Whether a connected `trace` client follows this key (normalized hash, or trace id). */
  followsTrace(key: string): boolean;
  /** Whether any `trace` client is connected (the block's completed traces are read only then). */
  tracesFollowed: boolean;
  /** What the `trace` clients asked for beside the transactions (the pages' extras). */
  traceExtras: Extras;
}

/** What the hub gathered of a block that is read here (hub.ts BlockWork). */
export interface BlockReads {
  seqno: number;
  /** The followed transactions this block tells (the news of `transactions` and `actions` clients). */
  txHashes: Buffer[];
  confirmedEarly: Map<string, LandedTrace>;
  /** The traces the index holds complete at this block, when the block's source read them already (lite-feed.ts). */
  completed?: CompletedTrace[];
}

const NONE: Extras = { addressBook: false, metadata: false };
/** Trace rows per index read. */
const PAGE = 1000;

/** The traces the index holds complete at masterchain block `seqno` (they ended there), in a /traces page's order. */
export async function completedTraces(reader: IndexReader, seqno: number): Promise<CompletedTrace[]> {
  const out: CompletedTrace[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const rows = await reader.traces({ mcSeqno: seqno }, 'asc', { limit: PAGE, offset });
    for (const row of rows) out.push({ traceId: row.traceId, key: row.externalHashNorm ?? row.traceId });
    if (rows.length < PAGE) return out;
  }
}

/** The block's traces in a /traces page's order (end_lt, then trace id). */
export async function blockTraces(reader: IndexReader, testOnly: boolean, work: BlockReads, asks: BlockAsks): Promise<BlockTrace[]> {
  const [followed, byTrace] = await Promise.all([followedTransactions(reader, testOnly, work), wholeTraces(reader, testOnly, work, asks)]);
  const wholes = new Map(byTrace.map((trace) => [trace.traceId, trace]));
  const out: BlockTrace[] = followed.map((view) => ({ traceId: view.traceId, endLt: view.endLt, view, whole: wholes.get(view.traceId) }));
  const seen = new Set(followed.map((trace) => trace.traceId));
  // A page's trace with no followed transaction of the block: its view a shallow copy, so that the address book and
  // metadata accountExtras puts in the view do not reach the `trace` text.
  for (const whole of wholes.values())
    if (!seen.has(whole.traceId)) out.push({ traceId: whole.traceId, endLt: whole.endLt, view: { ...whole }, whole });
  return followed.length === 0 || wholes.size === 0 ? out : out.sort(byPageOrder);
}

/** The pages of the traces the block completes that a `trace` client follows (none read while no `trace` client is connected). */
async function wholeTraces(reader: IndexReader, testOnly: boolean, work: BlockReads, asks: BlockAsks): Promise<SealedTrace[]> {
  if (!asks.tracesFollowed) return [];
  const completed = work.completed ?? (await completedTraces(reader, work.seqno));
  const ids = completed.filter((trace) => asks.followsTrace(trace.key)).map((trace) => Buffer.from(trace.traceId, 'base64'));
  return ids.length > 0 ? sealedTraces(reader, testOnly, ids, asks.traceExtras) : [];
}

/**
 * The block's followed transactions, grouped by trace in a /traces page's order: those of traces the seal confirmed
 * from the pending layer from their confirmed texts (no transaction read back, none rendered again), the others read.
 */
async function followedTransactions(reader: IndexReader, testOnly: boolean, work: BlockReads): Promise<SealedTrace[]> {
  if (work.txHashes.length === 0) return [];
  if (work.confirmedEarly.size === 0) return sealedTransactions(reader, testOnly, work.txHashes);
  const followed = new Set(work.txHashes.map((hash) => hash.toString('base64')));
  const early = await finalizedFromConfirmed(reader, work.confirmedEarly.values(), followed, work.seqno);
  const told = new Set(early.flatMap((t) => t.transactions.map((tx) => tx.hash)));
  const rest = work.txHashes.filter((hash) => !told.has(hash.toString('base64')));
  if (rest.length === 0) return early;
  const read = await sealedTransactions(reader, testOnly, rest);
  return early.length === 0 ? read : [...early, ...read].sort(byPageOrder);
}

/**
 * The address book and the metadata of the views, read for the clients that asked and the accounts their
 * notifications mention (their transactions' accounts, sources and destinations; the trace's actions' accounts),
 * as /api/v3/transactions and /api/v3/metadata answer for them (one read each per block); other clients' reads are
 * not touched. `news`: the block's followed transactions (undefined: every transaction of a view).
 */
export async function accountExtras(
  network: NetworkContext,
  traces: BlockTrace[],
  news: Set<string> | undefined,
  followersOf: (account: string) => Iterable<StreamConnection>,
): Promise<void> {
  if (!network.index) return;
  const wanted = { ...NONE };
  const accounts = new Set<string>();
  const asking = new Set<BlockTrace>();
  for (const trace of traces) {
    for (const tx of trace.view.transactions) {
      if (news && !news.has(tx.hash)) continue;
      let asked = false;
      for (const c of followersOf(tx.account)) {
        const { includeAddressBook, includeMetadata, types } = c.subscription;
        if (!types.has('transactions') && !types.has('actions')) continue;
        wanted.addressBook ||= includeAddressBook;
        wanted.metadata ||= includeMetadata;
        asked ||= includeAddressBook || includeMetadata;
      }
      if (!asked) continue;
      for (const account of tx.mentioned) accounts.add(account);
      asking.add(trace);
    }
    // A client its actions reach (one of their accounts followed: hub.ts actionFollowers), a transaction of its own here or not.
    for (const action of trace.view.actions)
      for (const account of action.accounts)
        for (const c of followersOf(account)) {
          const { includeAddressBook, includeMetadata, types } = c.subscription;
          if (!types.has('actions') || !(includeAddressBook || includeMetadata)) continue;
          wanted.addressBook ||= includeAddressBook;
          wanted.metadata ||= includeMetadata;
          asking.add(trace);
        }
  }
  for (const trace of asking) for (const action of trace.view.actions) for (const account of action.accounts) accounts.add(account);
  if (accounts.size === 0) return;
  const list = [...accounts];
  const [addressBook, metadata] = await Promise.all([
    wanted.addressBook ? addressBookFor(network, list) : {},
    wanted.metadata ? network.index.metadata(list) : {},
  ]);
  for (const trace of asking) Object.assign(trace.view, { addressBook, metadata });
}
