/**
 * What the index's queries hand back, and the row mappers that more than one resource's queries share. Records
 * carry the stored JSON documents as text; api/v3 parses and merges them.
 */
import type { DetectedWallet } from '../../ton/wallet-detect.js';
import type { SqlRow } from '../sql/driver.js';
import { bigint, bytes, optionalBytes, optionalText, text } from '../sql/values.js';

export interface TransactionRecord {
  hash: Buffer;
  account: string;
  lt: bigint;
  /** The v3 transaction JSON; `in_msg` is a message hash (or null) and `out_msgs` a list of hashes. */
  doc: string;
  stateBefore: Buffer;
  stateAfter: Buffer;
  /** The trace it belongs to (null only in an index whose trace back-fill has not run). */
  traceId: Buffer | null;
}

export interface MessageRecord {
  hash: Buffer;
  /** The v3 message JSON. */
  doc: string;
  /** Raw uppercase addresses; null for an external end. */
  source: string | null;
  destination: string | null;
  inTxHash: Buffer | null;
  outTxHash: Buffer | null;
}

export interface LatestStateRecord {
  account: string;
  stateHash: Buffer;
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  balance: string;
  /** JSON `{"id": "amount"}`, null when the account holds none. */
  extraCurrencies: string | null;
  frozenHash: Buffer | null;
  codeHash: Buffer | null;
  dataHash: Buffer | null;
  codeBoc: Buffer | null;
  dataBoc: Buffer | null;
  lastTransHash: Buffer;
  lastTransLt: bigint;
  wallet: DetectedWallet | null;
  /** Interface names the code's get-methods say (tokens/method-ids.ts); [] when none or for wallets. */
  interfaces: string[];
}

export const TX_COLUMNS = 'hash, account, lt, doc, state_before, state_after, trace_id';
export const MSG_COLUMNS = 'msg_hash, doc, source, destination, in_tx_hash, out_tx_hash';

export function transactionOf(row: SqlRow): TransactionRecord {
  return {
    hash: bytes(row.hash),
    account: text(row.account),
    lt: bigint(row.lt),
    doc: text(row.doc),
    stateBefore: bytes(row.state_before),
    stateAfter: bytes(row.state_after),
    traceId: optionalBytes(row.trace_id),
  };
}

export function messageOf(row: SqlRow): MessageRecord {
  return {
    hash: bytes(row.msg_hash),
    doc: text(row.doc),
    source: optionalText(row.source),
    destination: optionalText(row.destination),
    inTxHash: optionalBytes(row.in_tx_hash),
    outTxHash: optionalBytes(row.out_tx_hash),
  };
}

export function latestOf(row: SqlRow): LatestStateRecord {
  const wallet = optionalText(row.wallet);
  return {
    account: text(row.account),
    stateHash: bytes(row.state_hash),
    status: text(row.status) as LatestStateRecord['status'],
    balance: text(row.balance),
    extraCurrencies: optionalText(row.extra_currencies),
    frozenHash: optionalBytes(row.frozen_hash),
    codeHash: optionalBytes(row.code_hash),
    dataHash: optionalBytes(row.data_hash),
    codeBoc: optionalBytes(row.code_boc),
    dataBoc: optionalBytes(row.data_boc),
    lastTransHash: bytes(row.last_trans_hash),
    lastTransLt: bigint(row.last_trans_lt),
    wallet: wallet === null ? null : (JSON.parse(wallet) as DetectedWallet),
    interfaces: typeof row.interfaces === 'string' ? (JSON.parse(row.interfaces) as string[]) : [],
  };
}
