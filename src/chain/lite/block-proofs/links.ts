/**
 * The links of a liteserver's block proofs, checked as tonlib checks them (crypto/block/check-proof.cpp in TON's
 * sources, read not copied):
 *
 * - forward (liteServer.blockLinkForward, from a key block or the zero state to a later masterchain block): the
 *   config proof hashes to `from` (a key block carrying its config, or the zero state's config); the destination
 *   proof hashes to `to` and its header names it (key block flag, catchain seqno, validator list hash); the
 *   masterchain validators computed from `from`'s config 34 (and 28) have that hash; their signatures of `to`
 *   verify with ed25519 and carry more than two thirds of their weight. The signatures are of either form: the
 *   ordinary (signatures.ts) or, since TON v2026.04, the Simplex consensus's finalize votes (simplex-signatures.ts).
 * - backward (liteServer.blockLinkBack, from a masterchain block to an earlier one): the proof hashes to `from` and
 *   gives its state hash; the state proof hashes to that and lists `to` (with its key block flag) among the
 *   earlier masterchain blocks.
 * - shard block links (liteServer.shardBlockProof): from a masterchain block down to a shard block, each block
 *   proof hashes to the block before and names the next one (the masterchain block as its shard's top, a shard
 *   block as its previous block).
 */
import { Cell } from '@ton/core';
import type { liteServer_blockLinkBack, liteServer_shardBlockLink } from 'ton-lite-client/dist/schema.js';
import { withPrunedBranchFix } from '../../../ton/core-pruned-branch.js';
import type { BlockId } from '../../types.js';
import { MASTERCHAIN } from '../../../ton/workchain.js';
import { fromTlBlockId } from '../blocks.js';
import { childShards, parentShard, readMerkleUpdateNewHash, readProvenHeader, type BlockInfoFields } from '../block-cell.js';
import { LiteDataError } from '../errors.js';
import { provenRoot } from '../proofs.js';
import { keyBlockConfig, shardTop, stateConfig, stateOldMcBlock } from './proven-cells.js';
import type { ForwardLink } from './proof-tl.js';
import { checkSignatures } from './signatures.js';
import { checkSimplexSignatures } from './simplex-signatures.js';
import { configValidators, masterchainValidators, type ConfigValidators, type MasterchainValidators } from './validator-set.js';

export function sameBlock(a: Pick<BlockId, 'workchain' | 'shard' | 'seqno' | 'rootHash' | 'fileHash'>, b: typeof a): boolean {
  return (
    a.workchain === b.workchain &&
    a.shard === b.shard &&
    a.seqno === b.seqno &&
    a.rootHash.equals(b.rootHash) &&
    a.fileHash.equals(b.fileHash)
  );
}

export function describeBlock(id: Pick<BlockId, 'workchain' | 'shard' | 'seqno'>): string {
  return `(${id.workchain},${id.shard.toString(16)},${id.seqno})`;
}

/** One BoC root of a proof, checked to be a Merkle proof of the tree with hash `expected`. */
export function provenBoc(boc: Buffer, expected: Buffer, what: string): Cell {
  let roots: Cell[];
  try {
    roots = withPrunedBranchFix(() => Cell.fromBoc(boc));
  } catch (err) {
    throw new LiteDataError(`${what}: not a bag of cells (${(err as Error).message})`);
  }
  if (roots.length !== 1) throw new LiteDataError(`${what}: expected one root, got ${roots.length}`);
  return provenRoot(roots[0], expected, what);
}

/** The header of a proven block, checked to name `id`. */
function provenHeader(root: Cell, id: BlockId, what: string): BlockInfoFields {
  const header = readProvenHeader(root);
  if (header.workchain !== id.workchain || header.shard !== id.shard || header.seqno !== id.seqno)
    throw new LiteDataError(`${what}: the header names another block`);
  return header;
}

/**
 * Validator sets are read from a key block's config once: the next head's link from the same key block costs
 * only its header and its signatures. Kept per (key block, catchain seqno); a handful at most.
 */
export class ValidatorSetCache {
  private readonly configs = new Map<string, ConfigValidators>();
  private readonly sets = new Map<string, MasterchainValidators>();

  constructor(private readonly capacity = 8) {}

  get(from: BlockId, ccSeqno: number, config: () => Cell): MasterchainValidators {
    const key = from.rootHash.toString('hex');
    const setKey = `${key}:${ccSeqno}`;
    let set = this.sets.get(setKey);
    if (set) return set;
    let validators = this.configs.get(key);
    if (!validators) {
      validators = configValidators(config());
      remember(this.configs, key, validators, this.capacity);
    }
    set = masterchainValidators(validators, ccSeqno);
    remember(this.sets, setKey, set, this.capacity);
    return set;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, capacity: number): void {
  if (map.size >= capacity) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

export interface CheckedLink {
  from: BlockId;
  to: BlockId;
  toKeyBlock: boolean;
}

export function checkForwardLink(link: ForwardLink, cache: ValidatorSetCache): CheckedLink & { signedWeight: bigint; totalWeight: bigint } {
  const from = fromTlBlockId(link.from);
  const to = fromTlBlockId(link.to);
  const what = `forward proof link ${describeBlock(from)} -> ${describeBlock(to)}`;
  if (from.workchain !== MASTERCHAIN || to.workchain !== MASTERCHAIN) throw new LiteDataError(`${what}: not between masterchain blocks`);
  if (from.seqno >= to.seqno) throw new LiteDataError(`${what}: does not lead forward`);
  const dest = provenBoc(link.destProof, to.rootHash, `${what}: destination proof`);
  const header = provenHeader(dest, to, `${what}: destination proof`);
  if (header.keyBlock !== link.toKeyBlock) throw new LiteDataError(`${what}: the key block flag does not match the header`);
  const validators = cache.get(from, header.catchainSeqno, () => {
    const source = provenBoc(link.configProof, from.rootHash, `${what}: config proof`);
    if (from.seqno === 0) return stateConfig(source);
    const fromHeader = provenHeader(source, from, `${what}: config proof`);
    if (!fromHeader.keyBlock) throw new LiteDataError(`${what}: starts at a block that is not a key block`);
    return keyBlockConfig(source);
  });
  if (validators.hashShort >>> 0 !== header.validatorListHashShort >>> 0) {
    throw new LiteDataError(`${what}: the validators of the source's config are not the ones the block names`);
  }
  const signedWeight =
    link.signatures.kind === 'liteServer.signatureSet.simplex'
      ? checkSimplexSignatures(link.signatures, validators, to)
      : checkSignatures(link.signatures, validators, to);
  return { from, to, toKeyBlock: link.toKeyBlock, signedWeight, totalWeight: validators.totalWeight };
}

export function checkBackLink(link: liteServer_blockLinkBack): CheckedLink {
  const from = fromTlBlockId(link.from);
  const to = fromTlBlockId(link.to);
  const what = `backward proof link ${describeBlock(from)} -> ${describeBlock(to)}`;
  if (from.workchain !== MASTERCHAIN || to.workchain !== MASTERCHAIN) throw new LiteDataError(`${what}: not between masterchain blocks`);
  if (from.seqno <= to.seqno) throw new LiteDataError(`${what}: does not lead back`);
  const source = provenBoc(link.proof, from.rootHash, `${what}: proof`);
  provenHeader(source, from, `${what}: proof`);
  const stateHash = readMerkleUpdateNewHash(source.refs[2]);
  const state = provenBoc(link.stateProof, stateHash, `${what}: state proof`);
  const old = stateOldMcBlock(state, to.seqno);
  if (!old || !old.rootHash.equals(to.rootHash) || !old.fileHash.equals(to.fileHash))
    throw new LiteDataError(`${what}: the state does not list the destination`);
  if (old.isKey !== link.toKeyBlock) throw new LiteDataError(`${what}: the key block flag does not match the state`);
  if (to.seqno > 0) {
    const dest = provenBoc(link.destProof, to.rootHash, `${what}: destination proof`);
    if (provenHeader(dest, to, `${what}: destination proof`).keyBlock !== link.toKeyBlock)
      throw new LiteDataError(`${what}: the key block flag does not match the header`);
  }
  return { from, to, toKeyBlock: link.toKeyBlock };
}

/**
 * liteServer.shardBlockProof's links, from masterchain block `mc` down: returns the block the chain ends at (the
 * caller compares it with the block asked about).
 */
export function checkShardLinks(mc: BlockId, links: liteServer_shardBlockLink[]): BlockId {
  if (links.length > 8) throw new LiteDataError('shard block proof: more than 8 links');
  let cur = mc;
  for (const [i, link] of links.entries()) {
    const next = fromTlBlockId(link.id);
    const what = `shard block proof, link ${i + 1} ${describeBlock(cur)} -> ${describeBlock(next)}`;
    const root = provenBoc(link.proof, cur.rootHash, what);
    if (cur.workchain === MASTERCHAIN) {
      const top = shardTop(root, next.workchain, next.shard);
      if (!top || top.seqno !== next.seqno || !top.rootHash.equals(next.rootHash) || !top.fileHash.equals(next.fileHash)) {
        throw new LiteDataError(`${what}: the masterchain block does not record it as its shard's newest block`);
      }
    } else {
      const header = readProvenHeader(root);
      if (header.workchain !== cur.workchain || header.shard !== cur.shard || header.seqno !== cur.seqno)
        throw new LiteDataError(`${what}: the header names another block`);
      const prev = readPrevRefs(root, header);
      if (!prev.some((p) => sameBlock(p, next))) throw new LiteDataError(`${what}: not a previous block of the one before`);
    }
    cur = next;
  }
  return cur;
}

/** A proven shard block's previous block(s), with their shards (two after a merge, the parent after a split). */
function readPrevRefs(root: Cell, header: BlockInfoFields): BlockId[] {
  try {
    // BlockInfo's references: master_ref (shard blocks only), prev_ref, prev_vert_ref (when flagged).
    const prevCell = root.refs[0].refs[header.notMaster ? 1 : 0];
    const read = (c: Cell, shard: bigint): BlockId => {
      const s = c.beginParse();
      s.skip(64); // end_lt
      return { workchain: header.workchain, shard, seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
    };
    if (header.afterMerge) {
      const [left, right] = childShards(header.shard);
      return [read(prevCell.refs[0], left), read(prevCell.refs[1], right)];
    }
    return [read(prevCell, header.afterSplit ? parentShard(header.shard) : header.shard)];
  } catch (err) {
    throw new LiteDataError(`shard block proof: the previous blocks are not readable (${(err as Error).message})`);
  }
}
