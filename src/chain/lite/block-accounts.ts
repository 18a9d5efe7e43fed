/**
 * The state after a block of the accounts it touched, read from the block itself instead of asked for one by one.
 *
 * A block carries its state update (`state_update:^(MERKLE_UPDATE ShardState)`): the shard state after the block
 * with every cell the block did not change pruned. An account with a transaction in the block changed (its
 * ShardAccount holds the last transaction's lt and hash), so its path in the state's account dictionary and its
 * Account cell are there whole; what the block did not change under it (a wallet's code, most often) is a pruned
 * branch, which only carries the hash of the cell it stands for. Those are filled from `KnownCells`: cells seen
 * whole before (in an account state a liteserver proved), matched by hash, so nothing unproven gets in. An account
 * that still has a pruned cell is left for the caller to ask a liteserver for (with its proof), once; its code and
 * data are then known for the next blocks.
 *
 * Trust: the block was checked against its file and root hash (blocks.ts), so every cell in it, the state update
 * included, is the block's own; a filled-in cell has the hash the block names. The result is the same ShardAccount
 * a proven getAccountState gives (proofs.ts), with no query per account: a block of 200 wallet transactions costs
 * one getBlock instead of 201 queries with proofs (the follower's main cost, and its lag).
 */
import { beginCell, Cell, CellType, type Slice } from '@ton/core';
import { findShardAccountEntry } from './shard-accounts.js';

const ACCOUNT_NONE = beginCell().storeBit(false).endCell();
const NO_HASH = Buffer.alloc(32);

/** Cells seen whole, by hash, to stand in for pruned branches; bounded (least recently used go first). */
export class KnownCells {
  private readonly cells = new Map<string, Cell>();
  private bytes = 0;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  get(hash: Buffer): Cell | undefined {
    const key = hash.toString('hex');
    const cell = this.cells.get(key);
    if (cell) {
      this.cells.delete(key);
      this.cells.set(key, cell);
    }
    return cell;
  }

  /** Learns every cell of `root`'s tree (a proven account's Account cell): its code and data, whole. */
  learn(root: Cell): void {
    const stack = [root];
    while (stack.length > 0) {
      const cell = stack.pop()!;
      if (cell.level() !== 0) continue;
      const key = cell.hash().toString('hex');
      if (this.cells.has(key)) continue;
      this.cells.set(key, cell);
      this.bytes += weight(cell);
      stack.push(...cell.refs);
    }
    for (const [key, cell] of this.cells) {
      if (this.bytes <= this.maxBytes) break;
      this.cells.delete(key);
      this.bytes -= weight(cell);
    }
  }

  get size(): number {
    return this.cells.size;
  }
}

function weight(cell: Cell): number {
  return 96 + (cell.bits.length >> 3);
}

export interface BlockAccount {
  /** ShardAccount: ^Account, last_trans_hash, last_trans_lt (as proofs.ts builds it). */
  shardAccount: Cell;
  lastTxLt: bigint;
}

/**
 * The ShardAccount of `accountId` after the block whose root is `blockRoot`, or undefined when the block's state
 * update does not hold it whole (a pruned cell on its path, or under it and not known): ask a liteserver then.
 */
export function accountAfterBlock(blockRoot: Cell, accountId: Buffer, known: KnownCells): BlockAccount | undefined {
  try {
    const update = blockRoot.refs[2];
    if (update?.type !== CellType.MerkleUpdate) return undefined;
    const entry = findShardAccountEntry(update.refs[1], accountId, open);
    if (entry === undefined) return undefined;
    if (entry === null) return { shardAccount: shardAccountCell(ACCOUNT_NONE, NO_HASH, 0n), lastTxLt: 0n };
    const account = whole(entry.account, known);
    if (!account) return undefined;
    return { shardAccount: shardAccountCell(account, entry.lastTxHash, entry.lastTxLt), lastTxLt: entry.lastTxLt };
  } catch {
    // Not the layout expected (a split state, a dictionary read wrong): the liteserver's proven answer decides.
    return undefined;
  }
}

function shardAccountCell(account: Cell, lastTxHash: Buffer, lastTxLt: bigint): Cell {
  return beginCell().storeRef(account).storeBuffer(lastTxHash).storeUint(lastTxLt, 64).endCell();
}

/** `cell` with every pruned branch under it replaced by the known cell of that hash; undefined when one is not known. */
function whole(cell: Cell, known: KnownCells): Cell | undefined {
  if (cell.level() === 0) return cell;
  if (cell.type === CellType.PrunedBranch) return known.get(cell.hash(0));
  if (cell.isExotic) return undefined;
  const refs: Cell[] = [];
  for (const ref of cell.refs) {
    const filled = whole(ref, known);
    if (!filled) return undefined;
    refs.push(filled);
  }
  return new Cell({ bits: cell.bits, refs });
}

/** A cell of the path: a pruned one is a part the block did not change, so it cannot tell. */
function open(cell: Cell): Slice | undefined {
  return cell.isExotic ? undefined : cell.beginParse();
}
