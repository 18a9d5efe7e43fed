/**
 * The block producer (the collator's role): executes messages into the open block and seals it.
 *
 *  - External messages execute when they are submitted, against the open block's state: the
 *    liteserver-style pre-check IS the execution (no second emulator run), and the resulting
 *    transaction is part of the open block. A refused message leaves no trace.
 *  - Internal messages wait in a FIFO queue (message-queue.ts), which is lt order: every transaction takes a higher lt
 *    than all messages created before it. They are delivered in slices of a few milliseconds (so the
 *    event loop stays responsive), in the background and before sealing (for at most half a block
 *    interval), up to `maxBlockTransactions` per block; the rest waits for the next block (a message
 *    loop cannot stall the chain, nor stretch its block interval). Externals are not capped: they
 *    arrive at the pace of their senders. The queue survives restarts (pending_messages).
 *  - Sealing turns the open block into a basechain block and a masterchain block committing it
 *    (seal.ts assembles them), writes both with everything they hold in one SQLite transaction, and
 *    only then moves the head that readers (and masterchainInfo) see.
 *
 * Workchains 0 and -1 have accounts, each executed with its own config prices (the emulator reads the
 * account's workchain): basechain transactions go into the basechain block, masterchain ones into the
 * masterchain block of the same step. Messages to any other workchain are recorded but not delivered, and
 * externals to them are refused at submission (messages.ts).
 *
 * Every state change runs on one SerialLane, so executions and seals never interleave.
 */
import type { Address } from '@ton/core';
import type { ChainClock } from './chain-clock.js';
import type { Block } from '../types.js';
import { accountKey, type SealedAccounts, type WorkingAccounts } from './accounts.js';
import type { BlockIndex, ChainHead } from './blocks.js';
import type { ChainConfig } from './chain-config.js';
import type { PublicLibraries } from './libraries.js';
import { EmulatorFailed } from '../errors.js';
import { ChainStopped, ExternalMessageRejected } from './errors.js';
import { readExecutedTx, type ExecutedTx } from '../executed-tx.js';
import { holdsAccounts, parseExternal, type ParsedExternal } from '../messages.js';
import { MessageQueue, type QueuedMessage } from './message-queue.js';
import { LT_PER_TRANSACTION, nextAlignedLt, OpenBlock, type RecordedMessage } from './open-block.js';
import { Pacer, SerialLane, yieldToEventLoop } from './lane.js';
import { recordMessage } from './records.js';
import { assembleSeal } from './seal.js';
import type { ChainStore } from './store.js';
import { TxPipeline } from './tx-pipeline.js';

/** Longest stretch of message execution before yielding to the event loop. */
const SLICE_MS = 4;

/**
 * Transactions sent to the emulator's worker ahead of their answers (tx-pipeline.ts). Enough to keep
 * the worker busy while the main thread reads results (~0.7 ms of emulation each); few enough that a
 * seal waits for at most a few tens of milliseconds of queued emulation.
 */
const PIPELINE_DEPTH = 32;

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** What one seal produced, for the chain's listeners. */
export interface SealedStep {
  mc: Block;
  shard: Block;
  txs: ExecutedTx[];
  messages: RecordedMessage[];
  changed: Array<{ address: Address; shardAccount: string }>;
}

export interface ProducerDeps {
  network: string;
  globalId: number;
  maxBlockTransactions: number;
  /** The config now and its emulator (POST /devnet/config switches both). */
  config: ChainConfig;
  /** The public libraries transactions run with; a seal takes in what its masterchain accounts changed. */
  libraries: PublicLibraries;
  store: ChainStore;
  head: ChainHead;
  blocks: BlockIndex;
  working: WorkingAccounts;
  sealed: SealedAccounts;
  /** The chain's (virtual) time: gen_utime of each block opened. */
  clock: ChainClock;
  logger?: Logger;
  /** Undelivered internal messages restored from the store, in created_lt order. */
  pending: QueuedMessage[];
  onSealed(step: SealedStep): void;
  /** Each transaction as it is applied to the open block (the chain's onOpenTransaction). */
  onApplied?(tx: ExecutedTx): void;
}

export class BlockProducer {
  /** Every step of the producer on the main thread (executions, parsing, applying results) shares one slice. */
  private readonly pacer = new Pacer(SLICE_MS);
  private readonly lane = new SerialLane(this.pacer);
  private readonly parseLane = new SerialLane(this.pacer);
  private readonly pipeline = new TxPipeline(PIPELINE_DEPTH, this.pacer);
  private readonly queue: MessageQueue;
  private open?: OpenBlock;
  private drainScheduled = false;
  private broken?: Error;
  private closed = false;

  constructor(private readonly d: ProducerDeps) {
    this.queue = new MessageQueue(d.pending);
    if (this.queueLength > 0) this.scheduleDrain();
  }

  get queueLength(): number {
    return this.queue.length;
  }

  /** Transactions executed into the open block so far, or sent to the emulator for it. */
  get openTransactions(): number {
    return (this.open?.txs.length ?? 0) + this.pipeline.inFlight;
  }

  /**
   * Parses and executes an external message now (see the header); throws BadMessage or
   * ExternalMessageRejected when refused. Parsing costs ~0.5 ms (cell hashing in @ton/core): it runs
   * on a paced lane of its own (a burst of submissions parsed at once would hold the event loop for
   * all of them), so the next submission is parsed while the previous one executes on the emulator's
   * worker. Executions keep the submission order: each is queued on the main lane right away, and
   * the lane moves on once it is sent to the emulator (its result is applied by the pipeline).
   */
  async submitExternal(boc: Buffer): Promise<{ parsed: ParsedExternal; tx: ExecutedTx }> {
    const parsing = this.parseLane.run(() => parseExternal(boc));
    parsing.catch(() => undefined); // awaited by the task below, maybe after it failed
    const { parsed, sent } = await this.lane.run(async () => {
      const parsed = await parsing;
      return { parsed, sent: await this.sendExternal(parsed) };
    });
    return { parsed, tx: await sent.done };
  }

  /**
   * Runs `task` alone on the lane, with `execute` to run externals inside it (the faucet reads its
   * seqno and sends in one step), and `whenSealed` for a transaction of the open block.
   */
  exclusive<T>(
    task: (ctx: {
      execute: (parsed: ParsedExternal) => Promise<ExecutedTx>;
      working: WorkingAccounts;
      chainTime: () => number;
      whenSealed: (tx: ExecutedTx) => Promise<number>;
    }) => T | Promise<T>,
  ): Promise<T> {
    return this.lane.run(async () => {
      // The task reads the working state: nothing may still be on its way into it.
      await this.pipeline.drain();
      return task({
        execute: async (parsed) => (await this.sendExternal(parsed)).done,
        working: this.d.working,
        chainTime: () => this.ensureOpen().genUtime,
        whenSealed: (tx) => {
          const block = this.ensureOpen();
          if (!block.txs.includes(tx)) throw new Error('transaction is not in the open block');
          return new Promise<number>((resolve) => block.onSealed(resolve));
        },
      });
    });
  }

  /**
   * Runs a time control on the lane (so no block opens meanwhile) with the time it may not go below: the open
   * block's gen_utime if it already holds something (its transactions' `now` is fixed), else the last sealed
   * block's. An open block holding nothing yet is dropped first, so the next one opens at the new time.
   */
  retime<T>(control: (notBefore: number) => T): Promise<T> {
    return this.lane.run(async () => {
      await this.pipeline.drain();
      if (this.open?.isEmpty()) this.open = undefined;
      return control(this.open?.genUtime ?? this.d.head.mc.genUtime);
    });
  }

  /**
   * State surgery: replaces an account's state in the open block, without a transaction (the block's state
   * hash, the store, v2 and the index all take the new state when the block is sealed). `change` gets the
   * account's current ShardAccount (base64) and the block's gen_utime; resolves with the seqno it is sealed in.
   */
  replaceAccount(
    address: Address,
    change: (current: string, genUtime: number) => { shardAccount: string; accountHash: Buffer },
  ): Promise<{ sealed: Promise<number> }> {
    return this.lane.run(async () => {
      this.assertUsable();
      await this.pipeline.drain();
      const block = this.ensureOpen();
      const next = change(this.d.working.get(address), block.genUtime);
      this.d.working.set(address, next.shardAccount);
      block.changeState(address, next.shardAccount, next.accountHash);
      return { sealed: new Promise<number>((resolve) => block.onSealed(resolve)) };
    });
  }

  /**
   * Queues an internal message from outside the chain (no transaction sent it): recorded in the open block,
   * delivered like any other (FIFO). Resolves with the seqno of the block it is recorded in.
   */
  injectInternal(m: Omit<QueuedMessage, 'onDisk'> & { message: import('@ton/core').Message }): Promise<{ sealed: Promise<number> }> {
    return this.lane.run(() => {
      this.assertUsable();
      const block = this.ensureOpen();
      block.messages.push(recordMessage(m.cell, m.hash, m.message, m.boc, {}));
      this.queue.enqueue({ cell: m.cell, boc: m.boc, hash: m.hash, dest: m.dest, createdLt: m.createdLt, onDisk: false });
      this.scheduleDrain();
      return { sealed: new Promise<number>((resolve) => block.onSealed(resolve)) };
    });
  }

  /**
   * Delivers queued messages (up to the cap, for at most `drainBudgetMs`), then seals the open block
   * (an empty one if idle). The budget keeps a flood of messages from stretching the block interval:
   * with ~1.5 ms per transaction, draining to a cap of 10,000 would take 15 s; what is left waits for
   * the next block (background delivery keeps going between seals anyway).
   */
  async produce(drainBudgetMs: number): Promise<SealedStep> {
    const started = performance.now();
    while ((await this.lane.run(() => this.drainSlice(true))) && performance.now() - started < drainBudgetMs) await yieldToEventLoop();
    return this.lane.run(() => this.seal());
  }

  /**
   * Runs `task` on the lane at a sealed point: what was sent to the emulator is applied and an open block holding
   * anything is sealed first, so the store holds everything accepted before the call and nothing unsealed
   * (snapshots save and restore there).
   */
  atSealedPoint<T>(task: () => T | Promise<T>): Promise<T> {
    return this.lane.run(async () => {
      this.assertUsable();
      await this.pipeline.drain();
      if (this.open && !this.open.isEmpty()) await this.seal();
      this.open = undefined;
      return task();
    });
  }

  /**
   * Like atSealedPoint, for a restore: `task` puts the store and the shared state (head, accounts, clock) back
   * and answers the pending messages as they were; the producer's queue becomes those.
   */
  rewind<T>(task: () => { pending: QueuedMessage[]; result: T } | Promise<{ pending: QueuedMessage[]; result: T }>): Promise<T> {
    return this.atSealedPoint(async () => {
      const { pending, result } = await task();
      this.queue.replace(pending);
      this.open = undefined;
      if (this.queueLength > 0) this.scheduleDrain();
      return result;
    });
  }

  /** Whether there is anything a final seal would save: executed transactions in the open block. */
  hasOpenTransactions(): boolean {
    return (this.open?.txs.length ?? 0) > 0;
  }

  /** Resolves when every queued lane task has run and every transaction sent is applied. */
  async idle(): Promise<void> {
    await this.lane.idle();
    await this.pipeline.drain();
  }

  /** No more executions or seals after this (the chain is stopping; its store is about to close). */
  close(): void {
    this.closed = true;
  }

  private assertUsable(): void {
    if (this.closed) throw new ChainStopped(this.d.network);
    if (this.broken) throw new Error(`the chain stopped producing after a failed seal: ${this.broken.message}`);
  }

  private ensureOpen(): OpenBlock {
    if (!this.open) {
      const prev = this.d.head.mc;
      const utime = this.d.clock.takeBlockUtime(prev.genUtime);
      this.open = new OpenBlock(prev.id.seqno + 1, nextAlignedLt(prev.endLt), utime, prev.id.rootHash);
    }
    return this.open;
  }

  /** Runs one transaction on the emulator's transaction worker (the lane sends one at a time). */
  private run(block: OpenBlock, address: Address, message: string, lt: bigint) {
    return this.d.config.emulator.runTransaction({
      shardAccount: this.d.working.get(address),
      message,
      now: block.genUtime,
      lt,
      randSeedHex: block.randSeedHex,
      ignoreChksig: false,
      prevBlocksInfo: this.d.head.prevBlocksInfo,
      libs: this.d.libraries.emulatorLibs ?? undefined,
    });
  }

  /**
   * Sends an external message to the emulator, into the open block (a lane task: the lane moves on
   * once it is sent). `done` settles once it is applied: with its transaction, or with
   * ExternalMessageRejected, leaving no trace.
   */
  private async sendExternal(parsed: ParsedExternal): Promise<{ done: Promise<ExecutedTx> }> {
    this.assertUsable();
    const account = accountKey(parsed.dest);
    await this.pipeline.ready(account);
    const block = this.ensureOpen();
    const lt = block.allocateLt();
    const result = this.run(block, parsed.dest, parsed.base64, lt);
    const done = this.pipeline.send(account, result, (settled) => {
      if (!settled.ok) throw settled.error;
      const r = settled.value;
      if (!r.success) throw new ExternalMessageRejected(r.error, r.exitCode);
      const tx = readExecutedTx(parsed.dest.workChain, r.transaction, r.shardAccount);
      block.messages.push(
        recordMessage(parsed.cell, parsed.hash, parsed.message, Buffer.from(parsed.base64, 'base64'), { hashNorm: parsed.hashNorm }),
      );
      this.apply(block, tx, lt);
      return tx;
    });
    return { done };
  }

  /** Records an executed transaction into the open block and queues its internal messages. */
  private apply(block: OpenBlock, tx: ExecutedTx, lt: bigint): void {
    if (tx.endLt > lt + LT_PER_TRANSACTION) {
      // Cannot happen while the action phase keeps its 255-message limit; loud if it ever does.
      this.d.logger?.error(
        { tx: tx.hash.toString('hex'), lt: String(tx.lt), endLt: String(tx.endLt) },
        'transaction used more lts than reserved',
      );
    }
    this.d.working.set(tx.account, tx.shardAccount);
    block.addTransaction(tx);
    this.d.onApplied?.(tx);
    let queued = false;
    for (const out of tx.outMsgs) {
      const boc = out.cell.toBoc();
      block.messages.push(recordMessage(out.cell, out.hash, out.message, boc, { outTxHash: tx.hash }));
      const info = out.message.info;
      if (info.type === 'internal' && holdsAccounts(info.dest.workChain)) {
        this.queue.enqueue({ cell: out.cell, boc, hash: out.hash, dest: info.dest, createdLt: info.createdLt, onDisk: false });
        queued = true;
      }
    }
    if (queued) this.scheduleDrain();
  }

  /** Background delivery between seals: one slice per turn of the event loop while there is work. */
  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.lane
        .run(() => this.drainSlice(false))
        .then((more) => {
          if (more) this.scheduleDrain();
        })
        .catch((err) => this.d.logger?.error({ err }, 'delivering internal messages failed'));
    });
  }

  /**
   * Sends queued messages to the emulator for up to SLICE_MS; true when more could be delivered into
   * this block. The slice bounds how long a lane task keeps submissions and seals waiting (it waits
   * whenever the pipeline is full). Before a seal (`untilSettled`), an empty queue with transactions
   * in flight is not the end: their results may queue more messages (a message loop queues its next
   * one only once applied). In the background it is: applying them schedules the next slice.
   */
  private async drainSlice(untilSettled: boolean): Promise<boolean> {
    const more = () => this.queueLength > 0 || (untilSettled && this.pipeline.inFlight > 0);
    if (this.closed || this.broken || !more()) return false;
    const block = this.ensureOpen();
    const cap = this.d.maxBlockTransactions;
    const started = performance.now();
    while (more() && block.sent < cap) {
      if (this.queueLength === 0) {
        await this.pipeline.progress();
        continue;
      }
      // Only this lane takes from the queue, so its head is still this message after the wait.
      const m = this.queue.peek()!;
      await this.pipeline.ready(accountKey(m.dest));
      this.queue.take();
      this.deliver(block, m);
      if (performance.now() - started >= SLICE_MS) break;
    }
    return more() && block.sent < cap;
  }

  /** Sends one internal message to the emulator; the pipeline applies its transaction in order. */
  private deliver(block: OpenBlock, m: QueuedMessage): void {
    const slot = block.allocateLt();
    // A message created in this block came from a transaction with a lower slot: created_lt < slot.
    const lt = m.createdLt + 1n > slot ? m.createdLt + 1n : slot;
    const message = m.boc.toString('base64');
    const result = this.run(block, m.dest, message, lt).catch((err: unknown) => {
      if (!(err instanceof EmulatorFailed)) throw err;
      // The worker died under it (a fresh one is running now): once more, in case that was not this
      // message's doing; a message that kills the emulator twice is dropped like an unprocessable one.
      return this.run(block, m.dest, message, lt).catch((again: unknown) => {
        if (!(again instanceof EmulatorFailed)) throw again;
        return { success: false as const, error: again.message };
      });
    });
    this.pipeline
      .send(accountKey(m.dest), result, (settled) => {
        if (m.onDisk) block.deliveredPending.push(m.hash);
        if (!settled.ok) throw settled.error;
        const r = settled.value;
        if (!r.success) {
          // The emulator produces a transaction for every deliverable internal message; this is a
          // message it could not process at all. It stays recorded as a message, undelivered.
          this.d.logger?.warn({ message: m.hash.toString('hex'), error: r.error }, 'internal message could not be executed; dropped');
          return;
        }
        this.apply(block, readExecutedTx(m.dest.workChain, r.transaction, r.shardAccount), slot);
      })
      .catch((err: unknown) => this.d.logger?.error({ err, message: m.hash.toString('hex') }, 'delivering an internal message failed'));
  }

  private async seal(): Promise<SealedStep> {
    this.assertUsable();
    // Sealing is a lane task: nothing new is sent meanwhile; what was sent is applied first.
    await this.pipeline.drain();
    this.assertUsable();
    const block = this.ensureOpen();
    const { head } = this.d;
    const seqno = block.seqno;
    const newlyPending = this.queue.newlyPending();
    const { shardBlock, mcBlock, record, changed } = await assembleSeal({
      block,
      head,
      globalId: this.d.globalId,
      configHash: this.d.config.cell.hash(),
      libraries: this.d.libraries,
      newlyPending,
    });
    try {
      await this.d.store.writeSeal(record);
    } catch (err) {
      this.broken = err as Error;
      this.d.logger?.error({ err, seqno }, 'sealing a block failed; the chain stops producing');
      throw err;
    }

    // Committed: from here on the block is durable, and only now becomes visible.
    this.d.blocks.put(shardBlock);
    this.d.blocks.put(mcBlock);
    head.advance(mcBlock, shardBlock);
    this.d.libraries.apply(record.libraries);
    this.d.sealed.invalidate([...block.changed.keys()]);
    for (const m of newlyPending) m.onDisk = true;
    this.open = undefined;
    block.notifySealed(seqno);
    const step: SealedStep = {
      mc: mcBlock,
      shard: shardBlock,
      txs: block.txs,
      messages: block.messages,
      changed,
    };
    this.d.onSealed(step);
    if (this.queueLength > 0) this.scheduleDrain();
    return step;
  }
}
