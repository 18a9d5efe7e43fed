/**
 * What the index needs of a chain (IndexFeed), and the blocks it is fed (chain/feed-block.ts): made from a live
 * sealed block or read back through the Chain methods, then parsed for the writer.
 */
import type { Address } from '@ton/core';
import { loadTransactionCell } from '../ton/transaction-cell.js';
import { cellOf, type FeedBlock } from '../chain/feed-block.js';
import type { Block, BlockRef, Chain, ChainTransaction, SealedBlock } from '../chain/types.js';
import { WHOLE_SHARD } from '../ton/workchain.js';
import type { IndexedBlock } from './types.js';

/**
 * Sealed-block entries may carry their BoC bytes (`boc`): the emulator returns transactions and
 * account states as BoCs, and passing those on spares both the parse here (the ShardAccount getter
 * parses on access) and any re-serialization.
 */
type WithBoc = { boc?: Buffer };

/** What the index needs of a chain. */
export type IndexFeed = Pick<Chain, 'onBlock' | 'masterchainInfo' | 'getBlock' | 'shardsAt' | 'blockTransactions' | 'getAccount'> & {
  /** Token detection's get-methods, at a block (tokens/README.md); without it no token contract is detected. */
  runGetMethod?: Chain['runGetMethod'];
  /**
   * Local chains: their get-methods always answer (the emulator's gas limit bounds each run), however long a machine
   * under load makes them wait, so the index waits for them. Without it one not answered within
   * GET_METHOD_TIMEOUT_MS fails and is retried at a later block (tokens/detection-retry.ts): a liteserver that hangs
   * must not hold the index's commits forever. A local chain mining by hand may make no later block, and a
   * detection failed only because the machine was busy would then never be done.
   */
  getMethodsAlwaysAnswer?: boolean;
  /** Local chains: the accounts their zero state starts with (they have no transaction to reveal them). */
  zeroStateAccounts?(): { address: Address }[];
  /**
   * Chains that read their blocks themselves (chain/lite: a masterchain block commits any number of shard blocks
   * per shard, found by walking back from its shard tops): masterchain block `seqno` with everything it commits.
   * Without it, feedFromChain reads the block through the Chain methods.
   */
  feedBlock?(seqno: number): Promise<FeedBlock>;
  /** Chains that hand no sealed blocks over (onBlock never fires): called with each new masterchain seqno. */
  onHead?(listener: (seqno: number) => void): () => void;
  /**
   * Local chains: every account masterchain block `seqno` changed, by a transaction or by a devnet state change
   * (which no transaction reveals). Without it, the accounts of the block's transactions.
   */
  changedAccounts?(seqno: number): Address[];
  /** Local chains: a snapshot restore dropped the blocks after a seqno (attach.ts rewinds the index with it). */
  onRewind?: Chain['onRewind'];
};

const TRANSACTIONS_PER_READ = 1000;

/** A live sealed block (nothing is parsed: the transactions' `tx` getters are not touched). */
export function feedFromSealed(sealed: SealedBlock): FeedBlock {
  return {
    masterchain: sealed.masterchain,
    shards: [sealed.shard],
    transactions: sealed.transactions.map((t) => {
      const { boc } = t as WithBoc;
      return boc ? { boc, block: t.block } : { cell: t.cell, block: t.block };
    }),
    // Read `boc` first: touching `shardAccount` would parse the cell.
    accounts: sealed.accountStates.map((a) => {
      const { boc } = a as WithBoc;
      return boc ? { address: a.address, boc } : { address: a.address, cell: a.shardAccount };
    }),
  };
}

async function blockTransactions(feed: IndexFeed, ref: BlockRef): Promise<ChainTransaction[]> {
  const all: ChainTransaction[] = [];
  let after: ChainTransaction | undefined;
  for (;;) {
    const page = await feed.blockTransactions(ref, { count: TRANSACTIONS_PER_READ, afterAccount: after?.account.hash, afterLt: after?.lt });
    all.push(...page.transactions);
    if (!page.incomplete || page.transactions.length === 0) return all;
    after = page.transactions[page.transactions.length - 1];
  }
}

/** A past block, read back from the chain's store. */
export async function feedFromChain(feed: IndexFeed, seqno: number): Promise<FeedBlock> {
  const masterchain = await feed.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno });
  if (!masterchain) throw new Error(`masterchain block ${seqno} is not in the chain's store`);
  const shards: Block[] = [];
  for (const id of await feed.shardsAt(seqno)) {
    const block = await feed.getBlock(id);
    // A shard block committed again by a later masterchain block (no new shard block) is already indexed.
    if (block && (block.masterRef?.seqno ?? seqno) === seqno) shards.push(block);
  }
  const transactions: ChainTransaction[] = [];
  for (const block of [masterchain, ...shards]) {
    if (block.txCount > 0) transactions.push(...(await blockTransactions(feed, block.id)));
  }
  const addresses = new Map<string, Address>();
  for (const t of transactions) addresses.set(t.account.toRawString(), t.account);
  for (const address of feed.changedAccounts?.(seqno) ?? []) addresses.set(address.toRawString(), address);
  if (seqno === 0) for (const { address } of feed.zeroStateAccounts?.() ?? []) addresses.set(address.toRawString(), address);
  const accounts = [];
  for (const address of addresses.values()) accounts.push({ address, cell: (await feed.getAccount(address, seqno)).shardAccount });
  return { masterchain, shards, transactions: transactions.map(({ cell, block }) => ({ cell, block })), accounts };
}

/** The writer's input: the same block with its transactions parsed. */
export function indexedFromFeed(block: FeedBlock): IndexedBlock {
  return {
    masterchain: block.masterchain,
    shards: block.shards,
    transactions: block.transactions.map((t) => ({ transaction: loadTransactionCell(cellOf(t)), block: t.block })),
    accounts: block.accounts.map((a) => ({ address: a.address, shardAccount: cellOf(a) })),
  };
}

/** A parsed block as a feed again (tools that generate blocks send them through the writer threads). */
export function feedFromIndexed(block: IndexedBlock): FeedBlock {
  return {
    masterchain: block.masterchain,
    shards: block.shards,
    transactions: block.transactions.map((t) => ({ cell: t.transaction.raw, block: t.block })),
    accounts: block.accounts.map((a) => ({ address: a.address, cell: a.shardAccount })),
  };
}
