/** Blocks in v3's shape: shard as 16 uppercase hex digits, lt and utime as strings, hashes base64. */
import type { Block, BlockRef } from '../../../chain/types.js';
import { formatV3Shard } from '../../../ton/block-id.js';

export function blockRefJson(ref: BlockRef): Record<string, unknown> {
  return { workchain: ref.workchain, shard: formatV3Shard(ref.shard), seqno: ref.seqno };
}

/**
 * A validator network's header (chain/lite, kept by the index) carries its flags, split/merge bits, validator list
 * hash, catchain seqno and collator; a one-validator local chain never splits, merges or rotates validators, so
 * there those fields are the constants it honestly has. Everything else comes from the block.
 */
export function blockJson(block: Block): Record<string, unknown> {
  const { id } = block;
  const c = block.consensus;
  return {
    workchain: id.workchain,
    shard: formatV3Shard(id.shard),
    seqno: id.seqno,
    root_hash: id.rootHash.toString('base64'),
    file_hash: id.fileHash.toString('base64'),
    global_id: block.globalId,
    version: block.version,
    after_merge: c?.afterMerge ?? false,
    before_split: c?.beforeSplit ?? false,
    after_split: c?.afterSplit ?? false,
    want_merge: c?.wantMerge ?? false,
    want_split: c?.wantSplit ?? false,
    key_block: block.isKeyBlock,
    vert_seqno_incr: c?.vertSeqnoIncr ?? false,
    flags: c?.flags ?? 1,
    gen_utime: String(block.genUtime),
    start_lt: block.startLt.toString(),
    end_lt: block.endLt.toString(),
    validator_list_hash_short: c?.validatorListHashShort ?? 0,
    gen_catchain_seqno: c?.catchainSeqno ?? 0,
    min_ref_mc_seqno: block.minRefMcSeqno,
    prev_key_block_seqno: block.prevKeyBlockSeqno,
    vert_seqno: c?.vertSeqno ?? 0,
    master_ref_seqno: block.masterRef?.seqno ?? id.seqno,
    rand_seed: block.randSeed.toString('base64'),
    created_by: (c ? Buffer.from(c.createdBy) : Buffer.alloc(32)).toString('base64'),
    tx_count: block.txCount,
    masterchain_block_ref: blockRefJson(block.masterRef ?? id),
    prev_blocks: block.prevBlocks.map(blockRefJson),
  };
}
