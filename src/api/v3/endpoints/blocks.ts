import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { blockJson } from '../format/block.js';
import { PAGE_PARAMS, SORT_PARAM, WINDOW_PARAMS, windowOf } from '../params.js';

export const blocks = defineEndpoint({
  path: '/blocks',
  tag: 'blockchain',
  summary: 'Blocks by filters, ordered by generation time',
  params: {
    workchain: { type: 'int32', description: 'Block workchain.' },
    shard: { type: 'shard', description: 'Block shard id, hex (e.g. `8000000000000000`).' },
    seqno: { type: 'int32', description: 'Block seqno.' },
    root_hash: { type: 'hash', description: 'Block root hash.' },
    file_hash: { type: 'hash', description: 'Block file hash.' },
    mc_seqno: { type: 'int32', description: 'Masterchain block seqno: the masterchain block and the shard blocks it commits.' },
    ...WINDOW_PARAMS,
    ...PAGE_PARAMS,
    ...SORT_PARAM,
  },
  response: ref('BlocksResponse'),
  async handle(p, network) {
    const filter = {
      workchain: p.workchain,
      shard: p.shard,
      seqno: p.seqno,
      rootHash: p.root_hash,
      fileHash: p.file_hash,
      mcSeqno: p.mc_seqno,
      ...windowOf(p),
    };
    const found = await indexOf(network).blocks(filter, p.sort, p);
    return { blocks: found.map(blockJson) };
  },
});

/** The shard blocks a masterchain block commits (what v2's /shards lists). */
export const masterchainBlockShardState = defineEndpoint({
  path: '/masterchainBlockShardState',
  tag: 'blockchain',
  summary: 'Shard blocks committed by a masterchain block',
  params: { seqno: { type: 'int32', required: true, description: 'Masterchain block seqno.' } },
  response: ref('BlocksResponse'),
  async handle(p, network) {
    const found = await indexOf(network).shardState(p.seqno);
    if (found.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: found.map(blockJson) };
  },
});

/** Every block of one masterchain round: the masterchain block and the shard blocks it commits. */
export const masterchainBlockShards = defineEndpoint({
  path: '/masterchainBlockShards',
  tag: 'blockchain',
  summary: 'The masterchain block and the workchain blocks that appeared with it',
  params: { seqno: { type: 'int32', required: true, description: 'Masterchain block seqno.' }, ...PAGE_PARAMS },
  response: ref('BlocksResponse'),
  async handle(p, network) {
    const found = await indexOf(network).blocks({ mcSeqno: p.seqno }, 'desc', p);
    if (found.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: found.map(blockJson) };
  },
});
