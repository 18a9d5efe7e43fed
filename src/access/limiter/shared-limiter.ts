/**
 * The scaled-out limiter: every decision goes to Redis (one atomic script), guarded so that Redis
 * can never make a request wait longer than the store timeout:
 *   - the remote answers within the store timeout or fails (RedisSlidingLog: one timer per batch);
 *   - a circuit breaker stops calling Redis while it keeps failing, and probes it again after `openMs`,
 *     so shared limits are back within about a second of Redis answering again;
 *   - while Redis cannot answer, the failure mode decides: `local` (each instance enforces the same
 *     limits alone, in memory), `open` (admit), `closed` (refuse with 503 -> `null`).
 * A local deny cache remembers "refused until T" answers: for a sliding log the earliest admission
 * time can only move later, so refusing locally until then never refuses a request Redis would admit
 * (it may refuse up to one round trip too long), and floods of refused requests cost Redis nothing.
 */
import type { Clock } from '../../util/clock.js';
import type { LimiterFailureMode } from '../options.js';
import type { CircuitBreaker } from '../../util/circuit-breaker.js';
import type { LimitResult, Limiter } from './limiter.js';
import type { MemorySlidingLog } from './memory-sliding-log.js';

/**
 * The shared store's limiter. It must answer within the store timeout (RedisSlidingLog enforces it per batch), with a
 * result or (result undefined) the error.
 */
export interface RemoteSlidingLog {
  readonly windowMs: number;
  decide(identity: string, limit: number, answer: (result: LimitResult | undefined, error?: unknown) => void): void;
}

export interface SharedLimiterEvents {
  /** Redis failed or timed out on a decision. */
  onRemoteError?(error: unknown): void;
  /** A decision was taken without Redis, in this failure mode. */
  onFallback?(mode: LimiterFailureMode): void;
}

export interface SharedLimiterOptions {
  remote: RemoteSlidingLog;
  local: MemorySlidingLog;
  breaker: CircuitBreaker;
  failureMode: LimiterFailureMode;
  clock: Clock;
  events?: SharedLimiterEvents;
  close?: () => Promise<void>;
}

interface Denial {
  until: number;
  limit: number;
}

export class SharedLimiter implements Limiter {
  readonly windowMs: number;
  private readonly denials = new Map<string, Denial>();

  constructor(private readonly o: SharedLimiterOptions) {
    this.windowMs = o.remote.windowMs;
  }

  consume(identity: string, limit: number, at?: number): LimitResult | null | Promise<LimitResult | null> {
    const now = at ?? this.o.clock.now();
    const denial = this.denials.get(identity);
    if (denial !== undefined) {
      if (denial.until > now && denial.limit === limit) {
        return { allowed: false, limit, remaining: 0, resetMs: denial.until - now };
      }
      this.denials.delete(identity);
    }
    if (!this.o.breaker.allow()) return this.fallback(identity, limit);
    return this.askRemote(identity, limit);
  }

  async close(): Promise<void> {
    this.denials.clear();
    await this.o.close?.();
  }

  /** The one promise a request awaits, settled by the remote's callback (not a `then` on a promise of the remote's). */
  private askRemote(identity: string, limit: number): Promise<LimitResult | null> {
    return new Promise((resolve, reject) =>
      this.o.remote.decide(identity, limit, (result, error) => {
        // The remote answers a whole batch in one loop: a throw here (an event hook's) must reject this request
        // alone, as a throw inside a `then` would, not cut the loop short.
        try {
          resolve(result !== undefined ? this.answered(identity, limit, result) : this.failed(identity, limit, error));
        } catch (thrown) {
          reject(thrown);
        }
      }),
    );
  }

  private answered(identity: string, limit: number, result: LimitResult): LimitResult {
    this.o.breaker.success();
    if (!result.allowed) {
      if (this.denials.size > 100_000) this.denials.clear();
      // resetMs was measured at Redis before the answer travelled back: counting it from the arrival
      // errs on the refusing side by at most one round trip, never on the admitting side.
      this.denials.set(identity, { until: this.o.clock.now() + result.resetMs, limit });
    }
    return result;
  }

  private failed(identity: string, limit: number, error: unknown): LimitResult | null {
    this.o.breaker.failure();
    this.o.events?.onRemoteError?.(error);
    return this.fallback(identity, limit);
  }

  private fallback(identity: string, limit: number): LimitResult | null {
    this.o.events?.onFallback?.(this.o.failureMode);
    switch (this.o.failureMode) {
      case 'local':
        return this.o.local.consume(identity, limit);
      case 'open':
        return { allowed: true, limit, remaining: limit, resetMs: 0 };
      case 'closed':
        return null;
    }
  }
}
