/**
 * What the index's follower may take of the liteservers, so that ingestion never crowds out HTTP reads:
 *
 * - a rate: at most `queriesPerSecond` follower queries start per second (a token bucket holding one second's
 *   worth, so a new masterchain block's reads may go at once, then at the rate);
 * - a share of each server's concurrency: the follower has at most `slots(cap)` queries in flight on a server
 *   whose cap is `cap` (half of it), so HTTP reads always find the other half free.
 *
 * A pure rule on an injected clock (the pool does the waiting), so its tests move time instead of sleeping.
 */
import type { Clock } from '../../util/clock.js';

/** Default rate per network: a masterchain block and its shard blocks a second with room for catching up. */
export const DEFAULT_FOLLOWER_QUERIES_PER_SECOND = 100;
/** The follower's share of each server's in-flight cap. */
const FOLLOWER_SHARE = 0.5;

export class FollowerBudget {
  private tokens: number;
  private at: number;
  /** Queries let through since the start (for /metrics and the tests). */
  granted = 0;

  constructor(
    readonly queriesPerSecond: number,
    private readonly clock: Clock,
  ) {
    if (!(queriesPerSecond > 0)) throw new RangeError('queriesPerSecond must be positive');
    this.tokens = queriesPerSecond;
    this.at = clock.now();
  }

  /** 0 when a query may start now (it is counted), else how many ms until one may. */
  take(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.queriesPerSecond, this.tokens + ((now - this.at) * this.queriesPerSecond) / 1000);
    this.at = now;
    // (A hair under 1 counts as 1: tenths of a token added up in floating point fall just short.)
    if (this.tokens >= 1 - 1e-9) {
      this.tokens = Math.max(0, this.tokens - 1);
      this.granted++;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.queriesPerSecond);
  }

  /** Most follower queries in flight on a server that takes `cap` at once: never all of them (when cap > 1). */
  static slots(cap: number): number {
    return Math.max(1, Math.min(cap - 1, Math.floor(cap * FOLLOWER_SHARE)));
  }
}
