/**
 * Methods that need what only a validator network has. tongate's local chain is sealed by tongate
 * itself: no validator set signs its blocks, and its block ids commit to documented block cells
 * (chain/local/block-cell.ts), not to TL-B Block cells with Merkle-provable state. So there are no
 * signatures and no shard block proofs to give, and inventing them would be a fake.
 *
 * Both methods still check their input and that the block exists (422 / 404 as for any method), then
 * answer 501 Not Implemented with a message saying why. 501, not 500: nothing failed; the backend
 * lacks the capability. On a lite network the liteservers have both, but tongate does not relay them yet:
 * also 501, saying so.
 */
import { ApiError } from '../../errors.js';
import { defineMethod } from '../method.js';
import { findBlock, findMasterchainBlock } from './block-lookup.js';
import { BLOCK_SEQNO, SEQNO_REQUIRED, SHARD, WORKCHAIN } from './common-params.js';

export const getMasterchainBlockSignatures = defineMethod({
  name: 'getMasterchainBlockSignatures',
  verbs: ['GET', 'POST'],
  summary: 'Validator signatures of a masterchain block. Local chain: 501, its blocks are not signed by validators.',
  params: { seqno: SEQNO_REQUIRED },
  async handle({ seqno }, network) {
    await findMasterchainBlock(network, seqno);
    throw new ApiError(
      501,
      network.backend === 'lite'
        ? `getMasterchainBlockSignatures is not available on ${network.name}: tongate does not relay its liteservers' block signatures yet`
        : `getMasterchainBlockSignatures is not available on ${network.name}: it is tongate's local chain, whose blocks are sealed by tongate and signed by no validator`,
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
    await findBlock(network, { workchain, shard, seqno });
    if (from_seqno !== undefined) await findMasterchainBlock(network, from_seqno);
    throw new ApiError(
      501,
      network.backend === 'lite'
        ? `getShardBlockProof is not available on ${network.name}: tongate does not relay its liteservers' shard block proofs yet`
        : `getShardBlockProof is not available on ${network.name}: it is tongate's local chain, whose block ids commit to tongate's own block cells, not to Merkle-provable TL-B blocks`,
    );
  },
});
