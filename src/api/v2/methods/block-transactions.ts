/**
 * The transactions of one block, in (account, lt) order as a liteserver lists them, paged with
 * after_lt + after_hash (the account id of the last row). getBlockTransactions gives short ids (TonClient
 * reads `account` with Address.parseRaw, so it is the raw form); getBlockTransactionsExt full transactions.
 */
import type { BlockTransactions } from '../../../chain/types.js';
import { parseAddress, formatRawLower, formatRawUpper } from '../../../ton/address.js';
import { blockIdExt } from '../../../ton/block-id.js';
import { formatHash, parseHash, ZERO_HASH } from '../../../ton/hash.js';
import { TonInputError } from '../../../ton/errors.js';
import { badParameter } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { rawTransaction } from '../format/transactions.js';
import { defineMethod } from '../method.js';
import type { ParsedParams } from '../params.js';
import { findBlock } from './block-lookup.js';
import { BLOCK_SEQNO, LT, SHARD, WORKCHAIN } from './common-params.js';

/** toncenter's C++ server refuses more ("count should be less or equal 10000"). */
export const MAX_BLOCK_TRANSACTIONS_COUNT = 10_000;
/** tonlib's mode bits of a short transaction id: account, lt and hash are filled (and the 'with account' flag). */
const SHORT_TX_MODE = 135;

const params = {
  workchain: WORKCHAIN,
  shard: SHARD,
  seqno: BLOCK_SEQNO,
  root_hash: { type: 'hash', description: 'When given, the block must have this root hash.' },
  file_hash: { type: 'hash', description: 'When given, the block must have this file hash.' },
  after_lt: {
    ...LT,
    description: 'Continue after the transaction with this lt (of the account after_hash; alone: of the zero account id).',
  },
  after_hash: {
    type: 'string',
    description: 'Account id (hex or base64, or a full address) of the last row of the previous page (alone: after_lt 0).',
  },
  count: { type: 'int', default: 40, min: 1, max: MAX_BLOCK_TRANSACTIONS_COUNT, description: 'Rows per page (default 40).' },
} as const;

/** after_hash names an account within the block's workchain: its 32-byte id, or an address for convenience. */
function accountId(raw: string): Buffer {
  try {
    return parseHash(raw);
  } catch (hashError) {
    try {
      return parseAddress(raw).address.hash;
    } catch {
      throw badParameter('after_hash', (hashError as TonInputError).message);
    }
  }
}

async function page(
  p: ParsedParams<typeof params>,
  network: NetworkContext,
): Promise<BlockTransactions & { id: ReturnType<typeof blockIdExt> }> {
  const ref = { workchain: p.workchain, shard: p.shard, seqno: p.seqno };
  const block = await findBlock(network, ref, { root_hash: p.root_hash, file_hash: p.file_hash });
  // One of the two alone is taken as toncenter's tonlib server takes it: the other is zero (the zero account id,
  // lt 0). Its C++ server refuses it ("after_lt and after_hash should be used together"); clients of either work here.
  const paged = p.after_lt !== undefined || p.after_hash !== undefined;
  const afterAccount = p.after_hash !== undefined ? accountId(p.after_hash) : paged ? ZERO_HASH : undefined;
  const afterLt = p.after_lt ?? (paged ? 0n : undefined);
  const listed = await network.chain.blockTransactions(ref, { afterAccount, afterLt, count: p.count });
  return { ...listed, id: blockIdExt(block.id) };
}

export const getBlockTransactions = defineMethod({
  name: 'getBlockTransactions',
  verbs: ['GET', 'POST'],
  summary: 'Short ids (account, lt, hash) of the transactions of a block.',
  params,
  async handle(p, network) {
    const listed = await page(p, network);
    return {
      '@type': 'blocks.transactions',
      id: listed.id,
      req_count: p.count,
      incomplete: listed.incomplete,
      transactions: listed.transactions.map((tx) => ({
        '@type': 'blocks.shortTxId',
        mode: SHORT_TX_MODE,
        account: formatRawLower(tx.account),
        lt: tx.lt.toString(),
        hash: formatHash(tx.hash),
      })),
    };
  },
});

export const getBlockTransactionsExt = defineMethod({
  name: 'getBlockTransactionsExt',
  verbs: ['GET', 'POST'],
  summary: "Full transactions of a block (raw.transaction with the account's raw address).",
  params,
  async handle(p, network) {
    const listed = await page(p, network);
    return {
      '@type': 'blocks.transactionsExt',
      id: listed.id,
      req_count: p.count,
      incomplete: listed.incomplete,
      transactions: listed.transactions.map((tx) => ({
        ...rawTransaction(tx, network.testOnly),
        '@type': 'raw.transactionExt',
        account: formatRawUpper(tx.account),
      })),
    };
  },
});
