/**
 * Commits rendered blocks in the order they arrive, grouping the blocks that wait into one DB
 * transaction (group commit): while one group is being written the next ones queue up, and they go
 * together once it is done. A block alone costs a commit; a backlog (a catch-up, a burst) costs one
 * commit per group instead of one per block, and the rows of a group go to disk together.
 *
 * A block's promise settles when its group is committed or has failed. Each block keeps its own
 * INSERT statements inside the group (a message or an account met in two blocks of one group would
 * otherwise be two rows of one upsert, which PostgreSQL refuses).
 *
 * No gap after a failure: when a group fails, the blocks queued behind it fail too, and until the
 * first failed seqno is committed again nothing past it is written. A writer fed ahead (blocks in
 * flight in a render thread) therefore never commits block N+1 of a chain whose block N failed; the
 * caller writes again from N.
 */
import type { InsertBatch, SqlDriver } from './sql/driver.js';

/** One masterchain block as rows, or why it could not be rendered. */
export interface RenderedBlock {
  seqno: number;
  /** Transactions in the block: what a group's size is counted in. */
  transactions: number;
  rows: InsertBatch[] | Error;
}

interface Waiting {
  block: RenderedBlock;
  resolve(): void;
  reject(error: Error): void;
}

/** A group stops growing past this many transactions (a transaction's rows are ~4 KB). */
export const MAX_GROUP_TRANSACTIONS = 4000;

export class BlockCommitter {
  private readonly queue: Waiting[] = [];
  private writing = false;
  /** Set after a failure: the seqno that must be committed before anything past it. */
  private holdAt: number | undefined;

  constructor(
    private readonly driver: SqlDriver,
    private readonly maxGroupTransactions = MAX_GROUP_TRANSACTIONS,
  ) {}

  commit(block: RenderedBlock): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ block, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.takeGroup();
        if (group.length === 0) continue;
        try {
          await this.driver.write(group.flatMap((w) => w.block.rows as InsertBatch[]));
        } catch (error) {
          this.fail(group, error as Error);
          continue;
        }
        if (this.holdAt !== undefined && group.some((w) => w.block.seqno === this.holdAt)) this.holdAt = undefined;
        for (const waiting of group) waiting.resolve();
      }
    } finally {
      this.writing = false;
    }
  }

  /** The blocks at the head of the queue that can go together; refuses those that cannot go at all. */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    let transactions = 0;
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (this.holdAt !== undefined && head.block.seqno > this.holdAt) {
        this.queue.shift();
        head.reject(new Error(`index: block ${head.block.seqno} not written: block ${this.holdAt} failed before it and must be written first`));
        continue;
      }
      if (head.block.rows instanceof Error) {
        if (group.length > 0) break;
        this.queue.shift();
        this.fail([head], head.block.rows);
        break;
      }
      if (group.length > 0 && transactions + head.block.transactions > this.maxGroupTransactions) break;
      this.queue.shift();
      group.push(head);
      transactions += head.block.transactions;
    }
    return group;
  }

  /** Fails `group` and every block queued behind it; nothing past the group's first seqno is written until that one is. */
  private fail(group: Waiting[], error: Error): void {
    const first = Math.min(...group.map((w) => w.block.seqno));
    this.holdAt = Math.min(first, this.holdAt ?? first);
    for (const waiting of group) waiting.reject(error);
    for (const waiting of this.queue.splice(0)) {
      waiting.reject(new Error(`index: block ${waiting.block.seqno} not written: block ${first} failed before it (${error.message})`));
    }
  }
}
