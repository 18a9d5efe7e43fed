/** Chain transactions in v2's transaction shapes (the JSON itself is src/ton's). */
import type { ChainTransaction } from '../../../chain/types.js';
import { v2Transaction, v2TransactionStd, type ExtTransactionJson, type RawTransactionJson } from '../../../ton/transaction-json.js';

export function extTransaction(tx: ChainTransaction, testOnly: boolean): ExtTransactionJson {
  return v2Transaction(tx.tx, { workchain: tx.account.workChain, testOnly });
}

export function rawTransaction(tx: ChainTransaction, testOnly: boolean): RawTransactionJson {
  return v2TransactionStd(tx.tx, { workchain: tx.account.workChain, testOnly });
}
