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
 *
 * Traces: right before a group is written, its blocks' local traces are joined to the store's
 * (traces/trace-linker.ts): the rows of a transaction that continues an earlier trace get that trace's
 * id, and the touched traces' rows go into the same DB transaction. Only this thread writes, so what
 * the linker reads is what the group builds on.
 *
 * Actions: the traces a group completes are classified right before it is written (actions/group-actions.ts), their
 * actions in the same DB transaction; so are, again, the stored traces of a contract whose detection failed before and
 * succeeded in this group or earlier (actions/late-finds.ts: a bounded share per group, what is left kept in the
 * store with the group).
 */
import type { InsertBatch, SqlDriver } from './sql/driver.js';
import { TraceLinker } from './traces/trace-linker.js';
import { applyTraceRemap } from './traces/remap.js';
import { TokenDetector, type DetectedGroup } from './tokens/detector.js';
import type { GetMethodRunner } from './tokens/get-methods.js';
import type { RenderedBlock } from './types.js';
import { GroupActions } from './actions/group-actions.js';

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
  private readonly linker: TraceLinker;
  private tokens: TokenDetector;
  private readonly actions: GroupActions;

  /** `getMethods`: how token detection runs get-methods (through the chain); without it only known wallets' events are kept. */
  constructor(
    private readonly driver: SqlDriver,
    private readonly maxGroupTransactions = MAX_GROUP_TRANSACTIONS,
    getMethods?: GetMethodRunner,
    dnsRoots: readonly string[] = [],
    lateFindsPerGroup?: number,
  ) {
    this.linker = new TraceLinker(driver);
    this.actions = new GroupActions(driver, lateFindsPerGroup);
    this.tokens = new TokenDetector(driver, getMethods, dnsRoots);
  }

  /** Token detection from now on runs get-methods with `runner` (writer.ts: a chain in this thread); `dnsRoots`: src/index/dns. */
  useGetMethods(runner: GetMethodRunner, dnsRoots: readonly string[] = []): void {
    this.tokens = new TokenDetector(this.driver, runner, dnsRoots);
  }

  /**
   * The index was put back to an earlier block (../rewind.ts, a devnet snapshot restore): the failed detections held
   * in memory are read back from the store before the next group (tokens/detection-retry.ts). Called while nothing writes.
   */
  rewound(): void {
    this.tokens.retries.rewound();
  }

  /** The token back-fill wrote late finds (actions/late-finds.ts): a later group classifies their traces again. */
  lateFindsStored(): void {
    this.actions.lateFindsStored();
  }

  /** The detector blocks are committed with: the token back-fill (tokens/backfill.ts) shares its caches. */
  get tokenDetector(): TokenDetector {
    return this.tokens;
  }

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
          const traces = await this.linkTraces(group);
          // After the linking: token rows carry their transactions' final trace ids.
          const { batches: tokens, lateFinds } = await this.tokenRows(group);
          const rows = group.flatMap((w) => w.block.rows as InsertBatch[]);
          // The traces the group completes, classified with the contracts just detected, and the stored ones of the
          // contracts found late, classified again (actions/group-actions.ts): their old actions deleted first.
          const actions = await this.actions.batches(rows, traces, tokens, lateFinds);
          // The failed detections as they stand after this group (tokens/detection-retry.ts), with the group.
          const retries = this.tokens.retries.changes();
          await this.driver.write(
            [...rows, ...traces, ...tokens, ...actions.batches, ...retries.batches],
            [...retries.before, ...actions.before],
          );
          this.actions.committed();
        } catch (error) {
          // Its blocks are written again: the failed detections are read back as the store has them.
          this.tokens.retries.forget();
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

  /** The group's trace rows, its blocks' rows given the ids of the traces they continue. */
  private async linkTraces(group: Waiting[]): Promise<InsertBatch[]> {
    const traced = group.filter((w) => w.block.traces);
    if (traced.length === 0) return [];
    const linked = await this.linker.link(traced.map((w) => w.block.traces!));
    for (const [i, waiting] of traced.entries()) {
      const remap = linked.remaps[i];
      if (remap) applyTraceRemap(waiting.block.rows as InsertBatch[], remap);
    }
    return linked.traces.rows.length > 0 ? [linked.traces] : [];
  }

  /** The group's token rows and the contracts found late (tokens/detector.ts). */
  private async tokenRows(group: Waiting[]): Promise<DetectedGroup> {
    const blocks = group.flatMap((w) =>
      w.block.tokens && (w.block.tokens.accounts.length > 0 || w.block.tokens.events.length > 0) ? [w.block.tokens] : [],
    );
    // Detections waiting for a retry are due at a block, whatever it holds: a quiet group still retries them (those
    // kept in the store by an earlier run too: read before the first group).
    await this.tokens.loadRetries();
    if (blocks.length === 0 && this.tokens.retries.size > 0) {
      const newest = Math.max(...group.map((w) => w.block.seqno));
      blocks.push({ seqno: newest, accounts: [], events: [] });
    }
    if (blocks.length === 0) return { batches: [], lateFinds: [] };
    const traceIds = new Map<string, Buffer>();
    for (const batch of group.flatMap((w) => w.block.rows as InsertBatch[])) {
      if (batch.table !== 'transactions') continue;
      const hash = batch.columns.indexOf('hash');
      const trace = batch.columns.indexOf('trace_id');
      for (const row of batch.rows)
        if (Buffer.isBuffer(row[trace])) traceIds.set((row[hash] as Buffer).toString('base64'), row[trace] as Buffer);
    }
    return this.tokens.detectGroup(blocks, (txHash) => traceIds.get(txHash.toString('base64')) ?? null);
  }

  /** The blocks at the head of the queue that can go together; refuses those that cannot go at all. */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    let transactions = 0;
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (this.holdAt !== undefined && head.block.seqno > this.holdAt) {
        this.queue.shift();
        head.reject(
          new Error(`index: block ${head.block.seqno} not written: block ${this.holdAt} failed before it and must be written first`),
        );
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
