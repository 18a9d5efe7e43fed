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

/** The policies, made once (a request's policy is one of these, never built per request). */
const WRITE: RoutePolicy = Object.freeze({ read: false });
const READ: RoutePolicy = Object.freeze({ read: true });
const READ_BLOCK: RoutePolicy = Object.freeze({ read: true, keep: 'block' });
const READ_FINAL: RoutePolicy = Object.freeze({ read: true, keep: 'final' });
/** A read of a kind that may be kept, but not this one (its block or transaction is not named). */
const READ_NOT_FINAL: RoutePolicy = Object.freeze({ read: true, keep: undefined });

const has = (params: Params, name: string) => params[name] !== undefined && params[name] !== null && params[name] !== '';
export type Params = Record<string, unknown>;

/** v2: the method is the REST path's name, or JSON-RPC's `method`; params from the query or the body. */
export function v2Policy(method: string, params: Params): RoutePolicy {
  if (!V2_READS.has(method)) return WRITE;
  if (V2_LATEST.has(method)) return READ_BLOCK;
  if (method === 'getConfigParam' || method === 'getConfigAll') return has(params, 'seqno') ? READ_FINAL : READ_BLOCK;
  if (V2_BLOCK.has(method)) return has(params, 'seqno') ? READ_FINAL : READ_NOT_FINAL;
  if (method === 'lookupBlock') return has(params, 'seqno') ? READ_FINAL : READ_NOT_FINAL;
  // A page of transactions that starts at one named transaction reaches back in history: it never changes.
  if (method === 'getTransactions') return has(params, 'lt') && has(params, 'hash') ? READ_FINAL : READ_NOT_FINAL;
  return READ;
}

/** v3: every GET reads; a POST reads only for the endpoints above. */
export function v3Policy(httpMethod: string, path: string, query: Params): RoutePolicy {
  if (httpMethod === 'POST') return V3_POST_READS.has(path) ? READ : WRITE;
  if (httpMethod !== 'GET' && httpMethod !== 'HEAD') return WRITE;
  if (path === '/masterchainInfo') return READ_BLOCK;
  if (path === '/transactions' && has(query, 'hash') && Object.keys(query).every((k) => k === 'hash' || k === 'api_key')) return READ_FINAL;
  return READ;
}
