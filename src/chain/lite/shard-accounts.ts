/**
 * The entry of one account in a shard state's account dictionary (ShardStateUnsplit.accounts: HashmapAugE 256
 * ShardAccount DepthBalanceInfo), walked along the account id's bits, for states that are partly pruned: a
 * liteserver's state proof (proofs.ts) or a block's state update (block-accounts.ts). Each caller says what a
 * pruned cell on the path means (`open`): a proof that does not cover what it claims to, or a part the block did
 * not change.
 */
import type { Cell, Slice } from '@ton/core';
import { readLabel } from './block-proofs/dict-path.js';

const SHARD_STATE_TAG = 0x9023afe2;

export interface ShardAccountEntry {
  /** The Account cell (may hold pruned cells below it). */
  account: Cell;
  lastTxHash: Buffer;
  lastTxLt: bigint;
}

/**
 * The entry of `accountId` in `state` (a ShardStateUnsplit); null when the dictionary has no such key; undefined
 * when `open` answers undefined for a cell on the path (or the state is not a ShardStateUnsplit).
 */
export function findShardAccountEntry(
  state: Cell,
  accountId: Buffer,
  open: (cell: Cell) => Slice | undefined,
): ShardAccountEntry | null | undefined {
  const s = open(state);
  if (!s || s.loadUint(32) !== SHARD_STATE_TAG) return undefined;
  // global_id, shard_ident (2+6+32+64), seq_no, vert_seq_no, gen_utime, gen_lt, min_ref_mc_seqno
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef(); // out_msg_queue_info
  s.loadBit(); // before_split
  const accounts = open(s.loadRef());
  if (!accounts) return undefined;
  if (!accounts.loadBit()) return null; // an empty dictionary
  let node = open(accounts.loadRef());
  let remaining = 256;
  let keyPos = 0;
  for (;;) {
    if (!node) return undefined;
    const label = readLabel(node, remaining);
    for (const bit of label) {
      if (bit !== keyBit(accountId, keyPos)) return null; // the path leaves the key: no such account
      keyPos++;
    }
    remaining -= label.length;
    if (remaining === 0) break;
    // Fork: left (0) and right (1) children.
    const left = node.loadRef();
    const right = node.loadRef();
    node = open(keyBit(accountId, keyPos) ? right : left);
    keyPos++;
    remaining--;
  }
  // Leaf: DepthBalanceInfo (split_depth:(#<= 30), balance:CurrencyCollection), then ShardAccount.
  node.loadUint(5);
  node.loadCoins();
  node.loadMaybeRef();
  return { account: node.loadRef(), lastTxHash: node.loadBuffer(32), lastTxLt: node.loadUintBig(64) };
}

function keyBit(key: Buffer, i: number): boolean {
  return ((key[i >> 3] >> (7 - (i & 7))) & 1) === 1;
}
