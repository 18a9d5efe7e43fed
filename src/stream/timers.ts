/**
 * The periodic work of streaming (SSE keepalives every 15 s, the sweep that closes idle WebSocket clients) asks
 * its timers of the clock it is given: a clock that can schedule (`every`, a test's manual clock) runs them when it
 * is told to, so no test sleeps through a keepalive; any other clock gets Node's intervals (unref'd: streaming
 * never keeps a process alive by itself).
 */
import type { Clock } from '../util/clock.js';

export interface Scheduler {
  /** Calls `fn` every `ms`; returns the function that stops it. */
  every(ms: number, fn: () => void): () => void;
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
