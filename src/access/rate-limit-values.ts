/**
 * The `RateLimit` header's value of an admission (`"key";r=<remaining>;t=<seconds>`), remembered by its parts.
 *
 * Why: a value built per request is a concatenation V8 keeps as a rope, and Node checks every header value with a
 * regular expression in `writeHead`, which on a rope goes through V8's runtime to flatten it first: about 0.3 µs a
 * request here, as much as the rest of the decision. A remembered value was flattened by the first check and is
 * handed out again as one flat string. The value depends only on the policy's name, `r` and `t`, so one table per
 * policy serves every key: under a steady load a busy key's `r` moves within a band of a few hundred values, and a
 * key with a small limit has only as many values as its limit. Direct-mapped and bounded (a collision builds the
 * value again): a value is always the exact one, built or remembered.
 */
import type { PolicyName } from './decision.js';

const SLOTS = 4096;

/** One policy's values. */
export class RateLimitValues {
  private readonly start: string;
  private readonly remaining = new Float64Array(SLOTS).fill(-1);
  private readonly reset = new Float64Array(SLOTS);
  private readonly values: string[] = new Array<string>(SLOTS).fill('');

  constructor(policy: PolicyName) {
    this.start = `"${policy}";r=`;
  }

  value(remaining: number, resetSeconds: number): string {
    const slot = (remaining + resetSeconds * 613) & (SLOTS - 1);
    if (this.remaining[slot] === remaining && this.reset[slot] === resetSeconds) return this.values[slot];
    const value = this.start + remaining + ';t=' + resetSeconds;
    this.remaining[slot] = remaining;
    this.reset[slot] = resetSeconds;
    this.values[slot] = value;
    return value;
  }
}

/** The values are the same whoever asks: one table per policy for the process. */
const TABLES = new Map<PolicyName, RateLimitValues>();

export function rateLimitValues(policy: PolicyName): RateLimitValues {
  let table = TABLES.get(policy);
  if (table === undefined) TABLES.set(policy, (table = new RateLimitValues(policy)));
  return table;
}
