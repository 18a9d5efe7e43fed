/**
 * A serial lane: tasks run one after another, in submission order, each to completion (including its
 * awaits) before the next starts. The chain's state changes (executing a message, sealing a block)
 * all go through one lane, so they never interleave; reads do not use it.
 *
 * Pacing: queued tasks would otherwise run back to back as promise continuations (microtasks), and
 * a backlog of a few hundred externals (~2 ms each) would hold the event loop for the whole backlog.
 * So once tasks have run for `sliceMs` since the last pause, the lane pauses (setImmediate) before
 * the next task, letting I/O and timers through.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Work done in steps yields to the event loop once a step starts `sliceMs` after the last pause. */
export class Pacer {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = 4) {}

  /** Resolves at once while the slice lasts; after a turn of the event loop once it is used up. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < this.sliceMs) return;
    await yieldToEventLoop();
    this.sliceStarted = performance.now();
  }
}

export class SerialLane {
  private tail: Promise<unknown> = Promise.resolve();
  /** Lanes that share a pacer (the producer's) yield together: their slices add up to one. */
  constructor(private readonly pacer = new Pacer()) {}

  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(() => this.pacer.pause()).then(task);
    // A failed task must not block the ones after it: its caller gets the error.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task submitted so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
