/**
 * `finalized` of the traces the seal already confirmed from the pending layer (a local chain's sealed block is
 * final too), without reading their transactions back from the index and rendering them a second time.
 *
 * What the open block executed is what the block sealed (same cells, same hashes), and the pending layer renders it
 * with the index's codecs: the `confirmed` text is the one /api/v3/transactions answers but for two parts, its
 * finality and its account states. The pending layer knows a state by its hash only; the index writes the states it
 * keeps (an account's state at the end of a block) and the hash alone for the others. So the states are read from
 * the index by hash, one read per block, and put in their place: a state the index keeps gets its document, any
 * other stays the hash-only object, as renderTransactions writes it. test/stream/streaming.test.ts checks the
 * text against /api/v3/transactions.
 */
import type { IndexReader } from '../index/reader.js';
import type { PendingTrace, PendingTx } from '../pending/pending-traces.js';
import { mentionedIn, sealedTransactionText } from '../pending/render.js';
import { pendingRenderer } from '../pending/renderer.js';
import { byPageOrder, type SealedTrace } from './sealed-traces.js';

/**
 * A followed trace the seal of a block confirmed from the pending layer, as `finalized` needs it: its followed
 * transactions that block holds, each with its pending text. It is kept until the index holds the block (seconds
 * behind production at full speed), so it holds no cells and no pending transaction: keeping a block's whole
 * traces (their cells) that long would have every major collection mark them again.
 */
export interface LandedTrace {
  traceId: string;
  norm: string;
  /** The trace's last lt in this block (its end as the index holds it once the block is in). */
  endLt: bigint;
  sealed: LandedTx[];
}

interface LandedTx {
  hash: string;
  account: string;
  lt: bigint;
  /** Its pending text (the render thread's; already there when `confirmed` was sent from it). */
  text: Promise<string>;
}

/** What `finalized` will need of `sealed`, a block's transactions of a landed trace, the `followed` accounts' only. */
export function landedTrace(trace: PendingTrace, sealed: readonly PendingTx[], followed: (account: string) => boolean): LandedTrace {
  return {
    traceId: trace.traceId,
    norm: trace.externalHashNorm,
    endLt: sealed.reduce((end, tx) => (tx.lt > end ? tx.lt : end), 0n),
    sealed: sealed
      .filter((tx) => followed(tx.account))
      .map((tx) => ({ hash: tx.hash, account: tx.account, lt: tx.lt, text: pendingRenderer.render(tx, trace) })),
  };
}

/** State hashes per index read (an IN list). */
const HASHES_PER_READ = 500;

const BEFORE = ',"account_state_before":';
const AFTER = ',"account_state_after":';
const CONFIRMED_END = ',"emulated":false,"finality":"confirmed"}';
const HASH_AT = '{"hash":"';

interface Cut {
  /** The text up to its account states. */
  head: string;
  before: { hash: string; text: string };
  after: { hash: string; text: string };
}

/** A confirmed text cut where its account states are; undefined when it is not laid out as render.ts writes it. */
function cutStates(text: string): Cut | undefined {
  const b = text.lastIndexOf(BEFORE);
  const a = text.lastIndexOf(AFTER);
  if (b < 0 || a < b || !text.endsWith(CONFIRMED_END)) return undefined;
  const state = (from: number, to: number) => {
    const body = text.slice(from, to);
    if (!body.startsWith(HASH_AT)) return undefined;
    return { hash: body.slice(HASH_AT.length, body.indexOf('"', HASH_AT.length)), text: body };
  };
  const before = state(b + BEFORE.length, a);
  const after = state(a + AFTER.length, text.length - CONFIRMED_END.length);
  if (!before || !after) return undefined;
  return { head: text.slice(0, b), before, after };
}

const finalizedText = (cut: Cut, docs: Map<string, string>) =>
  `${cut.head}${BEFORE}${docs.get(cut.before.hash) ?? cut.before.text}${AFTER}${docs.get(cut.after.hash) ?? cut.after.text}` +
  `,"emulated":false,"finality":"finalized"}`;

/**
 * The early-confirmed traces' followed transactions (hashes in `followed`) at `finalized`, each trace `partial`
 * (no tree), in a /traces page's order (end_lt, then trace id), with its end lt for the caller's merge. A text
 * not laid out as render.ts writes it is left out, for the caller to read from the index.
 */
export async function finalizedFromConfirmed(
  reader: IndexReader,
  landed: Iterable<LandedTrace>,
  followed: Set<string>,
  seqno: number,
): Promise<SealedTrace[]> {
  const items = [...landed];
  // Rendered before `confirmed` was sent: already settled, waited for in one step.
  const texts = await Promise.all(items.map((item) => Promise.all(item.sealed.map((tx) => (followed.has(tx.hash) ? tx.text : '')))));
  const parts: { landed: LandedTrace; txs: { tx: LandedTx; pending: string; cut: Cut }[] }[] = [];
  for (const [i, item] of items.entries()) {
    const txs: { tx: LandedTx; pending: string; cut: Cut }[] = [];
    for (const [j, tx] of item.sealed.entries()) {
      if (!followed.has(tx.hash)) continue;
      const pending = texts[i][j];
      const cut = cutStates(sealedTransactionText(pending, seqno));
      if (cut) txs.push({ tx, pending, cut });
    }
    if (txs.length > 0) parts.push({ landed: item, txs });
  }
  const hashes = [...new Set(parts.flatMap((p) => p.txs.flatMap(({ cut }) => [cut.before.hash, cut.after.hash])))];
  const docs = new Map<string, string>();
  for (let at = 0; at < hashes.length; at += HASHES_PER_READ) {
    const chunk = hashes.slice(at, at + HASHES_PER_READ).map((hash) => Buffer.from(hash, 'base64'));
    for (const [hash, doc] of await reader.accountStateDocs(chunk)) docs.set(hash, doc);
  }
  const traces = parts.map(({ landed, txs }) => {
    // A /traces page's order within a trace: lt, then account.
    txs.sort(({ tx: x }, { tx: y }) => (x.lt === y.lt ? (x.account < y.account ? -1 : 1) : x.lt < y.lt ? -1 : 1));
    return {
      traceId: landed.traceId,
      norm: landed.norm,
      transactions: txs.map(({ tx, pending, cut }) => {
        let mentioned: string[] | undefined;
        return {
          hash: tx.hash,
          account: tx.account,
          lt: tx.lt,
          text: finalizedText(cut, docs),
          get mentioned() {
            return (mentioned ??= mentionedIn(pending));
          },
        };
      }),
      tree: 'null',
      partial: true,
      actions: [],
      addressBook: {},
      metadata: {},
      endLt: landed.endLt,
    };
  });
  return traces.sort(byPageOrder);
}
