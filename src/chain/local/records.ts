/**
 * Conversions between the producer's and the store's records and the Chain interface's shapes
 * (ChainTransaction, ChainMessage). Transactions are parsed into @ton/core objects lazily.
 */
import { Address, Cell } from '@ton/core';
import { WHOLE_SHARD } from '../../ton/workchain.js';
import type { BlockRef, ChainMessage, ChainTransaction } from '../types.js';
import { lazyTransaction } from '../../ton/transaction-cell.js';
import type { ExecutedTx } from '../executed-tx.js';
import { summarizeMessage, type MessageSummary } from '../messages.js';
import type { RecordedMessage } from './open-block.js';
import type { MessageRow, TxRow } from './store-rows.js';
import type { Message } from '@ton/core';

const shardBlockRef = (workchain: number, seqno: number): BlockRef => ({ workchain, shard: WHOLE_SHARD, seqno });

function chainTransaction(
  cell: Cell,
  hash: Buffer,
  account: Address,
  lt: bigint,
  now: number,
  block: BlockRef,
  mcSeqno: number,
): ChainTransaction {
  const parse = lazyTransaction(cell);
  return {
    get tx() {
      return parse();
    },
    cell,
    hash,
    account,
    lt,
    now,
    block,
    mcSeqno,
  };
}

export function transactionFromExecuted(tx: ExecutedTx, seqno: number): ChainTransaction {
  return chainTransaction(tx.cell, tx.hash, tx.account, tx.lt, tx.now, shardBlockRef(tx.account.workChain, seqno), seqno);
}

export function transactionFromRow(row: TxRow): ChainTransaction {
  return chainTransaction(
    Cell.fromBoc(row.boc)[0],
    row.hash,
    new Address(row.workchain, row.account),
    row.lt,
    row.now,
    shardBlockRef(row.workchain, row.blockSeqno),
    row.mcSeqno,
  );
}

/** A message as the store records it (without the mc seqno, known at sealing). */
export function recordMessage(
  cell: Cell,
  hash: Buffer,
  message: Message,
  boc: Buffer,
  extra: { hashNorm?: Buffer; outTxHash?: Buffer },
): RecordedMessage {
  const s: MessageSummary = summarizeMessage(hash, message);
  return {
    cell,
    hash,
    kind: s.kind,
    source: s.source?.toRawString() ?? null,
    destination: s.destination?.toRawString() ?? null,
    createdLt: s.createdLt,
    createdAt: s.createdAt,
    opcode: s.opcode,
    bodyHash: s.bodyHash,
    hashNorm: extra.hashNorm ?? null,
    outTxHash: extra.outTxHash ?? null,
    boc,
  };
}

export function messageFromRecord(m: RecordedMessage | MessageRow, mcSeqno: number, cell?: Cell): ChainMessage {
  return {
    hash: m.hash,
    ...(m.hashNorm ? { hashNorm: m.hashNorm } : {}),
    kind: m.kind,
    cell: cell ?? ('cell' in m ? m.cell : Cell.fromBoc(m.boc)[0]),
    source: m.source === null ? null : Address.parseRaw(m.source),
    destination: m.destination === null ? null : Address.parseRaw(m.destination),
    createdLt: m.createdLt,
    createdAt: m.createdAt,
    opcode: m.opcode,
    bodyHash: m.bodyHash,
    ...(m.outTxHash ? { outTxHash: m.outTxHash } : {}),
    mcSeqno,
  };
}
