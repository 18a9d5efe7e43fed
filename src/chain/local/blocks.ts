/**
 * Block records as the readers see them: rows of the store turned into `Block`s (with their links to
 * the previous block and to the other chain), cached since blocks never change; and the chain head,
 * the newest sealed pair of blocks that defines what is visible.
 */
import { WHOLE_SHARD, type Block, type BlockId } from '../types.js';
import { PREV_MC_BLOCKS, serializePrevBlocksInfo } from './prev-blocks-info.js';
import type { BlockRow, ChainStore } from './store.js';

export const MASTERCHAIN = -1;
export const BASECHAIN = 0;

/** Enough for every block a client is likely to re-read soon after it is sealed. */
const CACHE_SIZE = 512;
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
    ...(isMaster ? { shardBlocks: other ? [other] : [] } : { masterRef: { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: row.mcSeqno } }),
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

  get seqno(): number {
    return this.mc.id.seqno;
  }

  /** Moves the head: call only after the pair is committed to the store. */
  advance(mc: Block, shard: Block): void {
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
  }

  /** The last 16 masterchain block ids up to and including `seqno`, newest first. */
  static recentIds(index: BlockIndex, seqno: number): BlockId[] {
    const ids: BlockId[] = [];
    for (let s = seqno; s >= 0 && ids.length < PREV_MC_BLOCKS; s--) ids.push(index.get(MASTERCHAIN, s, seqno)!.id);
    return ids;
  }
}
