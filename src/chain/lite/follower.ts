/**
 * What the index (src/index) is fed from a real network: masterchain block N with every shard block it commits,
 * their transactions, and the state after N of every account they touched.
 *
 * On a real network a masterchain block names the newest block of each shard (its shard tops), and a shard may
 * have made several blocks since the previous masterchain block. So the shard blocks N commits are found by
 * walking back from N's tops, through each block's previous block(s) (two after a merge, the parent's after a
 * split), until a block that N-1 already named. Every block is fetched whole and checked against its id
 * (blocks.ts); account states come with their proofs (proofs.ts).
 */
import type { Address } from '@ton/core';
import { Address as TonAddress } from '@ton/core';
import type { FeedBlock } from '../../index/feed.js';
import type { AccountState, BlockId } from '../types.js';
import type { LoadedBlock } from './blocks.js';

/** A shard that made more blocks than this between two masterchain blocks is not walked further (a guard, not a rule of TON). */
const MAX_SHARD_BLOCKS_PER_MC_BLOCK = 256;

export interface FollowerDeps {
  masterchainBlock(seqno: number): Promise<LoadedBlock>;
  block(id: BlockId): Promise<LoadedBlock>;
  account(address: Address, mcSeqno: number): Promise<AccountState>;
  /** Most account reads in flight at once (the liteservers' budget). */
  accountConcurrency: number;
}

export async function feedMasterchainBlock(deps: FollowerDeps, seqno: number): Promise<FeedBlock> {
  const mc = await deps.masterchainBlock(seqno);
  const known = new Set<string>();
  // Masterchain block 0 is the zero state (no block): block 1's walk stops at the workchains' zero states.
  if (seqno > 1) {
    const previous = await deps.masterchainBlock(seqno - 1);
    for (const top of previous.block.shardBlocks ?? []) known.add(top.rootHash.toString('hex'));
  }
  const shards: LoadedBlock[] = [];
  for (const top of mc.block.shardBlocks ?? []) {
    const stack: BlockId[] = [top];
    let walked = 0;
    while (stack.length > 0) {
      const id = stack.pop()!;
      const key = id.rootHash.toString('hex');
      // seqno 0 is a workchain's zero state, not a block.
      if (known.has(key) || id.seqno === 0 || walked >= MAX_SHARD_BLOCKS_PER_MC_BLOCK) continue;
      known.add(key);
      walked++;
      const loaded = await deps.block(id);
      shards.push(loaded);
      stack.push(...loaded.block.prevBlocks);
    }
  }
  shards.sort((a, b) => a.block.id.workchain - b.block.id.workchain || (a.block.id.shard < b.block.id.shard ? -1 : a.block.id.shard > b.block.id.shard ? 1 : 0) || a.block.id.seqno - b.block.id.seqno);

  const transactions: FeedBlock['transactions'] = [];
  const touched = new Map<string, Address>();
  for (const loaded of [mc, ...shards]) {
    const { workchain, shard, seqno: blockSeqno } = loaded.block.id;
    for (const t of loaded.parsed.transactions) {
      transactions.push({ cell: t.cell, block: { workchain, shard, seqno: blockSeqno } });
      const address = new TonAddress(workchain, t.account);
      touched.set(address.toRawString(), address);
    }
  }
  const addresses = [...touched.values()];
  const accounts: FeedBlock['accounts'] = [];
  for (let i = 0; i < addresses.length; i += deps.accountConcurrency) {
    const batch = addresses.slice(i, i + deps.accountConcurrency);
    const states = await Promise.all(batch.map((address) => deps.account(address, seqno)));
    states.forEach((state, j) => accounts.push({ address: batch[j], cell: state.shardAccount }));
  }
  return { masterchain: mc.block, shards: shards.map((s) => s.block), transactions, accounts };
}
