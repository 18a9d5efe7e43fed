/**
 * The layout of the stored JSON documents: what a row's `doc` holds (block-rows.ts writes it with these) and
 * where a read cuts it to put back what the row keeps elsewhere (api/v3/format). Reads splice text instead of
 * parsing and writing whole documents again, so the cuts depend on key order: the writer and the cutter are
 * kept here together.
 *
 * A transaction's document is its v3 JSON (src/ton/transaction-v3-json.ts, keys in that order) without the
 * account states, its messages as hashes (stored once, in `messages`) and no trace_id (known only after the
 * block's traces are linked):
 *   {..., "mc_block_seqno", "prev_trans_hash", ..., "block_ref", "in_msg": hash|null, "out_msgs": [hash...],
 *    "emulated", "finality"}
 * A message's document is its v3 JSON without in_msg_tx_hash/out_msg_tx_hash (the row's columns, filled as the
 * receiving and creating transactions are met); "message_content" follows every scalar field.
 */
import { formatHash } from '../ton/hash.js';
import type { V3MessageJson } from '../ton/message-json.js';
import type { V3TransactionJson } from '../ton/transaction-v3-json.js';

/** A stored transaction document's fields from its messages on. */
export interface StoredTransactionTail {
  /** Message hashes (base64). */
  in_msg: string | null;
  out_msgs: string[];
  emulated: boolean;
  finality: string;
}

/** A stored transaction document cut where its messages begin. */
export interface StoredTransaction {
  /** The document's text up to its messages: an object left open, without its comma. */
  head: string;
  tail: StoredTransactionTail;
}

/** A transaction's stored document: `json` without its account states, its messages given as hashes. */
export function transactionDoc(json: V3TransactionJson, inMsg: string | null, outMsgs: string[]): string {
  const { account_state_before: _before, account_state_after: _after, ...rest } = json;
  // in_msg and out_msgs keep their places in rest's key order: the tail starts at in_msg.
  return JSON.stringify({ ...rest, in_msg: inMsg, out_msgs: outMsgs });
}

/** Cuts a stored transaction document where its messages begin (nothing after that point can contain this text). */
export function splitTransactionDoc(doc: string): StoredTransaction {
  const cut = doc.lastIndexOf(',"in_msg":');
  return { head: doc.slice(0, cut), tail: JSON.parse(`{${doc.slice(cut + 1)}`) as StoredTransactionTail };
}

/** The trace id in toncenter's place, after mc_block_seqno, in a head of splitTransactionDoc. */
export function headWithTraceId(head: string, traceId: Buffer | null): string {
  if (!traceId) return head;
  return head.replace(',"prev_trans_hash":', `,"trace_id":"${traceId.toString('base64')}","prev_trans_hash":`);
}

/** A message's stored document: `json` without the hashes of the transactions that received and created it. */
export function messageDoc(json: V3MessageJson): string {
  const { in_msg_tx_hash: _in, out_msg_tx_hash: _out, ...doc } = json;
  return JSON.stringify(doc);
}

const CONTENT = ',"message_content":';

/** A stored message document with the hashes of the transactions that received and created it, in toncenter's place. */
export function messageDocWithEnds(doc: string, inTxHash: Buffer | null, outTxHash: Buffer | null): string {
  let ends = '';
  if (inTxHash) ends += `,"in_msg_tx_hash":"${formatHash(inTxHash)}"`;
  if (outTxHash) ends += `,"out_msg_tx_hash":"${formatHash(outTxHash)}"`;
  if (ends === '') return doc;
  // message_content comes once, after every scalar field; a base64 body cannot contain this text.
  const cut = doc.indexOf(CONTENT);
  return `${doc.slice(0, cut)}${ends}${doc.slice(cut)}`;
}
