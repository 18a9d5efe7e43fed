/**
 * Time, injected. Every rule that depends on time (block intervals, rate limits, key expiry)
 * reads it from a Clock, so tests can move time forward without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch (may be fractional). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: for tests. */
export class ManualClock implements Clock {
  constructor(private ms = 1_700_000_000_000) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
