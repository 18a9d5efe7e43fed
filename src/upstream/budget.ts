/**
 * tongate's own budget for one upstream network (--upstream-rps, --upstream-concurrency), kept so that
 * tongate waits or refuses before the upstream refuses: at most `concurrency` requests in flight (the
 * others wait in order), at most `rps` started per second (a token bucket holding one second's worth).
 * A request that could not start before its deadline is refused at once with a 503 and Retry-After,
 * instead of waiting for nothing. Time comes from the injected clock; waits use timers.
 */
import type { Clock } from '../util/clock.js';
import { UpstreamFailure } from './failure.js';

export interface BudgetOptions {
  clock: Clock;
  concurrency: number;
  rps?: number;
  /** Requests waiting for a slot at most; more are refused at once. */
  maxQueue?: number;
}

export class UpstreamBudget {
  private inFlight = 0;
  private readonly queue: Array<{ grant: () => void; deadline: number; timer?: NodeJS.Timeout }> = [];
  private tokens: number;
  private refilledAt: number;

  constructor(private readonly options: BudgetOptions) {
    this.tokens = options.rps ?? 0;
    this.refilledAt = options.clock.now();
  }

  get active(): number {
    return this.inFlight;
  }

  /** Resolves with a release function once a request may start; rejects with a 503 when it cannot before `deadline`. */
  acquire(deadline: number): Promise<() => void> | (() => void) {
    const wait = this.rateWait();
    if (wait === 0 && this.inFlight < this.options.concurrency && this.queue.length === 0) return this.start();
    if (this.options.clock.now() + wait >= deadline) throw this.exhausted(wait);
    if (this.queue.length >= (this.options.maxQueue ?? 10_000)) throw this.exhausted(1000);
    return new Promise((resolve, reject) => {
      const waiter = {
        deadline,
        grant: () => resolve(this.start()),
        timer: undefined as NodeJS.Timeout | undefined,
      };
      waiter.timer = setTimeout(
        () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          reject(this.exhausted(1000));
        },
        Math.max(0, deadline - this.options.clock.now()),
      );
      this.queue.push(waiter);
      this.drainLater(wait);
    });
  }

  private start(): () => void {
    this.inFlight++;
    if (this.options.rps !== undefined) this.tokens -= 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.drain();
    };
  }

  /** Milliseconds until a token is available (0: now). */
  private rateWait(): number {
    const rps = this.options.rps;
    if (rps === undefined) return 0;
    const now = this.options.clock.now();
    this.tokens = Math.min(rps, this.tokens + ((now - this.refilledAt) * rps) / 1000);
    this.refilledAt = now;
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / rps);
  }

  private drainTimer?: NodeJS.Timeout;
  private drainLater(ms: number): void {
    if (ms === 0) {
      this.drain();
      return;
    }
    if (this.drainTimer) return;
    this.drainTimer = setTimeout(() => {
      this.drainTimer = undefined;
      this.drain();
    }, ms);
    this.drainTimer.unref?.();
  }

  private drain(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.concurrency) {
      const wait = this.rateWait();
      if (wait > 0) {
        this.drainLater(wait);
        return;
      }
      const waiter = this.queue.shift()!;
      clearTimeout(waiter.timer);
      waiter.grant();
    }
  }

  private exhausted(waitMs: number): UpstreamFailure {
    return new UpstreamFailure(503, 'budget', 'upstream request budget exhausted, retry later', Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
