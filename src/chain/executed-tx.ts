/**
 * What the producer needs from an emulated transaction, read straight from the transaction cell:
 * hash, lt range, time, the in/out message cells (the originals, so their hashes are the chain's) and
 * the account hash after it. The full @ton/core `Transaction` is parsed only when someone reads it
 * (see lazyTransaction, ton/transaction-cell.ts): the producer does not need it, and it costs as much again as this.
 */
import { Address, Cell, Dictionary, loadMessage, type Message } from '@ton/core';

export interface MessageCell {
  cell: Cell;
  hash: Buffer;
  message: Message;
}

export interface ExecutedTx {
  cell: Cell;
  /** The transaction BoC as the emulator wrote it. */
  boc: Buffer;
  hash: Buffer;
  account: Address;
  lt: bigint;
  /** First lt after this transaction and its out messages (what the account's last_trans_lt becomes). */
  endLt: bigint;
  now: number;
  inMsg: MessageCell | null;
  outMsgs: MessageCell[];
  /** HASH_UPDATE new_hash: the repr hash of the Account after the transaction. */
  accountHashAfter: Buffer;
  /** The ShardAccount after the transaction (BoC, base64), as the emulator returned it. */
  shardAccount: string;
}

export function readExecutedTx(workchain: number, txBase64: string, shardAccount: string): ExecutedTx {
  const boc = Buffer.from(txBase64, 'base64');
  const cell = Cell.fromBoc(boc)[0];
  const s = cell.beginParse();
  const tag = s.loadUint(4);
  if (tag !== 0b0111) throw new Error(`not a transaction cell (tag ${tag})`);
  const account = new Address(workchain, s.loadBuffer(32));
  const lt = s.loadUintBig(64);
  s.skip(256 + 64); // prev_trans_hash, prev_trans_lt
  const now = s.loadUint(32);
  const outCount = s.loadUint(15);

  const msgs = cell.refs[0].beginParse();
  const inMsg = msgs.loadBit() ? messageCell(msgs.loadRef()) : null;
  const outDict = msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMsgs = outDict
    .keys()
    .sort((a, b) => a - b)
    .map((k) => messageCell(outDict.get(k)!));

  // refs: [msgs, (extra currencies of total_fees, when any), state_update, description]
  const update = cell.refs[cell.refs.length - 2].beginParse();
  update.skip(8 + 256); // update_hashes#72 old_hash
  const accountHashAfter = update.loadBuffer(32);

  return {
    cell,
    boc,
    hash: cell.hash(),
    account,
    lt,
    endLt: lt + 1n + BigInt(outCount),
    now,
    inMsg,
    outMsgs,
    accountHashAfter,
    shardAccount,
  };
}

function messageCell(cell: Cell): MessageCell {
  return { cell, hash: cell.hash(), message: loadMessage(cell.beginParse()) };
}
