/**
 * v2's getMasterchainBlockSignatures and getShardBlockProof on a lite network: asked of the liteservers, checked
 * (links.ts) before they are relayed, as tonlib answers blocks.getMasterchainBlockSignatures and
 * blocks.getShardBlockProof. ProofAnswers serves them to LiteChain: blocks found by seqno, signatures kept.
 */
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { liteServer_blockLinkBack, liteServer_shardBlockProof } from 'ton-lite-client/dist/schema.js';
import type { BlockId, BlockRef, BlockSignatures, ShardBlockProof } from '../../types.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../../ton/workchain.js';
import { fromTlBlockId, toTlBlockId, type LiteBlocks } from '../blocks.js';
import { LiteDataError } from '../errors.js';
import { ChainInputError, NotFound } from '../../errors.js';
import type { LiteHead } from '../head.js';
import type { LitePool } from '../pool.js';
import { ReadCache } from '../read-cache.js';
import { TARGET_FROM_DB, type MasterchainTrust } from './masterchain-trust.js';
import { checkBackLink, checkForwardLink, checkShardLinks, describeBlock, sameBlock, ValidatorSetCache } from './links.js';
import { getBlockProof, type PartialBlockProof } from './proof-tl.js';

/**
 * The validators' signatures of masterchain block `block`: the forward link to it from its previous key block
 * `keyBlock` (one link: no key block lies between), checked against that key block's validator set.
 */
export async function masterchainBlockSignatures(
  pool: LitePool,
  cache: ValidatorSetCache,
  block: BlockId,
  keyBlock: BlockId,
): Promise<BlockSignatures> {
  let signatures: BlockSignatures['signatures'] = [];
  let simplex: BlockSignatures['simplex'];
  await pool.query(
    getBlockProof,
    { kind: 'liteServer.getBlockProof', mode: TARGET_FROM_DB, knownBlock: toTlBlockId(keyBlock), targetBlock: toTlBlockId(block) },
    {
      minSeqno: block.seqno,
      check: (answer) => {
        const proof = answer as PartialBlockProof;
        const what = `signatures of ${describeBlock(block)}`;
        if (!proof.complete || !sameBlock(fromTlBlockId(proof.from), keyBlock) || !sameBlock(fromTlBlockId(proof.to), block)) {
          throw new LiteDataError(`${what}: the proof is not from its key block to it`);
        }
        const [link] = proof.steps;
        if (proof.steps.length !== 1 || link.kind !== 'liteServer.blockLinkForward')
          throw new LiteDataError(`${what}: expected one forward link`);
        checkForwardLink(link, cache);
        const set = link.signatures;
        signatures = set.signatures.map((s) => ({ nodeIdShort: s.nodeIdShort, signature: s.signature }));
        if (set.kind === 'liteServer.signatureSet.simplex')
          simplex = { sessionId: set.sessionId, slot: set.slot, candidate: set.candidate };
      },
    },
  );
  return simplex ? { block, signatures, simplex } : { block, signatures };
}

/**
 * The proof that shard block `block` belongs to the masterchain: its links up to the masterchain block that first
 * records it, and (when that is not `from`) the backward link from `from` to that masterchain block.
 */
export async function shardBlockProof(pool: LitePool, block: BlockId, from: BlockId): Promise<ShardBlockProof> {
  let mcId!: BlockId;
  let links: ShardBlockProof['links'] = [];
  await pool.query(
    Functions.liteServer_getShardBlockProof,
    { kind: 'liteServer.getShardBlockProof', id: toTlBlockId(block) },
    {
      check: (answer) => {
        const proof = answer as liteServer_shardBlockProof;
        const mc = fromTlBlockId(proof.masterchainId);
        if (mc.workchain !== MASTERCHAIN || mc.seqno === 0) throw new LiteDataError('shard block proof: not from a masterchain block');
        if (!sameBlock(checkShardLinks(mc, proof.links), block))
          throw new LiteDataError(`shard block proof: does not lead to ${describeBlock(block)}`);
        mcId = mc;
        links = proof.links.map((l) => ({ id: fromTlBlockId(l.id), proof: l.proof }));
      },
    },
  );
  if (mcId.seqno > from.seqno)
    throw new ShardProofFromTooOld(
      `from_seqno: masterchain block ${from.seqno} is older than block ${mcId.seqno}, which first records ${describeBlock(block)}`,
    );
  const mcProof: ShardBlockProof['mcProof'] = [];
  if (!sameBlock(mcId, from)) {
    await pool.query(
      getBlockProof,
      { kind: 'liteServer.getBlockProof', mode: TARGET_FROM_DB, knownBlock: toTlBlockId(from), targetBlock: toTlBlockId(mcId) },
      {
        minSeqno: from.seqno,
        check: (answer) => {
          const proof = answer as PartialBlockProof;
          const [link] = proof.steps;
          if (
            !proof.complete ||
            proof.steps.length !== 1 ||
            link.kind !== 'liteServer.blockLinkBack' ||
            !sameBlock(fromTlBlockId(proof.from), from) ||
            !sameBlock(fromTlBlockId(proof.to), mcId)
          ) {
            throw new LiteDataError(`masterchain proof ${describeBlock(from)} -> ${describeBlock(mcId)}: expected one backward link`);
          }
          checkBackLink(link);
          mcProof.push(backLink(link));
        },
      },
    );
  }
  return { from, mcId, links, mcProof };
}

function backLink(link: liteServer_blockLinkBack): ShardBlockProof['mcProof'][number] {
  return {
    toKeyBlock: link.toKeyBlock,
    from: fromTlBlockId(link.from),
    to: fromTlBlockId(link.to),
    destProof: link.destProof,
    proof: link.proof,
    stateProof: link.stateProof,
  };
}

/** The two answers as the lite chain serves them: the blocks found by seqno and proven, signatures kept per block. */
export class ProofAnswers {
  private readonly validatorSets = new ValidatorSetCache();
  private readonly signatures = new ReadCache<BlockSignatures>(4 * 1024 * 1024, (s) => 256 + s.signatures.length * 128);

  constructor(
    private readonly pool: LitePool,
    private readonly blocks: LiteBlocks,
    private readonly trust: MasterchainTrust,
    private readonly head: LiteHead,
  ) {}

  /**
   * The validators' signatures of masterchain block `seqno` (tonlib's blocks.getMasterchainBlockSignatures): the
   * forward link from its previous key block, checked against that key block's validator set. Kept per block.
   */
  async blockSignatures(seqno: number): Promise<BlockSignatures> {
    if (seqno === 0) throw new ChainInputError("seqno: can't get signatures of block #0 (the zero state is not signed)");
    const mc = await this.head.masterchainBlock(seqno);
    return this.signatures.get(mc.block.id.rootHash.toString('hex'), async () => {
      const keySeqno = mc.block.prevKeyBlockSeqno;
      const keyBlock =
        keySeqno === 0
          ? this.head.first.id
          : (this.trust.provenKeyBlock(keySeqno) ??
            (await this.blocks.idOf({ workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno: keySeqno })));
      if (!keyBlock) throw new NotFound(`key block ${keySeqno} before masterchain block ${seqno} not found`);
      if (keySeqno !== 0) await this.head.proveOlder(keyBlock);
      return masterchainBlockSignatures(this.pool, this.validatorSets, mc.block.id, keyBlock);
    });
  }

  /** tonlib's blocks.getShardBlockProof: the block's links up to the masterchain, and back from `fromSeqno` (the head by default). */
  async shardBlockProof(ref: BlockRef, fromSeqno?: number): Promise<ShardBlockProof> {
    const block = await this.blocks.byRef(ref);
    if (!block) throw new NotFound(`block (${ref.workchain}, ${BigInt.asIntN(64, ref.shard)}, ${ref.seqno}) not found`);
    const from = (await this.head.masterchainBlock(fromSeqno)).block.id;
    return shardBlockProof(this.pool, block.block.id, from);
  }
}

/** from_seqno names a masterchain block before the one that records the shard block: the client's mistake. */
export class ShardProofFromTooOld extends ChainInputError {
  override name = 'ShardProofFromTooOld';
}
