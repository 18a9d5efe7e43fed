/**
 * getOutMsgQueueSize: internal messages waiting to be delivered, per shard. The local chain delivers
 * internal messages in capped slices, so a queue can really build up under load; it reports its length.
 * External messages never queue (each is executed when it arrives), hence a limit of 0.
 */
import type { Chain } from '../../../chain/types.js';
import { blockIdExt } from '../../../ton/block-id.js';
import { ApiError } from '../../../http/api-error.js';
import { defineMethod } from '../method.js';

/** Chains that can tell how many internal messages wait for delivery (the local chain's stats()). */
interface QueueStats {
  stats(): { pendingMessages: number };
}

function hasQueueStats(chain: Chain): chain is Chain & QueueStats {
  return typeof (chain as Partial<QueueStats>).stats === 'function';
}

export const getOutMsgQueueSize = defineMethod({
  name: 'getOutMsgQueueSize',
  verbs: ['GET', 'POST'],
  summary: 'Internal messages waiting for delivery, per shard block (the local chain queues them on its basechain).',
  params: {},
  async handle(_params, network) {
    const { chain } = network;
    if (!hasQueueStats(chain)) throw new ApiError(501, `getOutMsgQueueSize is not available on ${network.name}`);
    const last = chain.masterchainInfo().last;
    const shards = await chain.shardsAt(last.id.seqno);
    const pending = chain.stats().pendingMessages;
    return {
      '@type': 'blocks.outMsgQueueSizes',
      shards: [
        // Only basechain accounts execute on the local chain: nothing queues for the masterchain.
        { '@type': 'blocks.outMsgQueueSize', id: blockIdExt(last.id), size: 0 },
        ...shards.map((id) => ({ '@type': 'blocks.outMsgQueueSize', id: blockIdExt(id), size: pending })),
      ],
      ext_msg_queue_size_limit: 0,
    };
  },
});
