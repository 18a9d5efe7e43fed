/**
 * A transaction as v2 writes it:
 *   v2Transaction     ext.transaction (getTransactions, tryLocate*): what TonClient's zod schema
 *                     and tonweb read: data (the transaction BoC, which TonClient re-parses),
 *                     transaction_id {lt, hash in standard base64}, fee strings, in_msg, out_msgs.
 *   v2TransactionStd  raw.transaction (getTransactionsStd, getBlockTransactionsExt).
 *
 * Fees follow tonlib: fee = total_fees, storage_fee = what the storage phase collected, other_fee
 * = the rest. A transaction without an inbound message (tick-tock) has no in_msg key: TonClient
 * accepts a missing in_msg but rejects null.
 */
import { Address, type Transaction, type TransactionDescription } from '@ton/core';
import { formatRawUpper, formatV2Address } from './address.js';
import { bocBase64 } from './boc.js';
import { hashFromBigInt } from './hash.js';
import { transactionMessageCells } from './message-cells.js';
import { v2Message, v2MessageStd, type ExtMessageJson, type RawMessageJson } from './message-json.js';
import { accountAddress, transactionId, type AccountAddressJson, type InternalTransactionId } from './tonlib-json.js';

export interface V2TransactionContext {
  /** The account's workchain (a transaction stores only the 256-bit account id). */
  workchain: number;
  /** The network's test-only flag for user-friendly addresses (see address.ts). */
  testOnly: boolean;
}

interface TransactionCommon {
  address: AccountAddressJson;
  utime: number;
  data: string;
  transaction_id: InternalTransactionId;
  fee: string;
  storage_fee: string;
  other_fee: string;
}

export interface ExtTransactionJson extends TransactionCommon {
  '@type': 'ext.transaction';
  account: string;
  in_msg?: ExtMessageJson;
  out_msgs: ExtMessageJson[];
}

export interface RawTransactionJson extends TransactionCommon {
  '@type': 'raw.transaction';
  in_msg?: RawMessageJson;
  out_msgs: RawMessageJson[];
}

/** The account a transaction belongs to. */
export function transactionAccount(tx: Transaction, workchain: number): Address {
  return new Address(workchain, hashFromBigInt(tx.address));
}

/** Storage fees collected by the transaction's storage phase (0 when it has none). */
export function storageFeesCollected(description: TransactionDescription): bigint {
  return 'storagePhase' in description && description.storagePhase ? description.storagePhase.storageFeesCollected : 0n;
}

/** The fields in front of the messages, in toncenter's order. */
function common(tx: Transaction, account: Address, testOnly: boolean): TransactionCommon {
  const fee = tx.totalFees.coins;
  const storageFee = storageFeesCollected(tx.description);
  return {
    address: accountAddress(formatV2Address(account, testOnly)),
    utime: tx.now,
    data: bocBase64(tx.raw),
    transaction_id: transactionId(tx.lt, tx.hash()),
    fee: fee.toString(),
    storage_fee: storageFee.toString(),
    other_fee: (fee - storageFee).toString(),
  };
}

/** v2 `ext.transaction`. */
export function v2Transaction(tx: Transaction, context: V2TransactionContext): ExtTransactionJson {
  const account = transactionAccount(tx, context.workchain);
  const { address, ...rest } = common(tx, account, context.testOnly);
  const cells = transactionMessageCells(tx);
  return {
    '@type': 'ext.transaction',
    address,
    account: formatRawUpper(account),
    ...rest,
    ...(cells.inMessage ? { in_msg: v2Message(cells.inMessage, context.testOnly) } : {}),
    out_msgs: cells.outMessages.map((cell) => v2Message(cell, context.testOnly)),
  };
}

/** v2 `raw.transaction`. */
export function v2TransactionStd(tx: Transaction, context: V2TransactionContext): RawTransactionJson {
  const account = transactionAccount(tx, context.workchain);
  const cells = transactionMessageCells(tx);
  return {
    '@type': 'raw.transaction',
    ...common(tx, account, context.testOnly),
    ...(cells.inMessage ? { in_msg: v2MessageStd(cells.inMessage, context.testOnly) } : {}),
    out_msgs: cells.outMessages.map((cell) => v2MessageStd(cell, context.testOnly)),
  };
}
