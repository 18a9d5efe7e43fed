/**
 * A followed transaction's `confirmed` made ahead of the seal, so that the seal's turn writes ready bytes.
 *
 * While a transaction waits in the open block its text is known (the render thread's) but for what the seal puts
 * in: its block's seqno and the finality (render.ts's sealedTransactionText). The block that will seal it is the
 * one it was executed for (PendingTx.openBlock: a local chain seals its open block as the next seqno). So when its
 * text comes back, in the open block's time, its confirmed text is made for that seqno, and with it the
 * `transactions` notification a client gets when this is its only transaction of the trace in the block and it
 * asked for no address book nor metadata (the bench's clients, and every wallet following its own address), as
 * UTF-8 bytes: the same bytes for every such client, encoded once, and framed once as a WebSocket text frame
 * (ws-frame.ts). At the seal they are used when the block that
 * sealed the transaction is the one expected; otherwise the texts are made then, as before.
 */
import type { PendingTrace, PendingTx } from '../pending/pending-traces.js';
import { sealedTransactionText } from '../pending/render.js';
import type { StreamConnection } from './connection.js';
import { transactionsNotification } from './notifications.js';
import { FramedText } from './ws-frame.js';

export interface ConfirmedAhead {
  /** The masterchain seqno it was made for. */
  seqno: number;
  /** The transaction's text at `confirmed` in that block. */
  text: string;
  /** The `transactions` notification of it alone, at `confirmed`, without address book or metadata, framed once. */
  alone: FramedText;
}

/** Kept beside the pending transaction (and gone with it): the pending layer knows nothing of notifications. */
const made = new WeakMap<PendingTx, ConfirmedAhead>();

/** Makes `tx`'s confirmed text and notification from its pending text, for the block it was executed for. */
export function prepareConfirmed(trace: PendingTrace, tx: PendingTx, pendingText: string): void {
  if (made.has(tx)) return;
  const seqno = tx.openBlock;
  const text = sealedTransactionText(pendingText, seqno);
  made.set(tx, { seqno, text, alone: new FramedText(transactionsNotification('confirmed', trace.externalHashNorm, [text])) });
}

/** What was made ahead for `tx`, when it was made for the block that sealed it (`seqno`). */
export function confirmedAhead(tx: PendingTx, seqno: number): ConfirmedAhead | undefined {
  const ahead = made.get(tx);
  return ahead !== undefined && ahead.seqno === seqno ? ahead : undefined;
}

/**
 * The seal's usual case, told without cutting anything: each follower of the trace's transactions this block
 * sealed (`sealed`, followers from `followers`) that gets them at `confirmed` gets exactly one, made ahead for this
 * block, and asked for no address book nor metadata; so each gets those bytes, and nothing of the trace's event
 * (its texts, getters, per-client filtering) needs building. The one walk of that rule (eachAlone) serves both
 * ways it is used: listed for a delivery that waits (aloneToEach), written at once (tellAlone).
 */

/**
 * Who gets what, as `visit(client, bytes, arg)` in the order the event's delivery writes them (the transactions in
 * order, each one's followers in theirs). A first pass asks every follower the rule's questions and finds the
 * bytes; only when all of them hold does a second pass visit (so nothing is visited when it does not hold: false).
 * It does not hold when any follower needs its text cut (two of its accounts among them, an address book,
 * metadata) or a transaction was not made ahead for this block. `visit` and `arg` apart, not a closure: the seal
 * walks ~800 traces a block.
 */
function eachAlone<A>(
  sealed: readonly PendingTx[],
  seqno: number,
  followers: (account: string) => ReadonlySet<StreamConnection> | undefined,
  visit: (c: StreamConnection, bytes: FramedText, arg: A) => void,
  arg: A,
): boolean {
  const n = sealed.length;
  for (let i = 0; i < n; i++) foundFollowers[i] = followers(sealed[i].account);
  for (let i = 0; i < n; i++) {
    const them = foundFollowers[i];
    if (them === undefined) continue;
    const tx = sealed[i];
    let bytes: FramedText | undefined;
    for (const c of them) {
      if (c.closed || !c.confirmedTransactions) continue;
      if (!c.confirmedAlone || followsAnother(c, i, n)) return forget(n);
      bytes ??= confirmedAhead(tx, tx.sealedIn ?? seqno)?.alone;
      if (bytes === undefined) return forget(n);
    }
    foundBytes[i] = bytes;
  }
  for (let i = 0; i < n; i++) {
    const bytes = foundBytes[i];
    const them = foundFollowers[i];
    foundBytes[i] = foundFollowers[i] = undefined;
    if (bytes === undefined) continue;
    // A client closed by a write here (it left too much unread) leaves its set meanwhile: a Set's iteration allows it.
    for (const c of them!) {
      if (c.closed || !c.confirmedTransactions) continue;
      visit(c, bytes, arg);
    }
  }
  return true;
}

/**
 * Whether `c` follows the account of another of the trace's transactions than the `i`th (it gets one notification
 * of both): asked of the followers found (an identity lookup in a set of connections), not of its addresses (a
 * string's hash and comparison per follower and transaction).
 */
function followsAnother(c: StreamConnection, i: number, n: number): boolean {
  for (let j = 0; j < n; j++) if (j !== i && foundFollowers[j]?.has(c)) return true;
  return false;
}

/** What eachAlone's first pass found per transaction, for its second (reused: the seal calls it per landed trace). */
const foundFollowers: (ReadonlySet<StreamConnection> | undefined)[] = [];
const foundBytes: (FramedText | undefined)[] = [];

/** The first pass gave up: what it kept of the trace's `n` transactions goes (false: eachAlone's answer). */
function forget(n: number): false {
  for (let i = 0; i < n; i++) foundBytes[i] = foundFollowers[i] = undefined;
  return false;
}

/** eachAlone's case as a list of who gets what, for a delivery that waits (hub.ts `fromPending`); undefined when it does not hold. */
export function aloneToEach(
  sealed: readonly PendingTx[],
  seqno: number,
  followers: (account: string) => ReadonlySet<StreamConnection> | undefined,
): [StreamConnection, FramedText][] | undefined {
  const out: [StreamConnection, FramedText][] = [];
  return eachAlone(sealed, seqno, followers, listPair, out) ? out : undefined;
}

function listPair(c: StreamConnection, bytes: FramedText, out: [StreamConnection, FramedText][]): void {
  out.push([c, bytes]);
}

/**
 * eachAlone's case written at once, without the list (the seal's turn, when nothing of the trace waits: hub.ts
 * `landed`): each client gets its bytes and is noted as told of the trace (`norm`). False, and nothing written,
 * when it does not hold.
 */
export function tellAlone(
  sealed: readonly PendingTx[],
  seqno: number,
  followers: (account: string) => ReadonlySet<StreamConnection> | undefined,
  norm: string,
): boolean {
  return eachAlone(sealed, seqno, followers, sendConfirmed, norm);
}

function sendConfirmed(c: StreamConnection, bytes: FramedText, norm: string): void {
  c.send(bytes);
  c.told(norm, 'confirmed');
}
