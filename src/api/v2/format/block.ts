/** Blocks in v2's tonlib shapes. */
import type { Block } from '../../../chain/types.js';
import { blockIdExt, type TonBlockIdExt } from '../../../ton/block-id.js';

/**
 * blocks.header. The local chain has no validator set, no catchain and never splits or merges, so those
 * fields carry the values such a chain honestly has: zero and false.
 */
export function blockHeader(block: Block): Record<string, unknown> & { id: TonBlockIdExt } {
  return {
    '@type': 'blocks.header',
    id: blockIdExt(block.id),
    global_id: block.globalId,
    version: block.version,
    flags: 0,
    after_merge: false,
    after_split: false,
    before_split: false,
    want_merge: false,
    want_split: false,
    validator_list_hash_short: 0,
    catchain_seqno: 0,
    min_ref_mc_seqno: block.minRefMcSeqno,
    is_key_block: block.isKeyBlock,
    prev_key_block_seqno: block.prevKeyBlockSeqno,
    start_lt: block.startLt.toString(),
    end_lt: block.endLt.toString(),
    gen_utime: block.genUtime,
    vert_seqno: 0,
    prev_blocks: block.prevBlocks.map(blockIdExt),
  };
}
