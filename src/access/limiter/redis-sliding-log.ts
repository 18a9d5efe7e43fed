/**
 * The exact sliding log kept in Redis, so that every instance sharing one Redis holds one limit.
 * One Lua script per decision: Redis runs it atomically, so K simultaneous requests of one client,
 * from any number of instances, admit exactly min(K, limit). Time is Redis's own clock (TIME), so
 * instances with skewed clocks still agree; tests may pass their clock's time instead.
 *
 * Data: one list per identity, newest admitted timestamp (µs) at the head; entries that left the
 * window are popped from the tail; the list expires soon after its last admission.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../util/clock.js';
import type { LimitResult } from './limiter.js';

// KEYS[1] = the identity's list; ARGV = limit, window (µs), optional "now" (µs, tests only).
// Returns { admitted (0/1), remaining, µs until the oldest admitted leaves the window }.
const SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now
if ARGV[3] and ARGV[3] ~= '' then
  now = tonumber(ARGV[3])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local edge = now - window
while true do
  local last = redis.call('LINDEX', key, -1)
  if not last or tonumber(last) > edge then break end
  redis.call('RPOP', key)
end
local n = redis.call('LLEN', key)
if n < limit then
  redis.call('LPUSH', key, string.format('%d', now))
  -- One window after the last admission the list is dead; a second of slack keeps it for callers
  -- (tests) whose clock is not Redis's. Entries are trimmed by time anyway.
  redis.call('PEXPIRE', key, math.ceil(window / 1000) + 1000)
  local oldest = tonumber(redis.call('LINDEX', key, -1))
  return { 1, limit - n - 1, oldest + window - now }
end
-- Refused: the window holds n >= limit admissions (n > limit after a limit was lowered: entries are
-- kept so that raising it again cannot over-admit). A slot frees when the limit-th newest leaves.
local pivot = tonumber(redis.call('LINDEX', key, limit - 1))
return { 0, 0, pivot + window - now }
`;

type ScriptReply = [number, number, number];

interface RedisWithScript extends Redis {
  tongateSlidingLog(key: string, limit: number, windowUs: number, nowUs: string): Promise<ScriptReply>;
}

export interface RedisSlidingLogOptions {
  redis: Redis;
  /** Prefix of the list keys, e.g. "tongate". */
  prefix: string;
  windowMs?: number;
  /** Tests only: decide with this clock instead of Redis's TIME. */
  clock?: Clock;
}

export class RedisSlidingLog {
  readonly windowMs: number;
  private readonly redis: RedisWithScript;
  private readonly prefix: string;
  private readonly clock?: Clock;

  constructor(options: RedisSlidingLogOptions) {
    this.windowMs = options.windowMs ?? 1000;
    this.prefix = options.prefix;
    this.clock = options.clock;
    const redis = options.redis as RedisWithScript;
    if (typeof redis.tongateSlidingLog !== 'function') {
      redis.defineCommand('tongateSlidingLog', { numberOfKeys: 1, lua: SCRIPT });
    }
    this.redis = redis;
  }

  async consume(identity: string, limit: number): Promise<LimitResult> {
    const nowUs = this.clock ? String(Math.round(this.clock.now() * 1000)) : '';
    // {…} is a Redis Cluster hash tag: the whole identity maps to one slot.
    const reply = await this.redis.tongateSlidingLog(`${this.prefix}:rl:{${identity}}`, limit, this.windowMs * 1000, nowUs);
    return { allowed: reply[0] === 1, limit, remaining: Number(reply[1]), resetMs: Number(reply[2]) / 1000 };
  }
}
