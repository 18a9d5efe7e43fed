/** Bounding how long a request may wait for a remote store. */

export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError';
}

/**
 * Settles like `promise`, or rejects with StoreTimeoutError if it has not settled within `ms`.
 * The timer fires in the loop's timers phase, before the poll phase reads sockets: one setImmediate
 * lets an answer that already arrived win, so event-loop lag is not mistaken for a slow store.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new StoreTimeoutError(`store did not answer within ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
