import { blockJson } from '../format/block.js';
import { defineEndpoint, ref } from '../endpoint.js';
import { atIndexedHead } from '../../per-block/head-answers.js';

/**
 * `{"last":Block,"first":Block}` (toncenter writes `last` first): the newest and the oldest indexed
 * masterchain blocks, so `last` never runs ahead of what /blocks and /transactions can answer. Before
 * the index holds a block (or on a network served without one) the chain answers. Built once per indexed block
 * (src/api/per-block): between blocks the same text is sent, with no query to the index's reader threads.
 */
export const masterchainInfo = defineEndpoint({
  path: '/masterchainInfo',
  tag: 'blockchain',
  summary: 'First and last indexed masterchain blocks',
  params: {},
  response: ref('MasterchainInfo'),
  handle(_params, network) {
    return atIndexedHead(network, 'masterchainInfo', async () => {
      const range = (await network.index?.masterchainRange()) ?? network.chain.masterchainInfo();
      return { last: blockJson(range.last), first: blockJson(range.first) };
    });
  },
});
