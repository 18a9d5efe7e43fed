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

export class SerialLane {
  private tail: Promise<unknown> = Promise.resolve();
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = 4) {}

  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(() => this.pace()).then(task);
    // A failed task must not block the ones after it: its caller gets the error.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task submitted so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  private async pace(): Promise<void> {
    if (performance.now() - this.sliceStarted < this.sliceMs) return;
    await yieldToEventLoop();
    this.sliceStarted = performance.now();
  }
}
