/**
 * A transaction as v3 writes it (the index's Transaction): raw uppercase account, base64 hashes,
 * lt and fees as strings, `now` a number, the description with its phases, the block it is in,
 * in_msg (null when none) and out_msgs, and the account state hashes before and after.
 * Field order follows the index's JSON.
 */
import type { Transaction } from '@ton/core';
import { formatRawUpper } from './address.js';
import { v3AccountState, type AccountStateInfo, type V3AccountStateJson } from './account-state-json.js';
import { v3BlockRef, type BlockRefInput, type V3BlockRef } from './block-id.js';
import { formatHash, hashFromBigInt } from './hash.js';
import { transactionMessageCells } from './message-cells.js';
import { v3Message, type V3MessageJson } from './message-json.js';
import { extraCurrenciesMap } from './tonlib-json.js';
import { v3TransactionDescription } from './transaction-description-json.js';
import { transactionAccount } from './transaction-json.js';

export interface V3TransactionContext {
  /** The block the transaction is in (its workchain is the account's). */
  block: BlockRefInput;
  /** The masterchain block that committed that block. */
  mcBlockSeqno: number;
  /** Hash of the first transaction of the trace, when the index tracks traces. */
  /** The trace id: its bytes, or already as base64 text (the pending layer's). */
  traceId?: Buffer | string | null;
  /** Account details before/after; missing or null writes only the state hash (see account-state-json.ts). */
  accountStateBefore?: AccountStateInfo | null;
  accountStateAfter?: AccountStateInfo | null;
  /** True for a transaction that was only emulated, never included in a block. */
  emulated?: boolean;
  /**
   * The transaction's and its messages' hashes as base64 text, when the caller has them already (the chain computed
   * them when it executed the transaction): written as given, not computed again from the cells.
   */
  hashes?: KnownHashes;
  /** The transaction's cells were read from a BoC that merges equal cells (the emulator's): see v3Message's option. */
  uniqueCells?: boolean;
}

export interface KnownHashes {
  transaction: string;
  inMessage: string | null;
  /** In the transaction's order (its out_msgs keys). */
  outMessages: string[];
  /**
   * The hashes of the in message's references, then of each out message's, 32 bytes each (the pending layer hands
   * them to cells hashed on demand: its render thread then hashes no body or StateInit subtree the chain hashed).
   */
  messageRefs?: Uint8Array;
}

export interface V3TransactionJson {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  trace_id?: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  orig_status: string;
  end_status: string;
  total_fees: string;
  total_fees_extra_currencies: Record<string, string>;
  description: Record<string, unknown>;
  block_ref: V3BlockRef;
  in_msg: V3MessageJson | null;
  out_msgs: V3MessageJson[];
  account_state_before: V3AccountStateJson;
  account_state_after: V3AccountStateJson;
  emulated: boolean;
  finality: 'finalized';
}

const STATUS: Record<Transaction['oldStatus'], string> = {
  active: 'active',
  uninitialized: 'uninit',
  frozen: 'frozen',
  'non-existing': 'nonexist',
};

/**
 * v3 Transaction. Messages inside it carry no in_msg_tx_hash/out_msg_tx_hash: the index writes
 * those on /messages rows, not inside transactions (observed toncenter output).
 */
export function v3Transaction(tx: Transaction, context: V3TransactionContext): V3TransactionJson {
  const workchain = context.block.workchain;
  const known = context.hashes;
  const cells = transactionMessageCells(tx);
  const outHashes = known?.outMessages.length === cells.outMessages.length ? known.outMessages : undefined;
  return {
    account: formatRawUpper(transactionAccount(tx, workchain)),
    hash: known ? known.transaction : formatHash(tx.hash()),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: context.mcBlockSeqno,
    ...(context.traceId ? { trace_id: typeof context.traceId === 'string' ? context.traceId : formatHash(context.traceId) } : {}),
    prev_trans_hash: formatHash(hashFromBigInt(tx.prevTransactionHash)),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    orig_status: STATUS[tx.oldStatus],
    end_status: STATUS[tx.endStatus],
    total_fees: tx.totalFees.coins.toString(),
    total_fees_extra_currencies: extraCurrenciesMap(tx.totalFees.other),
    description: v3TransactionDescription(tx.description, workchain),
    block_ref: v3BlockRef(context.block),
    in_msg: cells.inMessage ? v3Message(cells.inMessage, { hash: known?.inMessage ?? undefined, uniqueCells: context.uniqueCells }) : null,
    out_msgs: cells.outMessages.map((cell, i) => v3Message(cell, { hash: outHashes?.[i], uniqueCells: context.uniqueCells })),
    account_state_before: v3AccountState(tx.stateUpdate.oldHash, context.accountStateBefore ?? null),
    account_state_after: v3AccountState(tx.stateUpdate.newHash, context.accountStateAfter ?? null),
    emulated: context.emulated ?? false,
    // A local chain's blocks are final once sealed; the index only holds sealed blocks.
    finality: 'finalized',
  };
}
