/**
 * Block records as the readers see them: rows of the store turned into `Block`s (with their links to
 * the previous block and to the other chain), cached since blocks never change; and the chain head,
 * the newest sealed pair of blocks that defines what is visible.
 */
import { BASECHAIN, MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import type { Block, BlockId } from '../types.js';
import { PREV_MC_BLOCKS, serializePrevBlocksInfo } from '../emulator/prev-blocks-info.js';
import type { BlockRow } from './store-rows.js';
import type { ChainStore } from './store.js';

/** Enough for every block a client is likely to re-read soon after it is sealed. */
const CACHE_SIZE = 512;
/**
 * PREVBLOCKSINFO values of past heads kept (~1.4 kB each): get-methods pinned to a masterchain block behind the head
 * (the index detecting tokens while the producer runs ahead) reuse the value the producer built for that block.
 */
const PAST_PREV_BLOCKS_INFO = 32;
const ANY_SEQNO = Number.MAX_SAFE_INTEGER;

export const blockIdOf = (row: Pick<BlockRow, 'workchain' | 'shard' | 'seqno' | 'rootHash' | 'fileHash'>): BlockId => ({
  workchain: row.workchain,
  shard: row.shard,
  seqno: row.seqno,
  rootHash: row.rootHash,
  fileHash: row.fileHash,
});

/** A Block from its fields and the ids it links to. */
export function makeBlock(row: BlockRow, globalId: number, prev: BlockId | undefined, other: BlockId | undefined): Block {
  const isMaster = row.workchain === MASTERCHAIN;
  return {
    id: blockIdOf(row),
    globalId,
    version: 0,
    genUtime: row.genUtime,
    startLt: row.startLt,
    endLt: row.endLt,
    prevBlocks: prev ? [prev] : [],
    ...(isMaster
      ? { shardBlocks: other ? [other] : [] }
      : { masterRef: { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: row.mcSeqno } }),
    stateRootHash: row.stateHash,
    randSeed: row.randSeed,
    txCount: row.txCount,
    isKeyBlock: isMaster && row.seqno === 0,
    prevKeyBlockSeqno: 0,
    minRefMcSeqno: Math.max(0, row.mcSeqno - 1),
  };
}

export class BlockIndex {
  private readonly cache = new Map<string, Block>();

  constructor(
    private readonly store: ChainStore,
    private readonly globalId: number,
  ) {}

  /** The block, if it exists and is visible at masterchain seqno `visibleMc`. */
  get(workchain: number, seqno: number, visibleMc: number): Block | undefined {
    if (seqno > visibleMc || seqno < 0 || (workchain !== MASTERCHAIN && workchain !== BASECHAIN)) return undefined;
    const cached = this.cache.get(`${workchain}:${seqno}`);
    if (cached) return cached;
    const row = this.store.block(workchain, seqno, visibleMc);
    return row && this.fromRow(row);
  }

  /** Turns a stored row into a Block (and caches it). */
  fromRow(row: BlockRow): Block {
    const key = `${row.workchain}:${row.seqno}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const prev = row.seqno > 0 ? this.idOf(row.workchain, row.seqno - 1) : undefined;
    const other = row.workchain === MASTERCHAIN ? this.idOf(BASECHAIN, row.seqno) : undefined;
    const block = makeBlock(row, this.globalId, prev, other);
    this.put(block);
    return block;
  }

  /** Forgets every block (a snapshot restore: seqnos after it will name other blocks). */
  clear(): void {
    this.cache.clear();
  }

  put(block: Block): void {
    const key = `${block.id.workchain}:${block.id.seqno}`;
    this.cache.delete(key);
    this.cache.set(key, block);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }

  private idOf(workchain: number, seqno: number): BlockId {
    const cached = this.cache.get(`${workchain}:${seqno}`);
    if (cached) return cached.id;
    const row = this.store.block(workchain, seqno, ANY_SEQNO);
    if (!row) throw new Error(`chain data is missing block (${workchain}, ${seqno})`);
    return blockIdOf(row);
  }
}

/** The newest sealed masterchain block and its shard block: the visible state of the chain. */
export class ChainHead {
  private recentMc: BlockId[] = [];
  private prevBlocksInfoCache?: string;
  /** By masterchain seqno, with the block's root hash (checked on use), oldest first. */
  private readonly pastPrevBlocksInfo = new Map<number, { rootHash: Buffer; value: string }>();

  constructor(
    public first: Block,
    public mc: Block,
    public shard: Block,
    recentMc: BlockId[],
  ) {
    this.recentMc = recentMc.slice(0, PREV_MC_BLOCKS);
  }

  /**
   * PREVBLOCKSINFO for transactions and get-methods on top of `mc`. Built on first use after each block (~2-4 ms
   * with @ton/core): blocks sealed with nothing to run (manual mining of empty blocks, an idle chain) never pay it.
   */
  get prevBlocksInfo(): string {
    return (this.prevBlocksInfoCache ??= serializePrevBlocksInfo(this.recentMc, this.first.id));
  }

  /**
   * PREVBLOCKSINFO as of masterchain block `mcId` (the head or an older one): a get-method pinned to that block sees
   * the 16 ids up to it. Built once per block, not per call: serializing it costs more than the get-method's own
   * preparation (the index's token detection runs every get-method of a block at that block's seqno, usually
   * behind the head). The head's own value is kept when the head moves on.
   */
  prevBlocksInfoAt(mcId: BlockId, index: BlockIndex): string {
    if (mcId.seqno === this.seqno && mcId.rootHash.equals(this.mc.id.rootHash)) return this.prevBlocksInfo;
    const kept = this.pastPrevBlocksInfo.get(mcId.seqno);
    if (kept?.rootHash.equals(mcId.rootHash)) return kept.value;
    const value = serializePrevBlocksInfo(ChainHead.recentIds(index, mcId.seqno), this.first.id);
    this.keepPast(mcId, value);
    return value;
  }

  private keepPast(mcId: BlockId, value: string): void {
    this.pastPrevBlocksInfo.delete(mcId.seqno);
    this.pastPrevBlocksInfo.set(mcId.seqno, { rootHash: mcId.rootHash, value });
    if (this.pastPrevBlocksInfo.size > PAST_PREV_BLOCKS_INFO) this.pastPrevBlocksInfo.delete(this.pastPrevBlocksInfo.keys().next().value!);
  }

  get seqno(): number {
    return this.mc.id.seqno;
  }

  /** Moves the head: call only after the pair is committed to the store. */
  advance(mc: Block, shard: Block): void {
    if (this.prevBlocksInfoCache !== undefined) this.keepPast(this.mc.id, this.prevBlocksInfoCache);
    this.mc = mc;
    this.shard = shard;
    this.recentMc = [mc.id, ...this.recentMc].slice(0, PREV_MC_BLOCKS);
    this.prevBlocksInfoCache = undefined;
  }

  /** Points the head at another sealed pair (a snapshot restore, an imported chain), with the masterchain ids before it. */
  reset(first: Block, mc: Block, shard: Block, recentMc: BlockId[]): void {
    this.first = first;
    this.mc = mc;
    this.shard = shard;
    this.recentMc = recentMc.slice(0, PREV_MC_BLOCKS);
    this.prevBlocksInfoCache = undefined;
    // Seqnos after the restored head will name other blocks (the root hash check would catch it; this frees them).
    this.pastPrevBlocksInfo.clear();
  }

  /** The last 16 masterchain block ids up to and including `seqno`, newest first. */
  static recentIds(index: BlockIndex, seqno: number): BlockId[] {
    const ids: BlockId[] = [];
    for (let s = seqno; s >= 0 && ids.length < PREV_MC_BLOCKS; s--) ids.push(index.get(MASTERCHAIN, s, seqno)!.id);
    return ids;
  }
}
