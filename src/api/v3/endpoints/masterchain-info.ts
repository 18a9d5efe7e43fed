import { blockJson } from '../format/block.js';
import { defineEndpoint, ref } from '../endpoint.js';

/**
 * `{"last":Block,"first":Block}` (toncenter writes `last` first): the newest and the oldest indexed
 * masterchain blocks, so `last` never runs ahead of what /blocks and /transactions can answer. Before
 * the index holds a block (or on a network served without one) the chain answers.
 */
export const masterchainInfo = defineEndpoint({
  path: '/masterchainInfo',
  tag: 'blockchain',
  summary: 'First and last indexed masterchain blocks',
  params: {},
  response: ref('MasterchainInfo'),
  async handle(_params, network) {
    const range = (await network.index?.masterchainRange()) ?? network.chain.masterchainInfo();
    return { last: blockJson(range.last), first: blockJson(range.first) };
  },
});
