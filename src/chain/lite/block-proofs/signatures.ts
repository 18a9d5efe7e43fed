/**
 * Validator signatures of a masterchain block: each is an ed25519 signature, by a validator of the block's
 * catchain, of the TL form `ton.blockId root_cell_hash file_hash`; together they must carry more than two thirds
 * of the validators' weight (TON's rule for a final block).
 */
import type { BlockId } from '../../types.js';
import { LiteDataError } from '../errors.js';
import { verifyEd25519 } from './ed25519.js';
import type { MasterchainValidators } from './validator-set.js';

/** ton.blockId's TL constructor id, as it starts the signed bytes. */
const TON_BLOCK_ID = Buffer.from('706e0bc5', 'hex');

export interface SignatureSet {
  validatorSetHash: number;
  catchainSeqno: number;
  signatures: { nodeIdShort: Buffer; signature: Buffer }[];
}

/**
 * Throws LiteDataError unless `set` is a valid, final signature set of `block` by `validators`. Returns the weight
 * signed. `signed`: what each signature covers (the simplex form signs a finalize vote: simplex-signatures.ts).
 */
export function checkSignatures(
  set: SignatureSet,
  validators: MasterchainValidators,
  block: Pick<BlockId, 'rootHash' | 'fileHash' | 'seqno'>,
  signed: Buffer = Buffer.concat([TON_BLOCK_ID, block.rootHash, block.fileHash]),
): bigint {
  const what = `signatures of masterchain block ${block.seqno}`;
  if (set.catchainSeqno >>> 0 !== validators.ccSeqno >>> 0) {
    throw new LiteDataError(`${what}: catchain seqno ${set.catchainSeqno}, the block's validators are of ${validators.ccSeqno}`);
  }
  if (set.validatorSetHash >>> 0 !== validators.hashShort >>> 0) throw new LiteDataError(`${what}: of another validator set`);
  const seen = new Set<string>();
  let weight = 0n;
  for (const { nodeIdShort, signature } of set.signatures) {
    const id = nodeIdShort.toString('hex');
    if (seen.has(id)) throw new LiteDataError(`${what}: validator ${id} signs twice`);
    seen.add(id);
    const validator = validators.byNodeId.get(id);
    if (!validator) throw new LiteDataError(`${what}: ${id} is not a validator of the block`);
    if (!verifyEd25519(validator.publicKey, signed, signature)) throw new LiteDataError(`${what}: the signature of ${id} does not verify`);
    weight += validator.weight;
  }
  if (weight * 3n <= validators.totalWeight * 2n)
    throw new LiteDataError(`${what}: signed by ${weight} of ${validators.totalWeight} weight, not more than two thirds`);
  return weight;
}
