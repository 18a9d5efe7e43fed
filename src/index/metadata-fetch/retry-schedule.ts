/**
 * When a uri whose fetch failed is tried again, or whether it is not: the persistent retry schedule the
 * background loop writes into the token index (`next_attempt_at`), so it survives restarts and is shared by
 * every instance on one PostgreSQL index. Pure: `now` comes from the caller's clock.
 *
 * Transient failures (timeouts, refused or reset connections, 5xx, 429, 408) wait `firstDelayMs`, doubling
 * per failure, at most `maxDelayMs`; a `Retry-After` longer than that wait is honored (up to `maxDelayMs`).
 * After `maxAttempts` attempts the failure is for good, like a permanent one (404 and other 4xx, not JSON, too
 * large, a refused address, an unknown name, a bad certificate): bounded, so uris of hosts that are gone for
 * good stop costing requests and slots (mainnet holds many of those).
 */
import type { MetadataFetchError } from './errors.js';

export interface RetryPolicy {
  /** The wait after the first failure. Default 1 min. */
  firstDelayMs: number;
  /** The longest wait. Default 1 day. */
  maxDelayMs: number;
  /** Attempts in all, the first included; then the failure is stored for good. Default 14 (~3.4 days). */
  maxAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { firstDelayMs: 60_000, maxDelayMs: 86_400_000, maxAttempts: 14 };

/** The doubling wait after `failures` failures (1: the first). */
export function backoffMs(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, failures - 1));
}

/**
 * When to try `error`'s uri again after its `failures`-th failure (this one counted), or undefined: never
 * (a permanent failure, or the attempts are used up).
 */
export function nextAttemptAt(policy: RetryPolicy, failures: number, error: MetadataFetchError, now: number): number | undefined {
  if (!error.retryable || failures >= policy.maxAttempts) return undefined;
  const asked = retryAfterMs(error.retryAfter, now) ?? 0;
  return now + Math.min(policy.maxDelayMs, Math.max(backoffMs(policy, failures), asked));
}

/** `Retry-After` (RFC 9110 10.2.3: delay-seconds or an HTTP-date) as a wait from `now`; undefined if absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
