/**
 * A seal's assembly: the open block turned into its basechain block and the masterchain block of the same seqno
 * committing it, and every row the store writes for the step. Pure: nothing is written and nothing moves here; the
 * producer writes the record, and only once it is committed makes the blocks visible (producer.ts).
 *
 * One step, two blocks: basechain transactions and accounts in the shard block, masterchain ones in the masterchain
 * block. Every transaction took its lt from the step's one counter (open-block.ts).
 */
import { BASECHAIN, MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import type { Block, BlockId } from '../types.js';
import { buildBlockCell, hashTreeRoot, masterStateHash, shardStateHash } from './block-cell.js';
import { makeBlock } from './blocks.js';
import type { ExecutedTx } from '../executed-tx.js';
import type { PublicLibraries } from './libraries.js';
import type { QueuedMessage } from './message-queue.js';
import { nextAlignedLt, type ChangedAccount, type OpenBlock } from './open-block.js';
import type { BlockRow, SealRecord } from './store-rows.js';

export interface SealInput {
  block: OpenBlock;
  /** The head the block is sealed on: the last sealed masterchain block and its basechain block. */
  head: { mc: Block; shard: Block };
  globalId: number;
  /** The hash of the config the block ran under: the masterchain state hash commits to it. */
  configHash: Buffer;
  /** The public libraries as the block found them: the changes its masterchain accounts make to them are read here. */
  libraries: Pick<PublicLibraries, 'changes'>;
  /** The queued messages not in pending_messages yet (message-queue.ts). */
  newlyPending: readonly QueuedMessage[];
}

export interface AssembledSeal {
  shardBlock: Block;
  mcBlock: Block;
  /** What the store commits at once: `blocks` is [basechain row, masterchain row]. */
  record: SealRecord & { libraries: NonNullable<SealRecord['libraries']> };
  /** The accounts the block changed, with their new states. */
  changed: ChangedAccount[];
}

export async function assembleSeal({ block, head, globalId, configHash, libraries, newlyPending }: SealInput): Promise<AssembledSeal> {
  const prevMc = head.mc;
  const prevShard = head.shard;
  const seqno = block.seqno;

  const changed = [...block.changed.values()];
  const changesOf = (workchain: number) =>
    changed.filter((c) => c.address.workChain === workchain).map((c) => ({ accountId: c.address.hash, accountHash: c.accountHash }));
  const shardTxs = block.txs.filter((t) => t.account.workChain === BASECHAIN);
  const mcTxs = block.txs.filter((t) => t.account.workChain === MASTERCHAIN);
  const shardEndLt = block.endLt;
  // Both cells of the step: what differs is the chain's own range, transactions, state and links.
  const cellOf = async (
    workchain: number,
    startLt: bigint,
    endLt: bigint,
    txs: ExecutedTx[],
    stateHash: Buffer,
    prev: BlockId,
    ref: BlockId,
  ) =>
    buildBlockCell({
      globalId,
      workchain,
      shard: WHOLE_SHARD,
      seqno,
      genUtime: block.genUtime,
      startLt,
      endLt,
      txCount: txs.length,
      randSeed: block.randSeed,
      txTreeHash: await hashTreeRoot(
        txs.map((t) => t.hash),
        256,
      ),
      stateHash,
      prevBlocks: [prev],
      refs: [ref],
    });
  const shardState = await shardStateHash(prevShard.stateRootHash, changesOf(BASECHAIN));
  const shardCell = await cellOf(BASECHAIN, block.startLt, shardEndLt, shardTxs, shardState, prevShard.id, prevMc.id);
  const shardRow: BlockRow = {
    workchain: BASECHAIN,
    shard: WHOLE_SHARD,
    seqno,
    rootHash: shardCell.rootHash,
    fileHash: shardCell.fileHash,
    mcSeqno: seqno,
    genUtime: block.genUtime,
    startLt: block.startLt,
    endLt: shardEndLt,
    txCount: shardTxs.length,
    stateHash: shardState,
    randSeed: block.randSeed,
    boc: shardCell.boc,
  };
  const shardBlock = makeBlock(shardRow, globalId, prevShard.id, undefined);

  // The masterchain block's own lt follows the shard block's; its range starts at its first transaction's.
  const mcOwnLt = nextAlignedLt(shardEndLt);
  const mcStartLt = mcTxs.length > 0 ? block.startLt : mcOwnLt;
  const mcState = await masterStateHash(shardState, configHash, prevMc.stateRootHash, changesOf(MASTERCHAIN));
  const mcCell = await cellOf(MASTERCHAIN, mcStartLt, mcOwnLt + 1n, mcTxs, mcState, prevMc.id, shardBlock.id);
  const mcRow: BlockRow = {
    ...shardRow,
    workchain: MASTERCHAIN,
    rootHash: mcCell.rootHash,
    fileHash: mcCell.fileHash,
    startLt: mcStartLt,
    endLt: mcOwnLt + 1n,
    txCount: mcTxs.length,
    stateHash: mcState,
    boc: mcCell.boc,
  };
  const mcBlock = makeBlock(mcRow, globalId, prevMc.id, shardBlock.id);

  const record = {
    mcSeqno: seqno,
    blocks: [shardRow, mcRow],
    transactions: block.txRows,
    messages: block.messages,
    accountStates: changed.map((c) => ({ workchain: c.address.workChain, account: c.address.hash, boc: c.shardAccount })),
    pendingAdded: newlyPending.map((m) => ({ hash: m.hash, createdLt: m.createdLt, boc: m.boc })),
    pendingDelivered: block.deliveredPending,
    libraries: libraries.changes(changed),
  };
  return { shardBlock, mcBlock, record, changed };
}
