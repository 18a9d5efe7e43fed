/**
 * Validator signatures of masterchain blocks and proofs tying shard blocks to the masterchain: what only a
 * validator network has. On a lite network they come from the liteservers, checked before relayed
 * (chain/lite/block-proofs), in tonlib's shapes (blocks.blockSignatures, blocks.shardBlockProof).
 *
 * tongate's local chain is sealed by tongate itself: no validator set signs its blocks, and its block ids commit to
 * documented block cells (chain/local/block-cell.ts), not to TL-B Block cells with Merkle-provable state. So there
 * it has neither, and inventing them would be a fake: both methods check their input and that the block exists
 * (422 / 404 as for any method), then answer 501 Not Implemented saying why (nothing failed; the backend lacks the
 * capability).
 */
import { ApiError } from '../../../http/api-error.js';
import { blockSignaturesJson, shardBlockProofJson } from '../format/block.js';
import { defineMethod } from '../method.js';
import { findBlock, findMasterchainBlock } from './block-lookup.js';
import { BLOCK_SEQNO, SEQNO_REQUIRED, SHARD, WORKCHAIN } from './common-params.js';

export const getMasterchainBlockSignatures = defineMethod({
  name: 'getMasterchainBlockSignatures',
  verbs: ['GET', 'POST'],
  summary: 'Validator signatures of a masterchain block. Local chain: 501, its blocks are not signed by validators.',
  params: { seqno: SEQNO_REQUIRED },
  async handle({ seqno }, network) {
    if (network.chain.blockSignatures) return blockSignaturesJson(await network.chain.blockSignatures(seqno));
    await findMasterchainBlock(network, seqno);
    throw new ApiError(
      501,
      `getMasterchainBlockSignatures is not available on ${network.name}: it is tongate's local chain, whose blocks are sealed by tongate and signed by no validator`,
    );
  },
});

export const getShardBlockProof = defineMethod({
  name: 'getShardBlockProof',
  verbs: ['GET', 'POST'],
  summary: 'Merkle proof linking a shard block to the masterchain. Local chain: 501, its blocks have no such proofs.',
  params: {
    workchain: WORKCHAIN,
    shard: SHARD,
    seqno: BLOCK_SEQNO,
    from_seqno: { type: 'int', min: 0, description: 'Masterchain block to prove from.' },
  },
  async handle({ workchain, shard, seqno, from_seqno }, network) {
    if (network.chain.shardBlockProof)
      return shardBlockProofJson(await network.chain.shardBlockProof({ workchain, shard, seqno }, from_seqno));
    await findBlock(network, { workchain, shard, seqno });
    if (from_seqno !== undefined) await findMasterchainBlock(network, from_seqno);
    throw new ApiError(
      501,
      `getShardBlockProof is not available on ${network.name}: it is tongate's local chain, whose block ids commit to tongate's own block cells, not to Merkle-provable TL-B blocks`,
    );
  },
});
