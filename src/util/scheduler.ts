/**
 * Periodic work asks its timers of the clock it is given (streaming's SSE keepalives and idle sweep, the key
 * directory's poll of the key store, the upstream and lite pool health checks): a clock that can schedule (`every`,
 * a test's manual clock) runs them when it is told to, so no test sleeps through an interval; any other clock gets
 * Node's intervals (unref'd: periodic work never keeps a process alive by itself).
 */
import type { Clock } from './clock.js';

export interface Scheduler {
  /**
   * Calls `fn` every `ms`; returns the function that stops it. `fn` may return a promise (work that ends later):
   * Node's timers ignore it, a test's manual clock lets the test await it.
   */
  every(ms: number, fn: () => unknown): () => void;
}

export function schedulerOf(clock: Clock): Scheduler {
  const own = clock as Clock & Partial<Scheduler>;
  if (typeof own.every === 'function') return { every: (ms, fn) => own.every!(ms, fn) };
  return {
    every(ms, fn) {
      const timer = setInterval(fn, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

/**
 * Calls `fn` once, `ms` from now on the clock's timers (a deadline, such as a store timeout): a clock that can
 * schedule runs it when moved past it; any other clock gets Node's `setTimeout`, kept referenced (something is
 * waiting for that answer). Returns the function that cancels it.
 */
export function onceAfter(clock: Clock, ms: number, fn: () => void): () => void {
  const own = clock as Clock & Partial<Scheduler>;
  if (typeof own.every === 'function') {
    const stop = own.every(ms, () => {
      stop();
      fn();
    });
    return stop;
  }
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}
