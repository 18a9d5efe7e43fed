/**
 * Blocks as a chain hands them to the index: headers, transaction cells and account-state cells, not
 * yet parsed. Parsing a transaction costs ~0.5 ms, more than indexing it; keeping the feed as cells
 * lets the parsing happen in the index's worker thread instead of the thread producing blocks.
 */
import { Cell, type Address } from '@ton/core';
import type { Block, BlockRef } from './types.js';

/** A cell, or its BoC bytes when the producer has them (then nobody in this thread parses it). */
export type CellSource = { cell: Cell } | { boc: Buffer };

export interface FeedBlock {
  masterchain: Block;
  shards: Block[];
  transactions: (CellSource & { block: BlockRef })[];
  /** The ShardAccount cell of every account the block changed. */
  accounts: (CellSource & { address: Address })[];
}

export function cellOf(source: CellSource): Cell {
  return 'cell' in source ? source.cell : Cell.fromBoc(source.boc)[0];
}
