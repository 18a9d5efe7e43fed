/**
 * Blocks from liteservers: found by seqno, lt or time (liteServer.lookupBlock), then fetched whole
 * (liteServer.getBlock) and believed only when the data hashes to the block id's root hash (the block's cell
 * tree) and file hash (its BoC), so every field read from it is exactly the block's. Kept per block id in the
 * read cache: a block never changes.
 */
import { createHash } from 'node:crypto';
import { Cell } from '@ton/core';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../ton/workchain.js';
import type { Block, BlockId, BlockLookup, BlockRef } from '../types.js';
import { parseBlock, type ParsedBlock } from './block-cell.js';
import { LiteDataError, LiteServerError } from './errors.js';
import { withPrunedBranchFix } from '../../ton/core-pruned-branch.js';
import type { LitePool } from './pool.js';
import { ReadCache } from './read-cache.js';

export interface LoadedBlock {
  block: Block;
  parsed: ParsedBlock;
  /** The block's root cell (its state update holds the touched accounts' new states: block-accounts.ts). */
  root: Cell;
  /** BoC size: the cache's weight. */
  bytes: number;
}

/** How liteservers say a block does not exist (yet, or here): answered as "not found", not as a failure. */
const NOT_FOUND = /not found|not in db|cannot find block|block is not applied|no such block|seqno not in db|too new|too big/i;

export function isNotFound(err: unknown): boolean {
  return err instanceof LiteServerError && NOT_FOUND.test(err.text);
}

export function toTlBlockId(id: BlockId): tonNode_blockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: BigInt.asIntN(64, id.shard).toString(),
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

export function fromTlBlockId(id: tonNode_blockIdExt): BlockId {
  return {
    workchain: id.workchain,
    shard: BigInt.asUintN(64, BigInt(id.shard)),
    seqno: id.seqno,
    rootHash: id.rootHash,
    fileHash: id.fileHash,
  };
}

export class LiteBlocks {
  private readonly blocks: ReadCache<LoadedBlock>;
  /** Block ids by (workchain, shard, seqno): immutable once the block exists. */
  private readonly ids: ReadCache<BlockId>;

  constructor(
    private readonly pool: LitePool,
    maxBytes: number,
  ) {
    this.blocks = new ReadCache(maxBytes, (b) => b.bytes + 2048);
    this.ids = new ReadCache(4 * 1024 * 1024, () => 160);
  }

  /** The block with this id, checked against both its hashes. */
  byId(id: BlockId): Promise<LoadedBlock> {
    return this.blocks.get(id.rootHash.toString('hex'), async () => {
      // The check parses the BoC to hash it; that parse is the one kept (a block is parsed once), and a block
      // that cannot be read is refused there, so the pool asks another server.
      let loaded!: LoadedBlock;
      await this.pool.query(
        Functions.liteServer_getBlock,
        { kind: 'liteServer.getBlock', id: toTlBlockId(id) },
        {
          minSeqno: id.workchain === MASTERCHAIN ? id.seqno : undefined,
          check: (a) => {
            const { data } = a as { data: Buffer };
            const root = checkBlockData(data, id);
            const parsed = parseBlock(root);
            loaded = { block: toBlock(id, parsed), parsed, root, bytes: data.length };
          },
        },
      );
      return loaded;
    });
  }

  /** The block at (workchain, shard, seqno), or undefined when the liteservers do not know it. */
  async byRef(ref: BlockRef): Promise<LoadedBlock | undefined> {
    const id = await this.idOf(ref);
    return id && this.byId(id);
  }

  async idOf(ref: BlockRef): Promise<BlockId | undefined> {
    try {
      return await this.ids.get(`${ref.workchain}:${ref.shard}:${ref.seqno}`, async () => {
        const header = await this.pool.query(Functions.liteServer_lookupBlock, {
          kind: 'liteServer.lookupBlock',
          mode: 1,
          id: { kind: 'tonNode.blockId', workchain: ref.workchain, shard: BigInt.asIntN(64, ref.shard).toString(), seqno: ref.seqno },
          lt: null,
          utime: null,
        });
        const id = fromTlBlockId(header.id);
        if (id.workchain !== ref.workchain || id.seqno !== ref.seqno || id.shard !== ref.shard) {
          throw new LiteDataError(`lookupBlock for ${ref.workchain}:${ref.shard.toString(16)}:${ref.seqno} answered another block`);
        }
        return id;
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** lookupBlock by seqno, lt or utime. */
  async lookup(q: BlockLookup): Promise<LoadedBlock | undefined> {
    if (q.seqno !== undefined) return this.byRef({ workchain: q.workchain, shard: q.shard, seqno: q.seqno });
    let header;
    try {
      header = await this.pool.query(Functions.liteServer_lookupBlock, {
        kind: 'liteServer.lookupBlock',
        mode: q.lt !== undefined ? 2 : 4,
        id: { kind: 'tonNode.blockId', workchain: q.workchain, shard: BigInt.asIntN(64, q.shard).toString(), seqno: 0 },
        lt: q.lt !== undefined ? q.lt.toString() : null,
        utime: q.utime ?? null,
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const loaded = await this.byId(fromTlBlockId(header.id));
    // The liteserver looks up within the shard that holds the prefix; the block it names must be of that workchain.
    if (loaded.block.id.workchain !== q.workchain) throw new LiteDataError('lookupBlock answered a block of another workchain');
    return loaded;
  }

  stats(): { blocks: number; bytes: number; hits: number; misses: number } {
    return { blocks: this.blocks.size, bytes: this.blocks.weight, hits: this.blocks.hits, misses: this.blocks.misses };
  }

  /** A block already kept (no query). */
  cached(id: BlockId): LoadedBlock | undefined {
    return this.blocks.peek(id.rootHash.toString('hex'));
  }
}

/** The block's root cell, once the data hashes to both of the id's hashes. */
function checkBlockData(data: Buffer, id: BlockId): Cell {
  if (!createHash('sha256').update(data).digest().equals(id.fileHash))
    throw new LiteDataError(`block ${id.seqno}: data does not hash to its file hash`);
  let root: Cell;
  try {
    root = withPrunedBranchFix(() => Cell.fromBoc(data))[0];
  } catch (err) {
    throw new LiteDataError(`block ${id.seqno}: not a bag of cells (${(err as Error).message})`);
  }
  if (!root.hash().equals(id.rootHash)) throw new LiteDataError(`block ${id.seqno}: data does not hash to its root hash`);
  return root;
}

function toBlock(id: BlockId, p: ParsedBlock): Block {
  if (p.workchain !== id.workchain || p.seqno !== id.seqno || p.shard !== id.shard) {
    throw new LiteDataError(`block ${id.seqno}: its header names another block`);
  }
  return {
    id,
    globalId: p.globalId,
    version: p.version,
    genUtime: p.genUtime,
    startLt: p.startLt,
    endLt: p.endLt,
    prevBlocks: p.prev.map((r) => ({ workchain: r.workchain, shard: r.shard, seqno: r.seqno, rootHash: r.rootHash, fileHash: r.fileHash })),
    ...(p.masterRef ? { masterRef: { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: p.masterRef.seqno } } : {}),
    ...(p.shards
      ? {
          shardBlocks: p.shards.map((s) => ({
            workchain: s.workchain,
            shard: s.shard,
            seqno: s.seqno,
            rootHash: s.rootHash,
            fileHash: s.fileHash,
          })),
        }
      : {}),
    stateRootHash: p.stateHash,
    randSeed: p.randSeed,
    txCount: p.transactions.length,
    isKeyBlock: p.keyBlock,
    prevKeyBlockSeqno: p.prevKeyBlockSeqno,
    minRefMcSeqno: p.minRefMcSeqno,
    consensus: {
      flags: p.flags,
      afterMerge: p.afterMerge,
      afterSplit: p.afterSplit,
      beforeSplit: p.beforeSplit,
      wantMerge: p.wantMerge,
      wantSplit: p.wantSplit,
      validatorListHashShort: p.validatorListHashShort,
      catchainSeqno: p.catchainSeqno,
      vertSeqno: p.vertSeqno,
      vertSeqnoIncr: p.vertSeqnoIncr,
      createdBy: p.createdBy,
    },
  };
}
