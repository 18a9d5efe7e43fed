/** Bounding how long a request may wait for a remote store. */
import { systemClock, type Clock } from '../util/clock.js';
import { onceAfter } from '../util/scheduler.js';

export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError';
}

/**
 * Settles like `promise`, or rejects with StoreTimeoutError if it has not settled within `ms`.
 * The timer fires in the loop's timers phase, before the poll phase reads sockets: one setImmediate
 * lets an answer that already arrived win, so event-loop lag is not mistaken for a slow store.
 * The timer is the clock's (util/scheduler.ts): a test's manual clock fires it when moved, so the timeout is
 * checked at its edge without waiting.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, clock: Clock = systemClock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = onceAfter(clock, ms, () => setImmediate(() => reject(new StoreTimeoutError(`store did not answer within ${ms} ms`))));
    promise.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}
