/**
 * What block proofs are read for, from cells that may be Merkle proofs (pruned everywhere but on the path read):
 * the config of a key block or of a state, a masterchain state's list of earlier masterchain blocks, and the newest
 * block of a shard as a masterchain block records it. Field by field as block.tlb writes them.
 */
import type { Cell, Slice } from '@ton/core';
import { LiteDataError } from '../errors.js';
import { hashmapLookup, open } from './dict-path.js';

const BLOCK_EXTRA_TAG = 0x4a33f6fd;
const MC_BLOCK_EXTRA_TAG = 0xcca5;
const SHARD_STATE_TAG = 0x9023afe2;
const MC_STATE_EXTRA_TAG = 0xcc26;

export interface OldMcBlock {
  isKey: boolean;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface ShardTop {
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** Reads with a uniform error: whatever cannot be read in a proof is bad data from the server. */
function reading<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof LiteDataError) throw err;
    throw new LiteDataError(`${what}: unreadable (${(err as Error).message})`);
  }
}

/** Block -> extra -> custom McBlockExtra, positioned after its tag. */
function mcBlockExtra(block: Cell, what: string): Slice {
  const extra = open(block.refs[3], `${what}: block extra`);
  if (extra.loadUint(32) !== BLOCK_EXTRA_TAG) throw new LiteDataError(`${what}: not a block extra`);
  extra.loadRef();
  extra.loadRef();
  extra.loadRef(); // in_msg_descr, out_msg_descr, account_blocks
  extra.skip(256 + 256); // rand_seed, created_by
  const custom = extra.loadMaybeRef();
  if (!custom) throw new LiteDataError(`${what}: not a masterchain block`);
  const s = open(custom, `${what}: masterchain block extra`);
  if (s.loadUint(16) !== MC_BLOCK_EXTRA_TAG) throw new LiteDataError(`${what}: not a masterchain block extra`);
  return s;
}

/** The config dictionary a key block carries (McBlockExtra's config). */
export function keyBlockConfig(block: Cell): Cell {
  return reading('key block config', () => {
    const s = mcBlockExtra(block, 'key block config');
    if (!s.loadBit()) throw new LiteDataError('key block config: the block is not a key block');
    s.loadMaybeRef(); // shard_hashes
    s.loadMaybeRef(); // shard_fees: HashmapAugE root...
    s.loadCoins(); // ...and its extra ShardFeeCreated: fees, create (CurrencyCollection each)
    s.loadMaybeRef();
    s.loadCoins();
    s.loadMaybeRef();
    s.loadRef(); // prev_blk_signatures, recover_create_msg, mint_msg
    s.skip(256); // config_addr
    return s.loadRef();
  });
}

/** ShardStateUnsplit -> custom McStateExtra, positioned after its tag. */
function mcStateExtra(state: Cell, what: string): Slice {
  const s = open(state, `${what}: state`);
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new LiteDataError(`${what}: not a shard state`);
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef(); // out_msg_queue_info
  s.loadBit(); // before_split
  s.loadRef(); // accounts
  s.loadRef(); // overload/underload history, balances, libraries, master_ref
  const custom = s.loadMaybeRef();
  if (!custom) throw new LiteDataError(`${what}: not a masterchain state`);
  const extra = open(custom, `${what}: masterchain state extra`);
  if (extra.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new LiteDataError(`${what}: not a masterchain state extra`);
  return extra;
}

/** ShardStateUnsplit -> custom:(Maybe ^McStateExtra) -> config:^(Hashmap 32 ^Cell). */
export function stateConfig(state: Cell): Cell {
  return reading('config proof', () => {
    const extra = mcStateExtra(state, 'config proof');
    extra.loadMaybeRef(); // shard_hashes
    extra.skip(256); // config_addr
    const config = extra.loadRef();
    if (config.isExotic) throw new LiteDataError('config proof: the config is pruned');
    return config;
  });
}

/** Masterchain block `seqno` as a (proven) masterchain state lists it in prev_blocks (OldMcBlocksInfo). */
export function stateOldMcBlock(state: Cell, seqno: number): OldMcBlock | undefined {
  return reading('state proof', () => {
    const extra = mcStateExtra(state, 'state proof');
    extra.loadMaybeRef(); // shard_hashes
    extra.skip(256);
    extra.loadRef(); // config
    const more = open(extra.loadRef(), 'state proof: masterchain state extra');
    more.skip(16 + 32 + 32 + 1); // flags, validator_info
    const prevBlocks = more.loadMaybeRef();
    if (!prevBlocks) return undefined;
    const leaf = hashmapLookup(prevBlocks, BigInt(seqno), 32, 'state proof: previous masterchain blocks');
    if (!leaf) return undefined;
    leaf.skip(1 + 64); // extra KeyMaxLt
    const isKey = leaf.loadBit();
    leaf.skip(64); // end_lt
    const found = leaf.loadUint(32);
    if (found !== seqno) throw new LiteDataError(`state proof: entry ${seqno} names block ${found}`);
    return { isKey, seqno, rootHash: leaf.loadBuffer(32), fileHash: leaf.loadBuffer(32) };
  });
}

/** The newest block of exactly `shard` of `workchain` that a (proven) masterchain block records; undefined when none. */
export function shardTop(block: Cell, workchain: number, shard: bigint): ShardTop | undefined {
  return reading('shard block proof', () => {
    const s = mcBlockExtra(block, 'shard block proof');
    s.loadBit(); // key_block
    const hashes = s.loadMaybeRef();
    if (!hashes) return undefined;
    const leaf = hashmapLookup(hashes, BigInt.asUintN(32, BigInt(workchain)), 32, 'shard block proof: shard hashes');
    if (!leaf) return undefined;
    // BinTree ShardDescr: bt_fork$1 left:^ right:^ | bt_leaf$0 leaf:ShardDescr; descend along the shard's prefix.
    let node = open(leaf.loadRef(), 'shard block proof: shard tree');
    const depth = 63 - Number(BigInt.asUintN(64, shard & -shard).toString(2).length - 1);
    for (let i = 0; ; i++) {
      if (!node.loadBit()) {
        if (i !== depth) return undefined; // the tree splits the shard differently
        break;
      }
      if (i >= depth) return undefined;
      const left = node.loadRef();
      const right = node.loadRef();
      node = open(((shard >> BigInt(63 - i)) & 1n) === 1n ? right : left, 'shard block proof: shard tree');
    }
    const tag = node.loadUint(4);
    if (tag !== 0xa && tag !== 0xb) throw new LiteDataError(`shard block proof: not a shard description (tag ${tag})`);
    const seqno = node.loadUint(32);
    node.skip(32 + 64 + 64); // reg_mc_seqno, start_lt, end_lt
    return { seqno, rootHash: node.loadBuffer(32), fileHash: node.loadBuffer(32) };
  });
}
