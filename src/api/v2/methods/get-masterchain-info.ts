import { defineMethod } from '../method.js';
import { blockIdExt } from '../../../ton/block-id.js';
import { atChainHead } from '../../per-block/head-answers.js';

/**
 * The newest masterchain block, the state hash after it, and the zero state. toncenter writes the zero
 * state's shard as "0" (it comes from the tonlib config, not from a block header); so do we. Built once per
 * block (src/api/per-block).
 */
export const getMasterchainInfo = defineMethod({
  name: 'getMasterchainInfo',
  verbs: ['GET', 'POST'],
  summary: 'The last masterchain block, the state hash after it, and the zero state.',
  params: {},
  handle(_params, network) {
    return atChainHead(network, 'getMasterchainInfo', () => {
      const info = network.chain.masterchainInfo();
      return {
        '@type': 'blocks.masterchainInfo',
        last: blockIdExt(info.last.id),
        state_root_hash: info.stateRootHash.toString('base64'),
        init: { ...blockIdExt(info.first.id), shard: '0' },
      };
    });
  },
});
