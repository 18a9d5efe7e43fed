/**
 * Signatures of a masterchain block in the Simplex consensus's form (liteServer.signatureSet.simplex), checked as
 * TON checks them (crypto/block/signature-set.cpp, BlockSignatureSetSimplex, of v2026.04 on; read, not copied):
 *
 * - the candidate (a boxed consensus.CandidateHashData: the ordinary form, or the empty form of a slot that
 *   re-proposes a block) names the block, all of its id: workchain, shard, seqno, root hash, file hash;
 * - each signature is an ed25519 signature of
 *     consensus.dataToSign session_id:int256 data:bytes(consensus.simplex.finalizeVote
 *       id:consensus.candidateId{slot, sha256(candidate)})
 *   (a finalize vote: a notarize vote of the same candidate does not make a block final and does not verify);
 * - the rest is the ordinary form's rule (signatures.ts): the set's catchain seqno and validator set hash, each
 *   signer a validator of the block (once), more than two thirds of the weight.
 */
import { createHash } from 'node:crypto';
import type { BlockId } from '../../types.js';
import { LiteDataError } from '../errors.js';
import type { SimplexSignatureSet } from './proof-tl.js';
import { checkSignatures } from './signatures.js';
import type { MasterchainValidators } from './validator-set.js';

/** TL constructor ids (crc32 of each declaration in TON's ton_api.tl), as they are written (little-endian). */
const CANDIDATE_HASH_DATA_ORDINARY = 0xe8f9bcdc; // consensus.candidateHashDataOrdinary block collated_file_hash parent:CandidateParent
const CANDIDATE_HASH_DATA_EMPTY = 0x72b4d933; // consensus.candidateHashDataEmpty block parent:candidateId (bare)
const CANDIDATE_PARENT = 0x1a4b9af1; // consensus.candidateParent id:CandidateId (boxed)
const CANDIDATE_WITHOUT_PARENTS = 0x22cbcca9; // consensus.candidateWithoutParents (a session's first slot)
const CANDIDATE_ID = 0xb691cd3f; // consensus.candidateId slot:int hash:int256
const FINALIZE_VOTE = 0x40a7e105; // consensus.simplex.finalizeVote id:CandidateId
const DATA_TO_SIGN = 0xa8e33df8; // consensus.dataToSign session_id:int256 data:bytes

/** tonNode.blockIdExt: workchain:int shard:long seqno:int root_hash:int256 file_hash:int256. */
const BLOCK_ID_BYTES = 4 + 8 + 4 + 32 + 32;

export interface SimplexCandidate {
  form: 'ordinary' | 'empty';
  block: BlockId;
}

/**
 * The candidate's form and the block it names. Read whole and exactly (TON parses it as a TL object, so any other
 * length or constructor is refused there too); the signed hash is then of these very bytes.
 */
export function readCandidate(candidate: Buffer): SimplexCandidate {
  const fail = (why: string): never => {
    throw new LiteDataError(`simplex candidate: ${why}`);
  };
  if (candidate.length < 4 + BLOCK_ID_BYTES) fail(`${candidate.length} bytes, too short`);
  const kind = candidate.readUInt32LE(0);
  const block: BlockId = {
    workchain: candidate.readInt32LE(4),
    shard: candidate.readBigUInt64LE(8),
    seqno: candidate.readInt32LE(16),
    rootHash: Buffer.from(candidate.subarray(20, 52)),
    fileHash: Buffer.from(candidate.subarray(52, 84)),
  };
  let length: number;
  let form: SimplexCandidate['form'];
  if (kind === CANDIDATE_HASH_DATA_ORDINARY) {
    form = 'ordinary';
    const at = 4 + BLOCK_ID_BYTES + 32; // collated_file_hash, then the boxed parent
    if (candidate.length < at + 4) fail('ordinary form cut short');
    const parent = candidate.readUInt32LE(at);
    if (parent === CANDIDATE_WITHOUT_PARENTS) length = at + 4;
    else if (parent === CANDIDATE_PARENT) {
      if (candidate.length >= at + 8 && candidate.readUInt32LE(at + 4) !== CANDIDATE_ID) fail('parent is not a consensus.candidateId');
      length = at + 4 + 4 + 4 + 32;
    } else return fail(`unknown consensus.CandidateParent constructor 0x${parent.toString(16)}`);
  } else if (kind === CANDIDATE_HASH_DATA_EMPTY) {
    form = 'empty';
    length = 4 + BLOCK_ID_BYTES + 4 + 32; // parent: a bare consensus.candidateId
  } else return fail(`unknown consensus.CandidateHashData constructor 0x${kind.toString(16)}`);
  if (candidate.length !== length) fail(`${form} form of ${length} bytes, got ${candidate.length}`);
  return { form, block };
}

/** The bytes each validator signed: dataToSign{session_id, finalizeVote{candidateId{slot, sha256(candidate)}}}. */
export function simplexSignedBytes(set: Pick<SimplexSignatureSet, 'sessionId' | 'slot' | 'candidate'>): Buffer {
  const vote = Buffer.alloc(4 + 4 + 4 + 32);
  vote.writeUInt32LE(FINALIZE_VOTE, 0);
  vote.writeUInt32LE(CANDIDATE_ID, 4);
  vote.writeInt32LE(set.slot, 8);
  createHash('sha256').update(set.candidate).digest().copy(vote, 12);
  // data:bytes of 44 bytes: one length byte, the bytes, zeros to a multiple of four.
  const signed = Buffer.alloc(4 + 32 + 48);
  signed.writeUInt32LE(DATA_TO_SIGN, 0);
  set.sessionId.copy(signed, 4);
  signed[36] = vote.length;
  vote.copy(signed, 37);
  return signed;
}

/** Throws LiteDataError unless `set` finalizes `block`, signed by `validators` as signatures.ts requires. Returns the weight signed. */
export function checkSimplexSignatures(set: SimplexSignatureSet, validators: MasterchainValidators, block: BlockId): bigint {
  const { block: named, form } = readCandidate(set.candidate);
  if (
    named.workchain !== block.workchain ||
    named.shard !== block.shard ||
    named.seqno !== block.seqno ||
    !named.rootHash.equals(block.rootHash) ||
    !named.fileHash.equals(block.fileHash)
  ) {
    throw new LiteDataError(
      `signatures of masterchain block ${block.seqno}: the simplex candidate (${form} form) names another block, ${named.seqno} ${named.rootHash.toString('hex')}`,
    );
  }
  if (set.sessionId.length !== 32)
    throw new LiteDataError(`signatures of masterchain block ${block.seqno}: a session id of ${set.sessionId.length} bytes`);
  return checkSignatures(set, validators, block, simplexSignedBytes(set));
}
