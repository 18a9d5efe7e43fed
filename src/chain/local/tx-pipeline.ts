/**
 * Transactions in flight between the producer and the emulator's transaction worker.
 *
 * Waiting for each transaction's answer before sending the next one left the worker idle while the
 * main thread read the previous result, and the main thread idle while the worker emulated: on two
 * cores, half of each. The pipeline keeps up to `depth` transactions in flight instead, so the worker
 * emulates one while the main thread reads the answers of the ones before. What keeps it exact:
 *
 *  - **Per account, one at a time.** A transaction runs against its account's state after the
 *    previous one, so a transaction whose account has one in flight is sent only once that one is
 *    applied. Sends keep their order: the next send waits behind it too (head-of-line), which keeps
 *    the lane's order the execution order.
 *  - **Applied in send order.** Each result is applied (recorded into the open block, its messages
 *    queued) only after every result sent before it, whatever order they settle in (a retried call
 *    settles late), so a block's transactions are always in send order, which is lt order.
 *  - Lts are handed out at send time (the producer reserves a fixed range per transaction), so no
 *    send waits for the result before it to know its lt.
 */

import { Pacer } from './lane.js';

/** What a sent transaction settled as: its result, or the error its call failed with. */
type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export class TxPipeline {
  /** Per account key: settles once the last transaction sent for it is applied. */
  private readonly lastByAccount = new Map<string, Promise<unknown>>();
  /** Settles once everything sent so far is applied. */
  private applied: Promise<unknown> = Promise.resolve();
  private inFlightCount = 0;
  private readonly roomWaiters: Array<() => void> = [];
  private readonly progressWaiters: Array<() => void> = [];

  /** `pacer`: results that settled together are applied in slices, not in one run of the microtask queue. */
  constructor(
    private readonly depth: number,
    private readonly pacer = new Pacer(),
  ) {
    if (!Number.isInteger(depth) || depth < 1) throw new Error(`pipeline depth: expected a positive integer, got ${depth}`);
  }

  /** Transactions sent and not applied yet. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /**
   * Resolves when a transaction for `account` may be sent: nothing of that account in flight and
   * room in the pipeline. Call `send` right after, with no await in between.
   */
  async ready(account: string): Promise<void> {
    const previous = this.lastByAccount.get(account);
    if (previous) await previous.catch(() => undefined);
    while (this.inFlightCount >= this.depth) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
  }

  /**
   * Tracks a transaction just sent (`result`) for `account`; `apply` runs on its settled result after
   * every transaction sent before it was applied. Resolves with what `apply` returns (or its error).
   */
  send<R, T>(account: string, result: Promise<R>, apply: (settled: Settled<R>) => T): Promise<T> {
    this.inFlightCount++;
    const settled: Promise<Settled<R>> = result.then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    );
    const done = this.applied
      .then(() => settled)
      .then(async (s) => {
        await this.pacer.pause();
        return apply(s);
      });
    const finished: Promise<void> = done.then(
      (): void => this.finish(account, finished),
      (): void => this.finish(account, finished),
    );
    this.applied = finished;
    this.lastByAccount.set(account, finished);
    return done;
  }

  /** Resolves once the next transaction in flight is applied (at once when none is). */
  progress(): Promise<void> {
    if (this.inFlightCount === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.progressWaiters.push(resolve));
  }

  /** Resolves once every transaction sent so far is applied. */
  drain(): Promise<void> {
    return this.applied.then(() => undefined);
  }

  private finish(account: string, entry: Promise<unknown>): void {
    this.inFlightCount--;
    if (this.lastByAccount.get(account) === entry) this.lastByAccount.delete(account);
    this.roomWaiters.shift()?.();
    for (const wake of this.progressWaiters.splice(0)) wake();
  }
}
