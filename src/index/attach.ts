/**
 * Keeps a network's index in step with its chain: every sealed block is written, in seqno order, once.
 *
 * Live blocks come from chain.onBlock (the sealed block in memory: nothing is read back). Blocks the
 * index has not seen (a fresh index on an existing data dir, a restart after a crash, a write that
 * failed) are read from the chain's store by seqno. One pump does both, so the order is the chain's
 * whatever the timing: it writes seqno N from the live event when it has one, else reads it.
 *
 * A write that fails (PostgreSQL down) is retried after a pause; meanwhile live blocks wait in memory,
 * up to a cap past which they are dropped and read from the chain's store once the index is back.
 */
import type { Address } from '@ton/core';
import { WHOLE_SHARD, type Block, type BlockRef, type Chain, type ChainTransaction, type SealedBlock } from '../chain/types.js';
import type { Index } from './open-index.js';
import type { IndexedBlock, IndexedTransaction } from './types.js';

/** What the index needs of a chain. */
export type IndexFeed = Pick<Chain, 'onBlock' | 'masterchainInfo' | 'getBlock' | 'shardsAt' | 'blockTransactions' | 'getAccount'> & {
  /** Local chains: the accounts their zero state starts with (they have no transaction to reveal them). */
  faucets?(): { address: Address }[];
};

export interface IndexLogger {
  error(object: object, message: string): void;
}

export interface AttachOptions {
  logger?: IndexLogger;
  /** Pause before retrying a failed write (default 1000 ms). */
  retryMs?: number;
  /** Live blocks kept while the index is behind (default 256); beyond, they are re-read from the chain. */
  maxPending?: number;
}

export interface IndexAttachment {
  /** Resolves once every masterchain block up to `seqno` (default: the chain's last) is in the index. */
  synced(seqno?: number): Promise<void>;
  /** The newest masterchain seqno written, -1 before the first. */
  lastIndexed(): number;
  /** Stops following the chain; resolves when the write in progress (if any) is done. */
  detach(): Promise<void>;
}

const TRANSACTIONS_PER_READ = 1000;

function indexedTransaction(t: ChainTransaction): IndexedTransaction {
  return { transaction: t.tx, block: t.block };
}

/** A live sealed block as the index's input. */
export function indexedFromSealed(sealed: SealedBlock): IndexedBlock {
  return {
    masterchain: sealed.masterchain,
    shards: [sealed.shard],
    transactions: sealed.transactions.map(indexedTransaction),
    accounts: sealed.accountStates.map(({ address, shardAccount }) => ({ address, shardAccount })),
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
export async function indexedFromChain(feed: IndexFeed, seqno: number): Promise<IndexedBlock> {
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
  if (seqno === 0) for (const { address } of feed.faucets?.() ?? []) addresses.set(address.toRawString(), address);
  const accounts = [];
  for (const address of addresses.values()) accounts.push({ address, shardAccount: (await feed.getAccount(address, seqno)).shardAccount });
  return { masterchain, shards, transactions: transactions.map(indexedTransaction), accounts };
}

/**
 * An index written from another chain (an ephemeral chain restarted against the same PostgreSQL
 * schema, a data dir swapped) would mix two histories: refuse it, saying what to do.
 */
async function assertSameChain(index: Index, feed: IndexFeed, last: number): Promise<void> {
  if (last < 0) return;
  const range = await index.reader.masterchainRange();
  const ours = range!.last;
  const theirs = last <= feed.masterchainInfo().last.id.seqno ? await feed.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: last }) : undefined;
  if (!theirs || !theirs.id.rootHash.equals(ours.id.rootHash)) {
    throw new Error(
      `the ${index.network} index (${index.store}) holds masterchain block ${last} of another chain; ` +
        'start from an empty index (delete index.sqlite, or drop the PostgreSQL schema) or point it at the chain it was written from',
    );
  }
}

/**
 * Follows `feed` into `index`: catches up from the index's last block to the chain's, then writes each
 * new block as it is sealed.
 */
export async function attachIndexToChain(index: Index, feed: IndexFeed, options: AttachOptions = {}): Promise<IndexAttachment> {
  const retryMs = options.retryMs ?? 1000;
  const maxPending = options.maxPending ?? 256;
  let written = await index.reader.lastMasterchainSeqno();
  await assertSameChain(index, feed, written);
  const pending = new Map<number, SealedBlock>();
  const waiters: { seqno: number; resolve: () => void }[] = [];
  let running: Promise<void> | undefined;
  let again = false;
  let detached = false;
  let retry: NodeJS.Timeout | undefined;

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].seqno <= written) waiters.splice(i, 1)[0].resolve();
    }
  };

  const pumpOnce = async () => {
    while (!detached) {
      const next = written + 1;
      if (next > feed.masterchainInfo().last.id.seqno) return;
      const live = pending.get(next);
      const block = live ? indexedFromSealed(live) : await indexedFromChain(feed, next);
      await index.writer.write(block);
      pending.delete(next);
      written = next;
      settle();
    }
  };

  const pump = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pumpOnce();
        } catch (err) {
          options.logger?.error({ err, seqno: written + 1 }, 'indexing a block failed; retrying');
          if (!detached && !retry) {
            retry = setTimeout(() => {
              retry = undefined;
              pump();
            }, retryMs);
            retry.unref();
          }
          return;
        }
      } while (again && !detached);
    })().finally(() => {
      running = undefined;
    });
  };

  const unsubscribe = feed.onBlock((sealed) => {
    const seqno = sealed.masterchain.id.seqno;
    if (seqno <= written) return;
    if (pending.size < maxPending) pending.set(seqno, sealed);
    pump();
  });
  pump();

  return {
    synced(seqno = feed.masterchainInfo().last.id.seqno) {
      if (seqno <= written) return Promise.resolve();
      return new Promise((resolve) => {
        waiters.push({ seqno, resolve });
        pump();
      });
    },
    lastIndexed: () => written,
    async detach() {
      detached = true;
      unsubscribe();
      clearTimeout(retry);
      await running;
      pending.clear();
    },
  };
}
