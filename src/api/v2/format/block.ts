/** Blocks in v2's tonlib shapes. */
import type { Block, BlockSignatures, ShardBlockProof } from '../../../chain/types.js';
import { blockIdExt, type TonBlockIdExt } from '../../../ton/block-id.js';

/**
 * blocks.header. A validator network's header (chain/lite) carries its flags, validator set and catchain; the
 * local chain has no validator set, no catchain and never splits or merges, so there those fields carry the
 * values such a chain honestly has: zero and false.
 */
export function blockHeader(block: Block): Record<string, unknown> & { id: TonBlockIdExt } {
  const c = block.consensus;
  return {
    '@type': 'blocks.header',
    id: blockIdExt(block.id),
    global_id: block.globalId,
    version: block.version,
    flags: c?.flags ?? 0,
    after_merge: c?.afterMerge ?? false,
    after_split: c?.afterSplit ?? false,
    before_split: c?.beforeSplit ?? false,
    want_merge: c?.wantMerge ?? false,
    want_split: c?.wantSplit ?? false,
    validator_list_hash_short: c?.validatorListHashShort ?? 0,
    catchain_seqno: c?.catchainSeqno ?? 0,
    min_ref_mc_seqno: block.minRefMcSeqno,
    is_key_block: block.isKeyBlock,
    prev_key_block_seqno: block.prevKeyBlockSeqno,
    start_lt: block.startLt.toString(),
    end_lt: block.endLt.toString(),
    gen_utime: block.genUtime,
    vert_seqno: c?.vertSeqno ?? 0,
    prev_blocks: block.prevBlocks.map(blockIdExt),
  };
}

/** blocks.blockSignatures: the signed block's id and each signature, hashes and signatures base64 (tonlib's bytes). */
/**
 * blocks.blockSignatures, or for a block signed by the Simplex consensus blocks.blockSignatures.simplex: the same
 * with session_id, slot and candidate, without which its signatures cannot be checked (tonlib's shape since v2026.04).
 */
export function blockSignaturesJson(s: BlockSignatures): Record<string, unknown> {
  const signatures = s.signatures.map((sig) => ({
    '@type': 'blocks.signature',
    node_id_short: sig.nodeIdShort.toString('base64'),
    signature: sig.signature.toString('base64'),
  }));
  if (!s.simplex) return { '@type': 'blocks.blockSignatures', id: blockIdExt(s.block), signatures };
  return {
    '@type': 'blocks.blockSignatures.simplex',
    id: blockIdExt(s.block),
    signatures,
    session_id: s.simplex.sessionId.toString('base64'),
    slot: s.simplex.slot,
    candidate: s.simplex.candidate.toString('base64'),
  };
}

/** blocks.shardBlockProof, with its links (blocks.shardBlockLink) and the masterchain proof (blocks.blockLinkBack). */
export function shardBlockProofJson(p: ShardBlockProof): Record<string, unknown> {
  return {
    '@type': 'blocks.shardBlockProof',
    from: blockIdExt(p.from),
    mc_id: blockIdExt(p.mcId),
    links: p.links.map((l) => ({ '@type': 'blocks.shardBlockLink', id: blockIdExt(l.id), proof: l.proof.toString('base64') })),
    mc_proof: p.mcProof.map((l) => ({
      '@type': 'blocks.blockLinkBack',
      to_key_block: l.toKeyBlock,
      from: blockIdExt(l.from),
      to: blockIdExt(l.to),
      dest_proof: l.destProof.toString('base64'),
      proof: l.proof.toString('base64'),
      state_proof: l.stateProof.toString('base64'),
    })),
  };
}
