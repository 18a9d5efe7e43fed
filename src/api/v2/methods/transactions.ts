/**
 * An account's transactions, newest first, the way TonClient pages them: a page starts AT (lt, hash) when
 * given (TonClient asks for limit+1 and drops that first row), stops before `to_lt`, and holds at most
 * `limit` rows. `archival` is accepted and ignored: the local chain keeps its whole history.
 */
import { hashFromBigInt } from '../../../ton/hash.js';
import { transactionId } from '../../../ton/tonlib-json.js';
import { badParameter } from '../../../http/api-error.js';
import { extTransaction, rawTransaction } from '../format/transactions.js';
import { defineMethod } from '../method.js';
import type { ParsedParams } from '../params.js';
import { ADDRESS, LT } from './common-params.js';
import type { NetworkContext } from '../../../http/network-context.js';

/** toncenter's C++ server refuses more than 1000 per page ("limit should be less or equal 1000"). */
export const MAX_TRANSACTIONS_LIMIT = 1000;

const params = {
  address: ADDRESS,
  limit: { type: 'int', default: 10, min: 1, max: MAX_TRANSACTIONS_LIMIT, description: 'Rows per page (1..1000, default 10).' },
  lt: { ...LT, description: 'Start at the transaction with this lt (inclusive); with hash, it must be that transaction.' },
  hash: { type: 'hash', description: 'Hash of the transaction at lt (hex, base64 or base64url); needs lt.' },
  to_lt: { ...LT, default: 0n, description: 'Stop before reaching this lt (exclusive; 0: the whole history).' },
  archival: { type: 'bool', default: false, description: 'Accepted for compatibility; the local chain keeps everything.' },
} as const;

async function page({ address, limit, lt, hash, to_lt }: ParsedParams<typeof params>, network: NetworkContext) {
  if (hash !== undefined && lt === undefined) throw badParameter('hash', 'lt and hash should be used together: give lt too');
  return network.chain.getTransactions(address, { lt, hash, toLt: to_lt > 0n ? to_lt : undefined, limit });
}

export const getTransactions = defineMethod({
  name: 'getTransactions',
  verbs: ['GET', 'POST'],
  summary: 'Transactions of an account, newest first (ext.transaction), paged by lt and hash.',
  params,
  async handle(parsed, network) {
    return (await page(parsed, network)).map((tx) => extTransaction(tx, network.testOnly));
  },
});

export const getTransactionsStd = defineMethod({
  name: 'getTransactionsStd',
  verbs: ['GET', 'POST'],
  summary: "The same page as getTransactions in tonlib's raw.transactions form, with the id of the transaction before it.",
  params,
  async handle(parsed, network) {
    const txs = await page(parsed, network);
    const last = txs.at(-1)?.tx;
    return {
      '@type': 'raw.transactions',
      transactions: txs.map((tx) => rawTransaction(tx, network.testOnly)),
      // Where the next page starts: the transaction before the last row (zero when the history ends there).
      previous_transaction_id: last
        ? transactionId(last.prevTransactionLt, hashFromBigInt(last.prevTransactionHash))
        : transactionId(0n, Buffer.alloc(32)),
    };
  },
});
