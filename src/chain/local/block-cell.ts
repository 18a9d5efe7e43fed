/**
 * Block ids of the local chain: the documented deterministic substitute for TL-B `Block` cells.
 *
 * Every block (masterchain and basechain alike) is one ordinary cell, the "block cell":
 *
 *   block_cell:
 *     magic:uint32 = 0x74676231 ("tgb1")   global_id:int32   workchain:int32   shard:uint64
 *     seqno:uint32   gen_utime:uint32   start_lt:uint64   end_lt:uint64   tx_count:uint32
 *     ^prev_blocks: block_id_list        (the previous block of the same chain; none for seqno 0)
 *     ^refs:        block_id_list        (masterchain: the shard block(s) it commits;
 *                                        basechain: the masterchain block it was built on)
 *     ^hashes:      rand_seed:bits256 tx_tree_hash:bits256 state_hash:bits256
 *   block_id_list: a cell with up to 3 ids of 640 bits: workchain:int32 shard:uint64 seqno:uint32
 *                  root_hash:bits256 file_hash:bits256 (empty cell for none)
 *
 *   tx_tree_hash: repr hash of the hash tree (below) of the block's transaction hashes, in execution
 *                 order (all zero bits for a block without transactions)
 *   state_hash:   basechain: repr hash of the cell (prev_state_hash:bits256 changes_hash:bits256),
 *                 where changes_hash is the root hash of the hash tree of (account_id:bits256 account_hash:bits256) for every account the
 *                 block changed, ordered by account id, account_hash being the HASH_UPDATE new_hash of
 *                 its last transaction in the block (for the zero state: the repr hash of its Account
 *                 cell), prev_state_hash the previous basechain block's state_hash (zeros at seqno 0);
 *                 masterchain: repr hash of the cell (shard_state_hash:bits256 config_hash:bits256
 *                 prev_mc_state_hash:bits256), with a reference to a cell holding mc_changes_hash:bits256 when
 *                 the block changed masterchain accounts (changes_hash as above, over those accounts).
 *
 *   hash tree of fixed-size items: leaves hold floor(1023 / item_bits) items each, in order; every
 *   level above groups 4 consecutive cells as refs of one cell, until one cell is left.
 *
 *   root_hash = repr hash of block_cell;  file_hash = sha256(BoC of block_cell, no index, no crc).
 *
 * The trees are linked by hash, not by reference, so the block cell's BoC stays a few hundred bytes
 * whatever the block holds (serializing a 2,000-transaction tree took ~30 ms here), while its root
 * hash still commits to every transaction and state change. The trees are built in slices that yield
 * to the event loop, so sealing a full block never holds it for long.
 */
import { createHash } from 'node:crypto';
import { beginCell, Builder, Cell } from '@ton/core';
import type { BlockId } from '../types.js';
import { yieldToEventLoop } from './lane.js';

const BLOCK_MAGIC = 0x74676231;
const ZERO_HASH = Buffer.alloc(32);

/** How much tree building may run before it yields to the event loop. */
const SLICE_MS = 3;

/** Builds the hash tree of `items` (each `itemBits` long) and returns its root hash; zeros for none. */
export async function hashTreeRoot(items: Buffer[], itemBits: number): Promise<Buffer> {
  if (items.length === 0) return ZERO_HASH;
  const perLeaf = Math.floor(1023 / itemBits);
  let sliceStart = performance.now();
  const maybeYield = async () => {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  };
  let level: Cell[] = [];
  for (let i = 0; i < items.length; i += perLeaf) {
    const b = beginCell();
    for (const item of items.slice(i, i + perLeaf)) b.storeBuffer(item);
    level.push(b.endCell());
    await maybeYield();
  }
  while (level.length > 1) {
    const next: Cell[] = [];
    for (let i = 0; i < level.length; i += 4) {
      const b = beginCell();
      for (const c of level.slice(i, i + 4)) b.storeRef(c);
      next.push(b.endCell());
      await maybeYield();
    }
    level = next;
  }
  return level[0].hash();
}

export interface BlockCellFields {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  txCount: number;
  randSeed: Buffer;
  txTreeHash: Buffer;
  stateHash: Buffer;
  prevBlocks: BlockId[];
  refs: BlockId[];
}

export interface BuiltBlockCell {
  cell: Cell;
  boc: Buffer;
  rootHash: Buffer;
  fileHash: Buffer;
}

function storeBlockIdList(ids: BlockId[]): Cell {
  if (ids.length > 3) throw new Error('a block id list holds at most 3 ids');
  const b = beginCell();
  for (const id of ids) {
    b.storeInt(id.workchain, 32).storeUint(id.shard, 64).storeUint(id.seqno, 32).storeBuffer(id.rootHash).storeBuffer(id.fileHash);
  }
  return b.endCell();
}

export function buildBlockCell(f: BlockCellFields): BuiltBlockCell {
  const cell = new Builder()
    .storeUint(BLOCK_MAGIC, 32)
    .storeInt(f.globalId, 32)
    .storeInt(f.workchain, 32)
    .storeUint(f.shard, 64)
    .storeUint(f.seqno, 32)
    .storeUint(f.genUtime, 32)
    .storeUint(f.startLt, 64)
    .storeUint(f.endLt, 64)
    .storeUint(f.txCount, 32)
    .storeRef(storeBlockIdList(f.prevBlocks))
    .storeRef(storeBlockIdList(f.refs))
    .storeRef(beginCell().storeBuffer(f.randSeed).storeBuffer(f.txTreeHash).storeBuffer(f.stateHash).endCell())
    .endCell();
  const boc = cell.toBoc({ idx: false, crc32: false });
  return { cell, boc, rootHash: cell.hash(), fileHash: createHash('sha256').update(boc).digest() };
}

/** Basechain state hash: (prev_state_hash, changes_hash) as described above. */
export async function shardStateHash(prevStateHash: Buffer, changes: AccountChange[]): Promise<Buffer> {
  return beginCell()
    .storeBuffer(prevStateHash)
    .storeBuffer(await changesHash(changes))
    .endCell()
    .hash();
}

export interface AccountChange {
  accountId: Buffer;
  accountHash: Buffer;
}

/** changes_hash: the hash tree of (account_id, account_hash), ordered by account id. */
export function changesHash(changes: AccountChange[]): Promise<Buffer> {
  const sorted = [...changes].sort((a, b) => Buffer.compare(a.accountId, b.accountId));
  return hashTreeRoot(
    sorted.map((c) => Buffer.concat([c.accountId, c.accountHash])),
    512,
  );
}

/** Masterchain state hash: (shard_state_hash, config_hash, prev_mc_state_hash[, mc_changes_hash]). */
export async function masterStateHash(
  shardStateHash: Buffer,
  configHash: Buffer,
  prevMcStateHash: Buffer,
  mcChanges: AccountChange[] = [],
): Promise<Buffer> {
  const b = beginCell().storeBuffer(shardStateHash).storeBuffer(configHash).storeBuffer(prevMcStateHash);
  if (mcChanges.length > 0) b.storeRef(beginCell().storeBuffer(await changesHash(mcChanges)));
  return b.endCell().hash();
}
