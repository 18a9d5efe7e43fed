import { ApiError } from '../../../http/api-error.js';
import { expandActionTypes } from '../../../index/actions/versions.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { TRACE_PAGE_LIMITS, tracesText } from '../format/traces.js';
import { PAGE_PARAMS, SORT_PARAM, windowOf } from '../params.js';
import { requireMasterchainBlock } from './transactions.js';
import { SUPPORTED_ACTION_TYPES, traceActions } from './actions.js';

export const traces = defineEndpoint({
  path: '/traces',
  tag: 'traces',
  summary: 'Traces (a root transaction and every transaction its messages led to), ordered by their end',
  params: {
    account: { type: 'address', description: 'Traces with a transaction of this account.' },
    trace_id: { type: 'hash[]', maxItems: 1000, description: 'Traces by id (the hash of the root transaction).' },
    tx_hash: { type: 'hash[]', maxItems: 1000, description: 'Traces holding these transactions.' },
    msg_hash: { type: 'hash[]', maxItems: 1000, description: 'Traces holding these messages (hash or normalized hash).' },
    mc_seqno: { type: 'int32', description: 'Complete traces that ended in this masterchain block.' },
    start_utime: { type: 'utime', description: 'Traces that ended at or after this time (orders by end_utime).' },
    end_utime: { type: 'utime', description: 'Traces that ended at or before this time (orders by end_utime).' },
    start_lt: { type: 'int64', description: 'Traces with end_lt >= start_lt.' },
    end_lt: { type: 'int64', description: 'Traces with end_lt <= end_lt.' },
    include_actions: { type: 'bool', default: false, description: "Add each trace's actions." },
    supported_action_types: SUPPORTED_ACTION_TYPES,
    ...PAGE_PARAMS,
    ...SORT_PARAM,
  },
  response: ref('TracesResponse'),
  async handle(p, network) {
    const selectors = [p.account !== undefined, p.trace_id.length > 0, p.tx_hash.length > 0, p.msg_hash.length > 0].filter(Boolean).length;
    if (selectors > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
    const reader = indexOf(network);
    await requireMasterchainBlock(reader, p.mc_seqno);
    const filter = {
      account: p.account,
      traceIds: p.trace_id,
      txHashes: p.tx_hash,
      msgHashes: p.msg_hash,
      mcSeqno: p.mc_seqno,
      ...windowOf(p),
    };
    const page = await reader.tracePage(filter, p.sort, p, TRACE_PAGE_LIMITS);
    // Each trace's classification_state, and its actions when asked (endpoints/actions.ts).
    const ids = page.traces.map((row) => Buffer.from(row.traceId, 'base64'));
    const [transactions, actions] = await Promise.all([
      reader.transactionPage(page.transactions, true),
      traceActions(reader, ids, p.include_actions, expandActionTypes(p.supported_action_types), network.testOnly),
    ]);
    return tracesText(page, transactions, actions, network.testOnly);
  },
});
