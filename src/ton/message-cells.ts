/**
 * Messages as tonlib sees them: the message cell exactly as stored in the transaction (its hash is the
 * message hash), the body cell and the init cell. Re-serializing a parsed Message could choose
 * inline vs. ref differently and change the hash, so these come from the original cells:
 *   message$_ info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X)
 * An inline init or body becomes a cell of its own bits and refs (as tonlib builds it).
 */
import { Cell, loadCommonMessageInfo, loadStateInit, type CommonMessageInfo, type Slice, type Transaction } from '@ton/core';

export interface MessageParts {
  /** The message cell; its hash is the message hash. */
  cell: Cell;
  info: CommonMessageInfo;
  body: Cell;
  /** The StateInit cell, null when the message carries none. */
  init: Cell | null;
}

/** Splits a message cell into its parts. */
export function messageParts(cell: Cell): MessageParts {
  const cs = cell.beginParse();
  const info = loadCommonMessageInfo(cs);
  let init: Cell | null = null;
  if (cs.loadBit()) init = cs.loadBit() ? cs.loadRef() : takeInline(cs, loadStateInit);
  const body = cs.loadBit() ? cs.loadRef() : inlineBody(cs);
  return { cell, info, body, init };
}

/**
 * An inline body as a cell of its own. Most transfers carry an empty one: that is the one empty cell, not a new
 * cell built and hashed for each message (and bocBase64 knows its BoC).
 */
const inlineBody = (cs: Slice): Cell => (cs.remainingBits === 0 && cs.remainingRefs === 0 ? Cell.EMPTY : restAsCell(cs));

/**
 * What is left of a slice as a cell: its bits as a view of the message cell's (no copy: a Builder copied them bit by
 * bit, an inline body rarely starting on a byte boundary) and its references. `Slice.asCell()`'s cell.
 */
function restAsCell(cs: Slice): Cell {
  const bits = cs.loadBits(cs.remainingBits);
  const refs: Cell[] = [];
  while (cs.remainingRefs > 0) refs.push(cs.loadRef());
  return new Cell({ bits, refs });
}

/** Reads an inline structure with `load` and returns the bits and refs it spanned as a cell. */
function takeInline(cs: Slice, load: (s: Slice) => unknown): Cell {
  const before = cs.clone();
  const bitsBefore = cs.remainingBits;
  const refsBefore = cs.remainingRefs;
  load(cs);
  const bits = before.loadBits(bitsBefore - cs.remainingBits);
  const refs: Cell[] = [];
  for (let i = 0; i < refsBefore - cs.remainingRefs; i++) refs.push(before.loadRef());
  return new Cell({ bits, refs });
}

export interface TransactionMessageCells {
  inMessage: Cell | null;
  /** In creation order (out_msgs dictionary keys 0..n-1). */
  outMessages: Cell[];
}

/**
 * The message cells of a transaction, from its raw cell:
 *   transaction$0111 ... ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ] ...
 * The ^[...] cell is the transaction cell's first reference.
 */
export function transactionMessageCells(tx: Transaction): TransactionMessageCells {
  return messageCellsOf(tx.raw);
}

/** The same, from the transaction's cell. */
export function messageCellsOf(transaction: Cell): TransactionMessageCells {
  const cs = transaction.refs[0].beginParse();
  const inMessage = cs.loadMaybeRef();
  const root = cs.loadMaybeRef();
  const outMessages: Cell[] = [];
  if (root && !root.isExotic) dictRefs(root.beginParse(), 15, outMessages);
  return { inMessage, outMessages };
}

/**
 * The values of a HashmapE n ^X, in key order: a prefix tree walked left (bit 0) before right, so its leaves
 * come in ascending key order and no key needs reading. @ton/core's Dictionary read each key by building and
 * hashing a cell of it, then the values were sorted by key: a tenth of rendering a transaction. Its rules kept:
 * an exotic (pruned) branch is skipped.
 *   hm_edge label:(HmLabel ~l n) node:(HashmapNode m)  hmn_leaf value  hmn_fork left:^Hashmap right:^Hashmap
 *   hml_short$0 (Unary ~n) (n * Bit)  hml_long$10 (#<= n) (n * Bit)  hml_same$11 v:Bit (#<= n)
 */
function dictRefs(cs: Slice, n: number, out: Cell[]): void {
  const lengthBits = Math.ceil(Math.log2(n + 1));
  let label = 0;
  if (!cs.loadBit()) {
    while (cs.loadBit()) label++;
    cs.skip(label);
  } else {
    const same = cs.loadBit();
    if (same) cs.skip(1);
    label = cs.loadUint(lengthBits);
    if (!same) cs.skip(label);
  }
  if (n === label) {
    out.push(cs.loadRef());
    cs.endParse();
    return;
  }
  const left = cs.loadRef();
  const right = cs.loadRef();
  if (!left.isExotic) dictRefs(left.beginParse(), n - label - 1, out);
  if (!right.isExotic) dictRefs(right.beginParse(), n - label - 1, out);
}
