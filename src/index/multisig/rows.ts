/** The multisig tables' rows and upserts (a newer state replaces an older one; first_lt, the insertion order, stays). */
import type { InsertBatch } from '../sql/driver.js';
import { newestState } from '../tokens/token-rows.js';

export interface MultisigRow {
  /** first_lt when the contract was met earlier in the same group of blocks (tokens/detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  /** -1 for a wallet that takes any seqno (allow_arbitrary_order_seqno). */
  nextOrderSeqno: bigint;
  threshold: number;
  /** Raw addresses, in index order. */
  signers: string[];
  proposers: string[];
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

export interface MultisigOrderRow {
  firstLt?: bigint;
  address: string;
  multisig: string;
  orderSeqno: bigint;
  threshold: number;
  sentForExecution: boolean;
  approvalsMask: bigint;
  approvalsNum: number;
  expirationDate: bigint;
  /** The order's actions dictionary, base64 BoC. */
  orderBoc: string;
  signers: string[];
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const WALLET_COLUMNS = [
  'address',
  'next_order_seqno',
  'threshold',
  'signers',
  'proposers',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];

export function multisigBatch(rows: MultisigRow[]): InsertBatch {
  return {
    table: 'multisig_wallets',
    columns: WALLET_COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.nextOrderSeqno.toString(),
      r.threshold,
      JSON.stringify(r.signers),
      JSON.stringify(r.proposers),
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.firstLt ?? r.lastTxLt,
    ]),
    conflict: newestState('multisig_wallets', WALLET_COLUMNS),
  };
}

/** Who signs and proposes, as of each wallet's state (a former member keeps an older lt: see schema.ts). */
export function memberBatch(rows: MultisigRow[]): InsertBatch {
  return {
    table: 'multisig_members',
    columns: ['wallet_address', 'multisig_address', 'role', 'last_transaction_lt'],
    rows: rows.flatMap((r) => [
      ...r.signers.map((s) => [s, r.address, 'signer', r.lastTxLt]),
      ...r.proposers.map((p) => [p, r.address, 'proposer', r.lastTxLt]),
    ]),
    conflict:
      'ON CONFLICT (wallet_address, multisig_address, role) DO UPDATE SET last_transaction_lt = excluded.last_transaction_lt ' +
      'WHERE excluded.last_transaction_lt >= multisig_members.last_transaction_lt',
  };
}

const ORDER_COLUMNS = [
  'address',
  'multisig_address',
  'order_seqno',
  'threshold',
  'sent_for_execution',
  'approvals_mask',
  'approvals_num',
  'expiration_date',
  'order_boc',
  'signers',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];

export function orderBatch(rows: MultisigOrderRow[]): InsertBatch {
  return {
    table: 'multisig_orders',
    columns: ORDER_COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.multisig,
      r.orderSeqno.toString(),
      r.threshold,
      r.sentForExecution ? 1 : 0,
      r.approvalsMask.toString(),
      r.approvalsNum,
      r.expirationDate,
      r.orderBoc,
      JSON.stringify(r.signers),
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.firstLt ?? r.lastTxLt,
    ]),
    conflict: newestState('multisig_orders', ORDER_COLUMNS),
  };
}
