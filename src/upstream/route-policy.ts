/**
 * What may be done with a forwarded request, decided from the request alone (the upstream's answer does
 * not matter): is it a read (then it may be sent again, and identical concurrent ones share one upstream
 * call), and may its answer be kept, and for how long.
 *
 * Reads are an allow-list: a method not named here is treated as one that may change state, so it is sent
 * once and never coalesced. The lists name toncenter's methods (they are the upstream's API, not tongate's
 * own routes in src/api, which this room does not depend on).
 */
export type Keep = 'block' | 'final';

export interface RoutePolicy {
  /** Safe to send more than once: nothing changes on the chain. */
  read: boolean;
  /** How long a 200 may be kept: `block` (changes with each block), `final` (never changes once it exists). */
  keep?: Keep;
}

const V2_READS = new Set([
  'getAddressInformation',
  'getExtendedAddressInformation',
  'getWalletInformation',
  'getAddressBalance',
  'getAddressState',
  'getShardAccountCell',
  'getTokenData',
  'dnsResolve',
  'getTransactions',
  'getTransactionsStd',
  'tryLocateTx',
  'tryLocateResultTx',
  'tryLocateSourceTx',
  'getMasterchainInfo',
  'getConsensusBlock',
  'lookupBlock',
  'getShards',
  'shards',
  'getBlockHeader',
  'getBlockTransactions',
  'getBlockTransactionsExt',
  'getOutMsgQueueSize',
  'getMasterchainBlockSignatures',
  'getShardBlockProof',
  'getConfigParam',
  'getConfigAll',
  'getLibraries',
  'detectAddress',
  'detectHash',
  'packAddress',
  'unpackAddress',
  'runGetMethod',
  'runGetMethodStd',
  'estimateFee',
]);
/** Answers that are the chain's newest state: kept at most one block interval. */
const V2_LATEST = new Set(['getMasterchainInfo', 'getConsensusBlock']);
/** Answers about one block, final once the block exists (TON's masterchain blocks are final when reported). */
const V2_BLOCK = new Set(['getBlockHeader', 'getShards', 'shards', 'getBlockTransactions', 'getBlockTransactionsExt']);
/** POST endpoints of v3 that only read; every other POST (`message`) is a write. */
const V3_POST_READS = new Set(['/runGetMethod', '/estimateFee']);

const has = (params: Params, name: string) => params[name] !== undefined && params[name] !== null && params[name] !== '';
export type Params = Record<string, unknown>;

/** v2: the method is the REST path's name, or JSON-RPC's `method`; params from the query or the body. */
export function v2Policy(method: string, params: Params): RoutePolicy {
  if (!V2_READS.has(method)) return { read: false };
  if (V2_LATEST.has(method)) return { read: true, keep: 'block' };
  if (method === 'getConfigParam' || method === 'getConfigAll') return { read: true, keep: has(params, 'seqno') ? 'final' : 'block' };
  if (V2_BLOCK.has(method)) return { read: true, keep: has(params, 'seqno') ? 'final' : undefined };
  if (method === 'lookupBlock') return { read: true, keep: has(params, 'seqno') ? 'final' : undefined };
  // A page of transactions that starts at one named transaction reaches back in history: it never changes.
  if (method === 'getTransactions') return { read: true, keep: has(params, 'lt') && has(params, 'hash') ? 'final' : undefined };
  return { read: true };
}

/** v3: every GET reads; a POST reads only for the endpoints above. */
export function v3Policy(httpMethod: string, path: string, query: Params): RoutePolicy {
  if (httpMethod === 'POST') return { read: V3_POST_READS.has(path) };
  if (httpMethod !== 'GET' && httpMethod !== 'HEAD') return { read: false };
  if (path === '/masterchainInfo') return { read: true, keep: 'block' };
  if (path === '/transactions' && has(query, 'hash') && Object.keys(query).every((k) => k === 'hash' || k === 'api_key'))
    return { read: true, keep: 'final' };
  return { read: true };
}
