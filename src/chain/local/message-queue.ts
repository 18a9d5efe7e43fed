/**
 * The internal messages waiting for delivery, in FIFO order, which is lt order: every transaction takes a higher lt
 * than all messages created before it. The producer's lane is the only one that takes from it; a seal writes the
 * messages that are not on disk yet to pending_messages, so the queue survives restarts.
 *
 * Taking from the head is O(1): the array is cut only once more than 1024 taken messages make up more than half of
 * it (a flood of 10,000 messages is not copied for every message delivered).
 */
import { Cell, loadMessage, type Address } from '@ton/core';
import type { PendingRow } from './store-rows.js';

/** A message waiting for delivery. */
export interface QueuedMessage {
  cell: Cell;
  boc: Buffer;
  hash: Buffer;
  dest: Address;
  createdLt: bigint;
  /** In pending_messages already (created in an earlier, sealed block). */
  onDisk: boolean;
}

/** Taken messages kept at the front of the array before it may be cut. */
const COMPACT_AFTER = 1024;

export class MessageQueue {
  private items: QueuedMessage[];
  private head = 0;

  /** `pending`: the undelivered messages the store kept, in created_lt order (taken over, not copied). */
  constructor(pending: QueuedMessage[] = []) {
    this.items = pending;
  }

  get length(): number {
    return this.items.length - this.head;
  }

  enqueue(message: QueuedMessage): void {
    this.items.push(message);
  }

  /** The next message to deliver, left in the queue. */
  peek(): QueuedMessage | undefined {
    return this.items[this.head];
  }

  /** Removes and returns the next message to deliver. */
  take(): QueuedMessage | undefined {
    if (this.length === 0) return undefined;
    const message = this.items[this.head++];
    if (this.head > COMPACT_AFTER && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return message;
  }

  /** The waiting messages not in pending_messages yet (created since the last seal), in order. */
  newlyPending(): QueuedMessage[] {
    return this.items.slice(this.head).filter((m) => !m.onDisk);
  }

  /** A snapshot restore: the queue becomes the store's pending messages as they were. */
  replace(pending: QueuedMessage[]): void {
    this.items = pending;
    this.head = 0;
  }
}

/** Undelivered internal messages as the store keeps them (pending_messages, in created_lt order), to queue again. */
export function queuedFromStore(rows: readonly PendingRow[]): QueuedMessage[] {
  return rows.map((p) => {
    const cell = Cell.fromBoc(p.boc)[0];
    const info = loadMessage(cell.beginParse()).info;
    if (info.type !== 'internal') throw new Error('pending_messages holds a non-internal message');
    return { cell, boc: p.boc, hash: p.hash, dest: info.dest, createdLt: p.createdLt, onDisk: true };
  });
}
