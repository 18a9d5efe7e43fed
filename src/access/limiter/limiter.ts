/**
 * The limiter contract: "admit iff fewer than `limit` requests were admitted for this identity in
 * the last window" (an exact sliding log). Refused requests are not recorded, so they use no quota.
 */

export interface LimitResult {
  allowed: boolean;
  limit: number;
  /** Requests that could still be admitted right now (after this decision). */
  remaining: number;
  /**
   * Refused: exact ms until a request would be admitted (> 0).
   * Admitted: ms until the oldest admitted request leaves the window (when quota starts coming back).
   */
  resetMs: number;
}

/**
 * `null` means the limiter cannot decide (only a shared limiter in `closed` failure mode says this).
 * Memory limiters answer synchronously; a shared limiter answers with a promise.
 */
export interface Limiter {
  readonly windowMs: number;
  /**
   * `now`: the instant of the decision when the caller already read the (same) clock for it, so one request reads
   * the clock once (about 70 ns a read here); a limiter that keeps its own time (Redis) ignores it.
   */
  consume(identity: string, limit: number, now?: number): LimitResult | null | Promise<LimitResult | null>;
  close(): Promise<void>;
}
