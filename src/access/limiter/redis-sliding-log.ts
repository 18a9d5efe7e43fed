/**
 * The exact sliding log kept in Redis, so that every instance sharing one Redis holds one limit.
 * Decisions are atomic Lua: K simultaneous requests of one client, from any number of instances,
 * admit exactly min(K, limit). Time is Redis's own clock (TIME), so instances with skewed clocks
 * still agree; tests may pass their clock's time instead.
 *
 * Batching: a Redis round trip costs the Node process more CPU than a whole API request (measured
 * here: ~75 µs for a bare PING, mostly the socket write, the wake-up and the read), so the decisions
 * asked during one event-loop turn travel together: one EVALSHA per turn carrying all of them,
 * processed in order inside the script, N answers back. A turn's call leaves at the end of the turn
 * whatever is still in flight (pipelined on the connection), so every decision costs exactly one round
 * trip on its request's path. Each call has its own timer: none waits longer than the store timeout.
 * Identity lists carry a {hash tag}, but a batch mixes identities: one Redis, not Redis Cluster.
 *
 * Data: one list per identity, newest admitted timestamp (µs) at the head; entries that left the
 * window are popped from the tail; the list expires soon after its last admission.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../util/clock.js';
import type { LimitResult } from './limiter.js';
import { StoreTimeoutError } from '../timeout.js';

// KEYS[i] = identity i's list; ARGV[1] = window (µs); then per decision: limit, "now" (µs; '' = Redis TIME).
// Returns, per decision: admitted (0/1), remaining, µs until the window frees a slot / the oldest leaves.
// Redis runs this on its one thread for every decision of every instance, so it makes as few calls as it can: the
// trimming loop's last read is the oldest entry left (no second read for it), and a list's expiry is set once per
// call, after its last admission in the call (a batch often holds many decisions of one identity).
const SCRIPT = `
local window = tonumber(ARGV[1])
local t = redis.call('TIME')
local serverNow = tonumber(t[1]) * 1000000 + tonumber(t[2])
local out = {}
local expiry = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local limit = tonumber(ARGV[2 * i])
  local given = ARGV[2 * i + 1]
  local now = serverNow
  if given ~= '' then now = tonumber(given) end
  local edge = now - window
  local oldest
  while true do
    local last = redis.call('LINDEX', key, -1)
    if not last then break end
    oldest = tonumber(last)
    if oldest > edge then break end
    oldest = nil
    redis.call('RPOP', key)
  end
  local n = redis.call('LLEN', key)
  if n < limit then
    redis.call('LPUSH', key, string.format('%d', now))
    -- One window after the last admission the list is dead (entries are trimmed by time anyway).
    -- With a caller's clock (tests) Redis's real-time expiry must not cut the caller's window short.
    local slack = 1000
    if given ~= '' then slack = 600000 end
    local ms = math.ceil(window / 1000) + slack
    if not expiry[key] or ms > expiry[key] then expiry[key] = ms end
    -- Pushed at the head: the oldest is the tail the loop stopped at, or this admission in an empty list.
    if not oldest then oldest = now end
    out[#out + 1] = 1
    out[#out + 1] = limit - n - 1
    out[#out + 1] = oldest + window - now
  else
    -- Refused: the window holds n >= limit admissions (n > limit after a limit was lowered: entries
    -- are kept so that raising it again cannot over-admit). A slot frees when the limit-th newest leaves.
    local pivot = tonumber(redis.call('LINDEX', key, limit - 1))
    out[#out + 1] = 0
    out[#out + 1] = 0
    out[#out + 1] = pivot + window - now
  end
end
for key, ms in pairs(expiry) do
  redis.call('PEXPIRE', key, ms)
end
return out
`;

/** Decisions per script call at most (a turn with more sends several calls, all at once). */
const MAX_BATCH = 256;

interface RedisWithScript extends Redis {
  tongateSlidingLog(...keysThenArgs: Array<string | number>): Promise<number[]>;
}

interface Pending {
  key: string;
  limit: number;
  nowUs: string;
  resolve(result: LimitResult): void;
  reject(error: unknown): void;
}

export interface RedisSlidingLogOptions {
  redis: Redis;
  /** Prefix of the list keys, e.g. "tongate". */
  prefix: string;
  windowMs?: number;
  /** Longest wait for Redis, in ms: a batch not answered by then is rejected with StoreTimeoutError. */
  timeoutMs: number;
  /** Tests only: decide with this clock instead of Redis's TIME. */
  clock?: Clock;
}

export class RedisSlidingLog {
  readonly windowMs: number;
  private readonly redis: RedisWithScript;
  private readonly prefix: string;
  private readonly clock?: Clock;
  private readonly timeoutMs: number;
  /** The decisions asked during this event-loop turn. */
  private pending: Pending[] = [];
  private flushScheduled = false;
  /** Script calls sent (for tests and the bench: round trips per decision). */
  calls = 0;

  constructor(options: RedisSlidingLogOptions) {
    this.windowMs = options.windowMs ?? 1000;
    this.prefix = options.prefix;
    this.clock = options.clock;
    this.timeoutMs = options.timeoutMs;
    const redis = options.redis as RedisWithScript;
    // numberOfKeys is given per call (the batch size); ioredis sends EVALSHA and falls back to EVAL once.
    if (typeof redis.tongateSlidingLog !== 'function') redis.defineCommand('tongateSlidingLog', { lua: SCRIPT });
    this.redis = redis;
  }

  consume(identity: string, limit: number): Promise<LimitResult> {
    return new Promise<LimitResult>((resolve, reject) => {
      // {…} is a Redis Cluster hash tag: one identity's list maps to one slot.
      const nowUs = this.clock ? String(Math.round(this.clock.now() * 1000)) : '';
      this.pending.push({ key: `${this.prefix}:rl:{${identity}}`, limit, nowUs, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  /**
   * Once per event-loop turn (setImmediate runs after the poll phase has read every request that arrived):
   * the turn's decisions leave in one script call, whatever is in flight. ioredis writes it on the same
   * connection behind calls still travelling (pipelining), so no decision waits for another batch's round
   * trip: one round trip per decision, never two.
   */
  private readonly flush = (): void => {
    this.flushScheduled = false;
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += MAX_BATCH) this.send(i === 0 && all.length <= MAX_BATCH ? all : all.slice(i, i + MAX_BATCH));
  };

  private send(items: Pending[]): void {
    this.calls++;
    const args: Array<string | number> = [items.length];
    for (const p of items) args.push(p.key);
    args.push(this.windowMs * 1000);
    for (const p of items) args.push(p.limit, p.nowUs);
    let done = false;
    const settle = (reply: number[] | undefined, error: unknown): void => {
      if (done) return; // a late answer after the timeout is ignored
      done = true;
      clearTimeout(timer);
      if (reply === undefined) {
        for (const p of items) p.reject(error);
        return;
      }
      for (let i = 0; i < items.length; i++) {
        items[i].resolve({
          allowed: reply[3 * i] === 1,
          limit: items[i].limit,
          remaining: Number(reply[3 * i + 1]),
          resetMs: Number(reply[3 * i + 2]) / 1000,
        });
      }
    };
    // The timer fires in the timers phase, before the poll phase reads sockets: one setImmediate lets
    // an answer already waiting win, so event-loop lag is not mistaken for a slow Redis.
    const timer = setTimeout(
      () => setImmediate(() => settle(undefined, new StoreTimeoutError(`Redis did not answer within ${this.timeoutMs} ms`))),
      this.timeoutMs,
    );
    this.redis.tongateSlidingLog(...args).then(
      (reply) => settle(reply, undefined),
      (error: unknown) => settle(undefined, error),
    );
  }
}
