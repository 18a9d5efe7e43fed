/**
 * A FeedBlock across the thread boundary and back: cells packed as plain data (cell-transfer.ts),
 * addresses as raw strings. Structured clone turns every Buffer into a Uint8Array and keeps bigints;
 * the receiver wraps the bytes back into Buffers (the SQL drivers and the codecs expect Buffers).
 */
import { Address, Cell } from '@ton/core';
import { loadTransactionCell } from '../../ton/transaction-cell.js';
import type { Block, BlockId } from '../../chain/types.js';
import type { CellSource, FeedBlock } from '../../chain/feed-block.js';
import type { IndexedBlock } from '../types.js';
import { CellCache, CellPacker, unpackCells, type CellPool } from './cell-transfer.js';

export interface PackedBlock {
  masterchain: Block;
  shards: Block[];
  /** The cells of the entries that came as cells; those entries point into it by index. */
  cells: CellPool;
  transactions: { cell: number | Uint8Array; block: { workchain: number; shard: bigint; seqno: number } }[];
  accounts: { address: string; shardAccount: number | Uint8Array }[];
}

export function packBlock(block: FeedBlock): PackedBlock {
  const packer = new CellPacker();
  const pack = (source: CellSource): number | Uint8Array => ('boc' in source ? source.boc : packer.add(source.cell));
  const transactions = block.transactions.map((t) => ({
    cell: pack(t),
    block: { workchain: t.block.workchain, shard: t.block.shard, seqno: t.block.seqno },
  }));
  const accounts = block.accounts.map((a) => ({ address: a.address.toRawString(), shardAccount: pack(a) }));
  return { masterchain: block.masterchain, shards: block.shards, cells: packer.finish(), transactions, accounts };
}

/** Bytes that crossed a thread (a Uint8Array) as the Buffer they were, sharing the memory. */
export const buffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function reviveId<T extends BlockId>(id: T): T {
  return { ...id, rootHash: buffer(id.rootHash), fileHash: buffer(id.fileHash) };
}

function reviveBlock(block: Block): Block {
  return {
    ...block,
    id: reviveId(block.id),
    prevBlocks: block.prevBlocks.map(reviveId),
    ...(block.shardBlocks ? { shardBlocks: block.shardBlocks.map(reviveId) } : {}),
    stateRootHash: buffer(block.stateRootHash),
    randSeed: buffer(block.randSeed),
  };
}

/** The writer's input, transactions parsed (this runs in the index's worker). */
export function unpackBlock(packed: PackedBlock, cache?: CellCache): IndexedBlock {
  const cells = unpackCells(packed.cells, cache);
  const cell = (source: number | Uint8Array): Cell => (typeof source === 'number' ? cells[source] : Cell.fromBoc(buffer(source))[0]);
  return {
    masterchain: reviveBlock(packed.masterchain),
    shards: packed.shards.map(reviveBlock),
    transactions: packed.transactions.map((t) => ({ transaction: loadTransactionCell(cell(t.cell)), block: t.block })),
    accounts: packed.accounts.map((a) => ({ address: Address.parseRaw(a.address), shardAccount: cell(a.shardAccount) })),
  };
}
