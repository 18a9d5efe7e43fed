/**
 * A circuit breaker in front of a remote service (Redis, PostgreSQL, a liteserver, an upstream). While it keeps failing,
 * requests stop waiting for it and take the fallback path at once; after `openMs` one probe is let
 * through, and a successful probe closes the breaker. Time comes from the injected clock.
 *
 * Trip rule (Unkey's numbers, research/access-layer.md): among the last `window` outcomes, at least
 * `minFailures` failures making up at least `failureRatio` of them.
 */
import type { Clock } from './clock.js';

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  clock: Clock;
  window?: number;
  minFailures?: number;
  failureRatio?: number;
  /** How long to stay open before probing again, in ms. */
  openMs?: number;
  onStateChange?: (state: BreakerState) => void;
}

export class CircuitBreaker {
  private readonly clock: Clock;
  private readonly window: number;
  private readonly minFailures: number;
  private readonly failureRatio: number;
  private readonly openMs: number;
  private readonly onStateChange?: (state: BreakerState) => void;
  /** Ring of recent outcomes, true = failure. */
  private readonly outcomes: boolean[] = [];
  private next = 0;
  private failures = 0;
  private current: BreakerState = 'closed';
  private openedAt = 0;
  private probeInFlight = false;

  constructor(options: CircuitBreakerOptions) {
    this.clock = options.clock;
    this.window = options.window ?? 20;
    this.minFailures = options.minFailures ?? 5;
    this.failureRatio = options.failureRatio ?? 0.5;
    this.openMs = options.openMs ?? 1000;
    this.onStateChange = options.onStateChange;
  }

  get state(): BreakerState {
    return this.current;
  }

  /** May the caller use the store now? In half-open state only one caller (the probe) gets true. */
  allow(): boolean {
    if (this.current === 'closed') return true;
    if (this.current === 'open') {
      if (this.clock.now() - this.openedAt < this.openMs) return false;
      this.transition('half-open');
    }
    if (this.probeInFlight) return false;
    this.probeInFlight = true;
    return true;
  }

  success(): void {
    if (this.current !== 'closed') {
      this.probeInFlight = false;
      this.clearOutcomes();
      this.transition('closed');
      return;
    }
    this.record(false);
  }

  failure(): void {
    if (this.current !== 'closed') {
      // The probe (or a straggler from before the trip) failed: stay open for another interval.
      this.probeInFlight = false;
      this.openedAt = this.clock.now();
      if (this.current === 'half-open') this.transition('open');
      return;
    }
    this.record(true);
    const samples = this.outcomes.length;
    if (this.failures >= this.minFailures && this.failures / samples >= this.failureRatio) {
      this.openedAt = this.clock.now();
      this.transition('open');
    }
  }

  private record(failed: boolean): void {
    if (this.outcomes.length < this.window) {
      this.outcomes.push(failed);
    } else {
      if (this.outcomes[this.next]) this.failures--;
      this.outcomes[this.next] = failed;
      this.next = (this.next + 1) % this.window;
    }
    if (failed) this.failures++;
  }

  private clearOutcomes(): void {
    this.outcomes.length = 0;
    this.next = 0;
    this.failures = 0;
  }

  private transition(state: BreakerState): void {
    if (this.current === state) return;
    this.current = state;
    this.onStateChange?.(state);
  }
}
