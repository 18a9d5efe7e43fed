/**
 * Finding blocks: by seqno, lt or time (lookupBlock), the shards a masterchain block commits
 * (getShards, alias shards), a block's header, and the newest final block (getConsensusBlock).
 */
import type { Block, BlockRef } from '../../../chain/types.js';
import { MASTERCHAIN, WHOLE_SHARD } from '../../../ton/workchain.js';
import { blockIdExt, formatV2Shard } from '../../../ton/block-id.js';
import { ApiError } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { blockHeader } from '../format/block.js';
import { defineMethod } from '../method.js';
import { BLOCK_SEQNO, LT, SEQNO_REQUIRED, SHARD, WORKCHAIN } from './common-params.js';

function describe(ref: BlockRef): string {
  return `block (${ref.workchain}, ${formatV2Shard(ref.shard)}, ${ref.seqno})`;
}

/**
 * The block at ref, checked against the root and file hashes when the client gave them (a liteserver
 * answers only for the exact block id it was asked about).
 */
export async function findBlock(
  network: NetworkContext,
  ref: BlockRef,
  hashes: { root_hash?: Buffer; file_hash?: Buffer } = {},
): Promise<Block> {
  const block = await network.chain.getBlock(ref);
  if (!block) throw new ApiError(404, `${describe(ref)} not found`);
  if (hashes.root_hash && !hashes.root_hash.equals(block.id.rootHash)) throw new ApiError(404, `${describe(ref)} has another root_hash`);
  if (hashes.file_hash && !hashes.file_hash.equals(block.id.fileHash)) throw new ApiError(404, `${describe(ref)} has another file_hash`);
  return block;
}

/** The masterchain block `seqno`, or a 404 naming it. */
export function findMasterchainBlock(network: NetworkContext, seqno: number): Promise<Block> {
  return findBlock(network, { workchain: MASTERCHAIN, shard: WHOLE_SHARD, seqno });
}

export const lookupBlock = defineMethod({
  name: 'lookupBlock',
  verbs: ['GET', 'POST'],
  summary: 'The block of a shard with a given seqno, containing a given lt, or the last one generated at or before unixtime.',
  params: {
    workchain: WORKCHAIN,
    shard: SHARD,
    seqno: { type: 'int', min: 0, description: 'Block seqno.' },
    lt: { ...LT, description: 'A logical time inside the block.' },
    unixtime: { type: 'int', min: 0, description: 'The block generated last at or before this time.' },
  },
  async handle({ workchain, shard, seqno, lt, unixtime }, network) {
    const given = [seqno, lt, unixtime].filter((v) => v !== undefined).length;
    if (given !== 1) throw new ApiError(422, 'exactly one of seqno, lt, unixtime should be specified');
    const block = await network.chain.lookupBlock({ workchain, shard, seqno, lt, utime: unixtime });
    if (!block) {
      const by = seqno !== undefined ? `seqno ${seqno}` : lt !== undefined ? `lt ${lt}` : `unixtime ${unixtime}`;
      throw new ApiError(404, `no block of (${workchain}, ${formatV2Shard(shard)}) with ${by}`);
    }
    return blockIdExt(block.id);
  },
});

export const getShards = defineMethod({
  name: 'getShards',
  aliases: ['shards'],
  verbs: ['GET', 'POST'],
  summary: 'The shard blocks a masterchain block commits (the local chain has one basechain shard).',
  params: { seqno: SEQNO_REQUIRED },
  async handle({ seqno }, network) {
    // An unknown seqno is an error, never an empty list: TonClient caches this answer forever.
    const shards = await network.chain.shardsAt(seqno);
    return { '@type': 'blocks.shards', shards: shards.map(blockIdExt) };
  },
});

export const getBlockHeader = defineMethod({
  name: 'getBlockHeader',
  verbs: ['GET', 'POST'],
  summary: 'The header of a block (blocks.header).',
  params: {
    workchain: WORKCHAIN,
    shard: SHARD,
    seqno: BLOCK_SEQNO,
    root_hash: { type: 'hash', description: 'When given, the block must have this root hash.' },
    file_hash: { type: 'hash', description: 'When given, the block must have this file hash.' },
  },
  async handle({ workchain, shard, seqno, root_hash, file_hash }, network) {
    return blockHeader(await findBlock(network, { workchain, shard, seqno }, { root_hash, file_hash }));
  },
});

export const getConsensusBlock = defineMethod({
  name: 'getConsensusBlock',
  verbs: ['GET', 'POST'],
  summary: 'The newest final masterchain block: on the local chain every sealed block is final.',
  params: {},
  handle(_params, network) {
    const last = network.chain.masterchainInfo().last;
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: last.id.seqno, timestamp: last.genUtime };
  },
});
