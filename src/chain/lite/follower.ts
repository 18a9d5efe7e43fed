/**
 * What the index (src/index) is fed from a real network: masterchain block N with every shard block it commits,
 * their transactions, and the state after N of every account they touched.
 *
 * On a real network a masterchain block names the newest block of each shard (its shard tops), and a shard may
 * have made several blocks since the previous masterchain block. So the shard blocks N commits are found by
 * walking back from N's tops, through each block's previous block(s) (two after a merge, the parent's after a
 * split), until a block that N-1 already named. Every block is fetched whole and checked against its id
 * (blocks.ts), once: the transactions come from it, and so do the touched accounts' new states (its state update,
 * block-accounts.ts); only an account the update does not hold whole is asked for, with its proof (proofs.ts).
 *
 * Pipelined: a head's blocks are downloaded while its proof is checked (`warm`), read as soon as it is proven
 * (`prefetch`), and while the index writes block N the next ones are read (`readAhead`), so a back-fill downloads
 * and writes at once. Every read runs as
 * the follower's (`asFollower`): within its own liteserver budget, never all of a server (follower-budget.ts).
 */
import type { Address } from '@ton/core';
import { Address as TonAddress } from '@ton/core';
import type { FeedBlock } from '../feed-block.js';
import type { AccountState, BlockId } from '../types.js';
import { accountAfterBlock, KnownCells } from './block-accounts.js';
import type { LoadedBlock } from './blocks.js';

/** A shard that made more blocks than this between two masterchain blocks is not walked further (a guard, not a rule of TON). */
const MAX_SHARD_BLOCKS_PER_MC_BLOCK = 256;

export interface FollowerDeps {
  masterchainBlock(seqno: number): Promise<LoadedBlock>;
  block(id: BlockId): Promise<LoadedBlock>;
  /** The proven state of an account after masterchain block `mcSeqno` (a liteserver query with proofs). */
  account(address: Address, mcSeqno: number): Promise<AccountState>;
  /** Runs the follower's reads within its liteserver budget (LitePool.asFollower). */
  asFollower<T>(fn: () => Promise<T>): Promise<T>;
  /** The newest masterchain seqno known: reading ahead stops there. */
  head(): number;
}

export interface FollowerOptions {
  /** Masterchain blocks read ahead of the one the index asks for (default 4). */
  readAhead?: number;
  /** Most account reads in flight at once (default 16). */
  accountConcurrency?: number;
  /**
   * Where touched accounts' states come from: 'blocks' (default: their block's state update, a proven read only
   * when it does not hold one whole) or 'proofs' (a proven read for each; what bench:lite compares against).
   */
  statesFrom?: 'blocks' | 'proofs';
}

export interface FollowerStats {
  /** Touched accounts whose state came from their block's state update. */
  accountsFromBlocks: number;
  /** Touched accounts read from a liteserver (the update did not hold them whole). */
  accountsQueried: number;
}

export class LiteFollower {
  private readonly known = new KnownCells();
  private readonly reads = new Map<number, Promise<FeedBlock>>();
  /** Reported heads whose blocks are being fetched before their proof is in (`warm`). */
  private readonly warming = new Set<number>();
  private readonly readAhead: number;
  private readonly accountConcurrency: number;
  private readonly statesFromBlocks: boolean;
  readonly stats: FollowerStats = { accountsFromBlocks: 0, accountsQueried: 0 };

  constructor(
    private readonly deps: FollowerDeps,
    options: FollowerOptions = {},
  ) {
    this.readAhead = options.readAhead ?? 4;
    this.accountConcurrency = options.accountConcurrency ?? 16;
    this.statesFromBlocks = (options.statesFrom ?? 'blocks') === 'blocks';
  }

  /** Masterchain block `seqno` with everything it commits; the next few start downloading meanwhile. */
  feedBlock(seqno: number): Promise<FeedBlock> {
    const read = this.read(seqno);
    this.reads.delete(seqno);
    // The index asks in order: what is below `seqno` is written already (or will be asked again).
    for (const kept of this.reads.keys()) if (kept < seqno) this.reads.delete(kept);
    for (let next = seqno + 1; next <= Math.min(seqno + this.readAhead, this.deps.head()); next++) this.read(next);
    return read;
  }

  /**
   * A head a liteserver reported, its proof not checked yet: its block and the shard blocks it commits are fetched
   * meanwhile (each checked against its hashes and kept by the blocks' cache), so that the read after the proof
   * finds them there instead of waiting for the same round trips. Nothing is fed from here: the index reads a block
   * only from a proven head (`prefetch`, `feedBlock`).
   */
  warm(id: BlockId): Promise<void> {
    if (this.reads.has(id.seqno) || this.warming.has(id.seqno)) return Promise.resolve();
    this.warming.add(id.seqno);
    return this.deps
      .asFollower(async () => void (await this.shardBlocks(await this.deps.block(id), id.seqno)))
      .catch(() => undefined) // the read after the proof asks again, and sees its failure
      .finally(() => this.warming.delete(id.seqno));
  }

  /** A new head: its block is read now, not once the index asks for it. */
  prefetch(seqno: number): void {
    this.read(seqno);
    // Only the newest few: an index that fell behind reads the older ones itself.
    for (const kept of this.reads.keys()) if (this.reads.size > this.readAhead + 1 && kept < seqno) this.reads.delete(kept);
  }

  private read(seqno: number): Promise<FeedBlock> {
    let read = this.reads.get(seqno);
    if (!read) {
      read = this.deps.asFollower(() => this.readBlock(seqno));
      // A failure is seen (and retried) by the index when it asks for the block; not an unhandled rejection here.
      read.catch(() => this.reads.delete(seqno));
      this.reads.set(seqno, read);
    }
    return read;
  }

  private async readBlock(seqno: number): Promise<FeedBlock> {
    const mc = await this.deps.masterchainBlock(seqno);
    const shards = await this.shardBlocks(mc, seqno);
    const transactions: FeedBlock['transactions'] = [];
    // Each touched account's last block in N (its state after N is the one that block left).
    const touched = new Map<string, { address: Address; block: LoadedBlock; lt: bigint }>();
    for (const loaded of [mc, ...shards]) {
      const { workchain, shard, seqno: blockSeqno } = loaded.block.id;
      for (const t of loaded.parsed.transactions) {
        transactions.push({ cell: t.cell, block: { workchain, shard, seqno: blockSeqno } });
        const key = `${workchain}:${t.account.toString('hex')}`;
        const seen = touched.get(key);
        if (!seen) touched.set(key, { address: new TonAddress(workchain, t.account), block: loaded, lt: t.lt });
        else if (t.lt > seen.lt) touched.set(key, { ...seen, block: loaded, lt: t.lt });
      }
    }
    const accounts: FeedBlock['accounts'] = [];
    const unknown: Address[] = [];
    for (const { address, block } of touched.values()) {
      const found = this.statesFromBlocks ? accountAfterBlock(block.root, address.hash, this.known) : undefined;
      if (!found) {
        unknown.push(address);
        continue;
      }
      this.known.learn(found.shardAccount.refs[0]);
      accounts.push({ address, cell: found.shardAccount });
    }
    this.stats.accountsFromBlocks += accounts.length;
    this.stats.accountsQueried += unknown.length;
    for (let i = 0; i < unknown.length; i += this.accountConcurrency) {
      const batch = unknown.slice(i, i + this.accountConcurrency);
      const states = await Promise.all(batch.map((address) => this.deps.account(address, seqno)));
      states.forEach((state, j) => {
        // Its code and data, now known whole, fill the same pruned cells in the next blocks.
        this.known.learn(state.shardAccount.refs[0]);
        accounts.push({ address: batch[j], cell: state.shardAccount });
      });
    }
    return { masterchain: mc.block, shards: shards.map((s) => s.block), transactions, accounts };
  }

  /** Every shard block N commits: walked back from each of N's shard tops (in parallel) to what N-1 named. */
  private async shardBlocks(mc: LoadedBlock, seqno: number): Promise<LoadedBlock[]> {
    const known = new Set<string>();
    // Masterchain block 0 is the zero state (no block): block 1's walk stops at the workchains' zero states.
    // N-1 by the id N names (N is checked against its own id, so this one is N's previous block): most often kept
    // already, as the head before; found by seqno it would cost a lookupBlock round trip every block.
    if (seqno > 1) {
      const previous = await this.deps.block(mc.block.prevBlocks[0]);
      for (const top of previous.block.shardBlocks ?? []) known.add(top.rootHash.toString('hex'));
    }
    const walks = (mc.block.shardBlocks ?? []).map(async (top) => {
      const found: LoadedBlock[] = [];
      const stack: BlockId[] = [top];
      while (stack.length > 0) {
        const id = stack.pop()!;
        const key = id.rootHash.toString('hex');
        // seqno 0 is a workchain's zero state, not a block.
        if (known.has(key) || id.seqno === 0 || found.length >= MAX_SHARD_BLOCKS_PER_MC_BLOCK) continue;
        known.add(key);
        const loaded = await this.deps.block(id);
        found.push(loaded);
        stack.push(...loaded.block.prevBlocks);
      }
      return found;
    });
    const shards = (await Promise.all(walks)).flat();
    return shards.sort(
      (a, b) =>
        a.block.id.workchain - b.block.id.workchain ||
        (a.block.id.shard < b.block.id.shard ? -1 : a.block.id.shard > b.block.id.shard ? 1 : 0) ||
        a.block.id.seqno - b.block.id.seqno,
    );
  }
}
