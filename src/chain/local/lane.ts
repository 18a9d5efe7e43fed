/**
 * A serial lane: tasks run one after another, in submission order, each to completion (including its
 * awaits) before the next starts. The chain's state changes (executing a message, sealing a block)
 * all go through one lane, so they never interleave; reads do not use it.
 */
export class SerialLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // A failed task must not block the ones after it: its caller gets the error.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task submitted so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
