/**
 * Finds the two ends of an internal message known by (source, destination, created_lt): the transaction
 * that sent it (tryLocateSourceTx) and the one that received it (tryLocateResultTx; tryLocateTx is the
 * same). The sender is found first: a message created at lt L comes from the source account's newest
 * transaction below L. Its out message with that destination and created_lt gives the message hash, and
 * the chain knows which transaction consumed that message.
 */
import type { Address } from '@ton/core';
import type { ChainTransaction } from '../../../chain/types.js';
import { messageParts, transactionMessageCells } from '../../../ton/message-cells.js';
import { ApiError } from '../../../http/api-error.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { extTransaction } from '../format/transactions.js';
import { defineMethod } from '../method.js';
import { LT } from './common-params.js';

const params = {
  source: { type: 'address', required: true, description: 'Sender of the message.' },
  destination: { type: 'address', required: true, description: 'Receiver of the message.' },
  created_lt: { ...LT, required: true, description: 'created_lt of the message.' },
} as const;

const notFound = () => new ApiError(404, 'transaction not found');

interface Located {
  sourceTx: ChainTransaction;
  messageHash: Buffer;
}

async function locateSource(network: NetworkContext, source: Address, destination: Address, createdLt: bigint): Promise<Located> {
  if (createdLt === 0n) throw notFound();
  const [sourceTx] = await network.chain.getTransactions(source, { lt: createdLt - 1n, limit: 1 });
  if (!sourceTx) throw notFound();
  for (const cell of transactionMessageCells(sourceTx.tx).outMessages) {
    const { info } = messageParts(cell);
    if (info.type === 'internal' && info.createdLt === createdLt && info.dest.equals(destination)) {
      return { sourceTx, messageHash: cell.hash() };
    }
  }
  throw notFound();
}

async function locateResult(network: NetworkContext, source: Address, destination: Address, createdLt: bigint): Promise<ChainTransaction> {
  const { sourceTx, messageHash } = await locateSource(network, source, destination, createdLt);
  const txs = await network.chain.getTransactionsByMessage(messageHash);
  // A message to oneself has both ends on one account: the receiver is the other transaction.
  const result = txs.find((tx) => tx.account.equals(destination) && !tx.hash.equals(sourceTx.hash));
  if (!result) throw notFound();
  return result;
}

const resultSummary = 'The transaction that received the internal message (source, destination, created_lt).';

export const tryLocateTx = defineMethod({
  name: 'tryLocateTx',
  verbs: ['GET', 'POST'],
  summary: `${resultSummary} Same as tryLocateResultTx.`,
  params,
  async handle({ source, destination, created_lt }, network) {
    return extTransaction(await locateResult(network, source, destination, created_lt), network.testOnly);
  },
});

export const tryLocateResultTx = defineMethod({
  name: 'tryLocateResultTx',
  verbs: ['GET', 'POST'],
  summary: resultSummary,
  params,
  async handle({ source, destination, created_lt }, network) {
    return extTransaction(await locateResult(network, source, destination, created_lt), network.testOnly);
  },
});

export const tryLocateSourceTx = defineMethod({
  name: 'tryLocateSourceTx',
  verbs: ['GET', 'POST'],
  summary: 'The transaction that sent the internal message (source, destination, created_lt).',
  params,
  async handle({ source, destination, created_lt }, network) {
    return extTransaction((await locateSource(network, source, destination, created_lt)).sourceTx, network.testOnly);
  },
});
