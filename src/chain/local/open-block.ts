/**
 * The block being built: the transactions executed into it so far, the messages they created, the
 * accounts they changed. It becomes a sealed block pair when the producer seals it.
 */
import { createHash } from 'node:crypto';
import type { Address } from '@ton/core';
import { accountKey } from './accounts.js';
import type { ExecutedTx } from '../executed-tx.js';
import type { MessageWrite, TxWrite } from './store-rows.js';
import type { Cell } from '@ton/core';

/** Lts of consecutive blocks start at multiples of this, as the real collator aligns them. */
export const LT_ALIGN = 1_000_000n;

/**
 * Lts reserved per transaction: its own and one per out message, of which the action phase allows at
 * most 255. Reserving the most a transaction can use lets the producer hand out the next lt before the
 * previous transaction's result is known (tx-pipeline.ts); the unused rest is a gap, as lts between
 * a real chain's transactions have.
 */
export const LT_PER_TRANSACTION = 256n;

/** The first multiple of LT_ALIGN strictly above `lt`. */
export const nextAlignedLt = (lt: bigint): bigint => (lt / LT_ALIGN + 1n) * LT_ALIGN;

export interface RecordedMessage extends MessageWrite {
  cell: Cell;
}

export interface ChangedAccount {
  address: Address;
  shardAccount: string;
  /** Account repr hash after the account's last transaction in this block. */
  accountHash: Buffer;
}

export class OpenBlock {
  readonly txs: ExecutedTx[] = [];
  /** The same transactions as the store writes them, built as they come (not all at sealing). */
  readonly txRows: TxWrite[] = [];
  readonly messages: RecordedMessage[] = [];
  readonly changed = new Map<string, ChangedAccount>();
  /** Messages that were pending on disk (from earlier blocks) and got delivered in this one. */
  readonly deliveredPending: Buffer[] = [];
  /** Transactions sent to the emulator for this block (applied or not yet): what the per-block cap counts. */
  sent = 0;
  /** First lt after every transaction applied so far: the block's end_lt when it is sealed. */
  endLt: bigint;
  /** The next lt to hand out. */
  private nextLt: bigint;
  readonly randSeed: Buffer;
  readonly randSeedHex: string;
  private readonly sealedListeners: Array<(mcSeqno: number) => void> = [];

  constructor(
    readonly seqno: number,
    /** Aligned; transactions get lts from startLt + 1. */
    readonly startLt: bigint,
    readonly genUtime: number,
    prevMcRootHash: Buffer,
  ) {
    this.nextLt = startLt + 1n;
    this.endLt = this.nextLt;
    // Deterministic per block: the previous masterchain block's hash and this seqno.
    const seqnoBytes = Buffer.alloc(4);
    seqnoBytes.writeUInt32BE(seqno);
    this.randSeed = createHash('sha256').update(prevMcRootHash).update(seqnoBytes).digest();
    this.randSeedHex = this.randSeed.toString('hex');
  }

  /** Reserves the lt range of one more transaction; returns its lt. */
  allocateLt(): bigint {
    const lt = this.nextLt;
    this.nextLt += LT_PER_TRANSACTION;
    this.sent++;
    return lt;
  }

  addTransaction(tx: ExecutedTx): void {
    this.txs.push(tx);
    this.txRows.push({
      hash: tx.hash,
      workchain: tx.account.workChain,
      account: tx.account.hash,
      lt: tx.lt,
      now: tx.now,
      inMsgHash: tx.inMsg?.hash ?? null,
      boc: tx.boc,
    });
    if (tx.endLt > this.endLt) this.endLt = tx.endLt;
    this.changed.set(accountKey(tx.account), { address: tx.account, shardAccount: tx.shardAccount, accountHash: tx.accountHashAfter });
  }

  /** Nothing in it yet: no transaction sent, no message recorded, no state changed (it may be opened again later). */
  isEmpty(): boolean {
    return this.sent === 0 && this.messages.length === 0 && this.changed.size === 0;
  }

  /** A state set without a transaction (devnet state surgery): the block commits it like a transaction's. */
  changeState(address: Address, shardAccount: string, accountHash: Buffer): void {
    this.changed.set(accountKey(address), { address, shardAccount, accountHash });
  }

  /** Runs `listener` with the masterchain seqno once this block is committed. */
  onSealed(listener: (mcSeqno: number) => void): void {
    this.sealedListeners.push(listener);
  }

  notifySealed(mcSeqno: number): void {
    for (const listener of this.sealedListeners) listener(mcSeqno);
  }
}
