/**
 * Pending transactions and traces as toncenter's v3 writes emulated ones: the transaction JSON the index writes
 * (src/ton's codecs), with `emulated: true`, `finality: "pending"`, `mc_block_seqno` 0 and block seqno 0 (no
 * block holds it yet), the trace id its root's hash; a trace as /traces writes one, `trace_state: "pending"`,
 * `mc_seqno_start`/`mc_seqno_end` "0", with its actions as the caller gives them (their texts: actions.ts classifies).
 * A transaction is rendered once, when first asked for (~0.1-0.2 ms: parsing its cell), and kept with it.
 */
import type { Cell } from '@ton/core';
import type { OpenBlockTransaction } from '../chain/types.js';
import { knowHash } from '../ton/core-speedups.js';
import { messageCellsOf } from '../ton/message-cells.js';
import { v3Transaction, type KnownHashes, type V3TransactionJson } from '../ton/transaction-v3-json.js';
import { loadTransactionCell } from '../ton/transaction-cell.js';
import { WHOLE_SHARD } from '../ton/workchain.js';
import { traceTree } from '../api/v3/format/trace-tree.js';
import type { PendingTrace, PendingTx } from './pending-traces.js';

/**
 * A transaction of a pending trace as v3 JSON text (pure: the render thread runs it too). `hashes`: the
 * transaction's and its messages' hashes the chain computed (pendingHashes), written as they are.
 */
export function renderPending(cell: Cell, workchain: number, traceId: string, hashes?: KnownHashes): string {
  if (hashes?.messageRefs) knowMessageRefs(cell, hashes.messageRefs);
  const json: Omit<V3TransactionJson, 'finality'> & { finality: string } = v3Transaction(loadTransactionCell(cell), {
    block: { workchain, shard: WHOLE_SHARD, seqno: 0 },
    mcBlockSeqno: 0,
    traceId,
    emulated: true,
    hashes,
    // Read from the emulator's BoC (or @ton/core's toBoc of it): equal cells are one object, so bodies and state
    // inits are written without hashing their cells.
    uniqueCells: true,
  });
  // In its place, the last key (no copy of the object).
  json.finality = 'pending';
  return JSON.stringify(json);
}

/**
 * What the chain already knows of a pending transaction's hashes (base64, as the v3 JSON writes them), and the
 * hashes of its messages' references (its cells were read on this thread, every one hashed then).
 */
export const pendingHashes = (tx: PendingTx): KnownHashes => ({
  transaction: tx.hash,
  inMessage: tx.inMsg,
  outMessages: tx.outMsgs,
  messageRefs: messageRefHashes(tx.source),
});

/**
 * The hashes of the in message's references, then of each out message's, 32 bytes each: the bodies and state inits
 * a text writes the hashes of (the body of a wallet's transfer, its StateInit with the wallet's code on a deploy).
 */
export function messageRefHashes(source: OpenBlockTransaction): Uint8Array | undefined {
  let count = source.inMsg?.cell.refs.length ?? 0;
  for (const out of source.outMsgs) count += out.cell.refs.length;
  if (count === 0) return undefined;
  const hashes = new Uint8Array(32 * count);
  let at = 0;
  const add = (message: Cell) => {
    for (const ref of message.refs) {
      hashes.set(ref.hash(), at);
      at += 32;
    }
  };
  if (source.inMsg) add(source.inMsg.cell);
  for (const out of source.outMsgs) add(out.cell);
  return hashes;
}

/** Hands a transaction's message references their hashes (messageRefHashes), when they are as many. */
function knowMessageRefs(transaction: Cell, hashes: Uint8Array): void {
  const { inMessage, outMessages } = messageCellsOf(transaction);
  const refs = [...(inMessage?.refs ?? []), ...outMessages.flatMap((message) => message.refs)];
  if (refs.length * 32 !== hashes.length) return;
  const bytes = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
  refs.forEach((ref, i) => knowHash(ref, bytes.subarray(32 * i, 32 * i + 32)));
}

export function pendingTransactionText(tx: PendingTx, trace: PendingTrace): string {
  return (tx.rendered ??= renderPending(tx.source.cell, tx.source.account.workChain, trace.traceId, pendingHashes(tx)));
}

/**
 * The same transaction once a sealed block holds it, at finality `confirmed`: its block and masterchain seqno,
 * `emulated: false` (what the open block executed is what was sealed: same cell, same hash).
 */
export function sealedTransactionText(pendingText: string, seqno: number): string {
  // Found by position, not by regular expressions over the whole text (once per followed transaction, at the seal).
  const mc = pendingText.indexOf(MC_SEQNO);
  const block = pendingText.indexOf('"block_ref":{');
  const ref = pendingText.indexOf(REF_SEQNO, block);
  if (mc < 0 || block < mc || ref < 0 || !pendingText.endsWith(PENDING_END)) {
    return pendingText
      .replace(MC_SEQNO, `"mc_block_seqno":${seqno},`)
      .replace(/("block_ref":\{"workchain":-?\d+,"shard":"[0-9A-F]+","seqno":)0\}/, `$1${seqno}}`)
      .replace(/"emulated":true,"finality":"pending"\}$/, '"emulated":false,"finality":"confirmed"}');
  }
  return (
    `${pendingText.slice(0, mc)}"mc_block_seqno":${seqno},${pendingText.slice(mc + MC_SEQNO.length, ref)}"seqno":${seqno}}` +
    `${pendingText.slice(ref + REF_SEQNO.length, pendingText.length - PENDING_END.length)}"emulated":false,"finality":"confirmed"}`
  );
}

const MC_SEQNO = '"mc_block_seqno":0,';
const REF_SEQNO = '"seqno":0}';
const PENDING_END = '"emulated":true,"finality":"pending"}';

/** The accounts a transaction mentions, as toncenter's address book of a transaction page lists them. */
export function mentionedAccounts(tx: PendingTx): string[] {
  return mentionedIn(tx.rendered!);
}

/** The same, from a transaction's text. */
export function mentionedIn(text: string): string[] {
  const json = JSON.parse(text) as {
    account: string;
    in_msg: { source: string | null } | null;
    out_msgs: { destination: string | null }[];
  };
  return [json.account, json.in_msg?.source ?? '', ...json.out_msgs.map((m) => m.destination ?? '')].filter((a) => a !== '');
}

/** A pending trace's parts, in toncenter's order, for /pendingTraces and the streamed `trace` of finality pending. */
export interface PendingTraceParts {
  /** The trace object up to its `actions` (not included), as text. */
  head: string;
  tree: ReturnType<typeof traceTree>['root'];
  order: string[];
  /** hash -> the transaction's JSON text. */
  transactions: Map<string, string>;
}

/** A pending trace's transactions in (lt, account) order. */
export function pendingOrder(trace: PendingTrace): PendingTx[] {
  return [...trace.txs].sort((a, b) => (a.lt === b.lt ? (a.account < b.account ? -1 : 1) : a.lt < b.lt ? -1 : 1));
}

/** A pending trace's transactions in (lt, account) order, and its tree (hashes only: nothing is rendered). */
export function pendingTreeOf(trace: PendingTrace): { ordered: PendingTx[] } & ReturnType<typeof traceTree> {
  const ordered = pendingOrder(trace);
  return { ordered, ...traceTree(ordered.map((tx) => ({ hash: tx.hash, inMsg: tx.inMsg, outMsgs: tx.outMsgs }))) };
}

/**
 * `classified`: the trace's actions were classified (toncenter's `classification_state` "ok"; /pendingTraces always
 * classifies what it answers), else "unclassified".
 */
export function pendingTraceParts(trace: PendingTrace, classified = false): PendingTraceParts {
  const { ordered, root, warning } = pendingTreeOf(trace);
  const first = ordered[0];
  const last = ordered.reduce((a, b) => (b.lt > a.lt ? b : a), first);
  const info = {
    trace_state: 'pending',
    messages: trace.messages,
    transactions: ordered.length,
    pending_messages: trace.openEdges.size,
    classification_state: classified ? 'ok' : 'unclassified',
  };
  const head =
    `{"trace_id":${JSON.stringify(trace.traceId)},"external_hash":${JSON.stringify(trace.externalHash)}` +
    `,"mc_seqno_start":"0","mc_seqno_end":"0","start_lt":"${first.lt}","start_utime":${first.now},"end_lt":"${last.lt}","end_utime":${last.now}` +
    `,"trace_info":${JSON.stringify(info)},"is_incomplete":false` +
    (warning ? `,"warning":${JSON.stringify(warning)}` : '');
  const transactions = new Map(ordered.map((tx) => [tx.hash, pendingTransactionText(tx, trace)]));
  return { head, tree: root, order: ordered.map((tx) => tx.hash), transactions };
}

/** `actions`: the texts of the trace's actions as the answer writes them (none: `[]`). */
export function pendingTraceText(parts: PendingTraceParts, actions: readonly string[] = []): string {
  const txs = parts.order.map((hash) => `${JSON.stringify(hash)}:${parts.transactions.get(hash)}`).join(',');
  return `${parts.head},"actions":[${actions.join(',')}],"trace":${JSON.stringify(parts.tree)},"transactions_order":${JSON.stringify(parts.order)},"transactions":{${txs}}}`;
}
