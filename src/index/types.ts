/**
 * What the index is fed (one sealed masterchain block with everything it committed) and the query
 * shapes it answers. Values are @ton/core objects and bigints, as chain/ hands them over; the index
 * turns them into rows.
 */
import type { Address, Cell, Transaction } from '@ton/core';
import type { Block, BlockRef } from '../chain/types.js';
import type { InsertBatch } from './sql/driver.js';
import type { BlockTokens } from './tokens/block-tokens.js';
import type { BlockTraces } from './traces/block-traces.js';

export interface IndexedTransaction {
  /** The parsed transaction; `transaction.raw` is its cell and `transaction.hash()` its hash. */
  transaction: Transaction;
  /** The shard block (or masterchain block) that holds it. */
  block: BlockRef;
  /**
   * The ShardAccount cell right after this transaction, when the producer has it (the emulator returns
   * it with every transaction). It gives the index every intermediate state, so account_state_before
   * and account_state_after are known for an account with several transactions in one block.
   */
  shardAccountAfter?: Cell;
}

/** An account's state after the block: its ShardAccount cell (account_descr: ^Account, last tx hash, last tx lt). */
export interface IndexedAccountState {
  address: Address;
  shardAccount: Cell;
}

/** One sealed masterchain block and everything it committed; written in one DB transaction. */
export interface IndexedBlock {
  masterchain: Block;
  /** The shard blocks this masterchain block commits (its shard_hashes). */
  shards: Block[];
  /** Every transaction of the masterchain block and of those shard blocks, in lt order per account. */
  transactions: IndexedTransaction[];
  /** The state, after this block, of every account it changed. */
  accounts: IndexedAccountState[];
}

/**
 * One masterchain block as rows, or why it could not be rendered: what the render side (block-rows.ts,
 * the render thread) hands the commit side (block-committer.ts, the store thread).
 */
export interface RenderedBlock {
  seqno: number;
  /** Transactions in the block: what a group's size is counted in. */
  transactions: number;
  rows: InsertBatch[] | Error;
  /** The block's local traces (absent: a block rendered without them, e.g. by a test). */
  traces?: BlockTraces;
  /** What token detection looks at (tokens/block-tokens.ts); absent: nothing to detect. */
  tokens?: BlockTokens;
}

/** Where a rewind (rewind.ts) puts the index back to, and what the chain says of the accounts it changes. */
export interface IndexRewind {
  seqno: number;
  /** Accounts changed after `seqno`, with their ShardAccount BoC as of it (null: none then). */
  accounts: { address: Address; shardAccount: Buffer | Cell | null }[];
}

export type SortOrder = 'asc' | 'desc';

export interface Page {
  limit: number;
  offset: number;
}

/** lt and utime windows, inclusive on both ends (toncenter's start_/end_ parameters). */
export interface Window {
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

export interface BlockFilter extends Window {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
  mcSeqno?: number;
}

export interface TransactionFilter extends Window {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  /** Raw uppercase addresses. */
  accounts?: string[];
  excludeAccounts?: string[];
  hash?: Buffer;
  lt?: bigint;
  traceIds?: Buffer[];
}

/** /traces: at most one of account, traceIds, txHashes, msgHashes; the window bounds the trace's end. */
export interface TraceFilter extends Window {
  /** Raw uppercase address. */
  account?: string;
  traceIds?: Buffer[];
  txHashes?: Buffer[];
  /** A message's hash or its normalized hash. */
  msgHashes?: Buffer[];
  mcSeqno?: number;
}

export type Direction = 'in' | 'out';

export interface TransactionsByMessageFilter {
  msgHash?: Buffer;
  bodyHash?: Buffer;
  opcode?: number;
  direction?: Direction;
}

export interface MessageFilter extends Window {
  msgHashes?: Buffer[];
  bodyHash?: Buffer;
  /** Raw uppercase address, or null for "no source" (external-in messages). */
  source?: string | null;
  /** Raw uppercase address, or null for "no destination" (external-out messages). */
  destination?: string | null;
  opcode?: number;
  direction?: Direction;
  excludeExternals?: boolean;
  onlyExternals?: boolean;
}
