/**
 * The exact sliding log kept in Redis, so that every instance sharing one Redis holds one limit.
 * Decisions are atomic Lua: K simultaneous requests of one client, from any number of instances,
 * admit exactly min(K, limit). Time is Redis's own clock (TIME), so instances with skewed clocks
 * still agree; tests may pass their clock's time instead.
 *
 * Batching: decisions asked during one turn of the event loop go to Redis as ONE script call
 * (flushed on setImmediate), processed in order inside it. The client's cost per command (about
 * 15-20 µs of CPU with ioredis here, mostly one write syscall and one read wake-up each) is then
 * shared by the batch; atomicity is unchanged (a whole batch is one atomic script). Each identity's
 * list key carries a {hash tag}, but a batch mixes identities: use one Redis, not Redis Cluster.
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
const SCRIPT = `
local window = tonumber(ARGV[1])
local t = redis.call('TIME')
local serverNow = tonumber(t[1]) * 1000000 + tonumber(t[2])
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local limit = tonumber(ARGV[2 * i])
  local given = ARGV[2 * i + 1]
  local now = serverNow
  if given ~= '' then now = tonumber(given) end
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
return out
`;

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
  private queue: Pending[] = [];
  private scheduled = false;

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
      this.queue.push({ key: `${this.prefix}:rl:{${identity}}`, limit, nowUs, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const all = this.queue;
    this.queue = [];
    for (let start = 0; start < all.length; start += MAX_BATCH) this.send(all.slice(start, start + MAX_BATCH));
  };

  private send(batch: Pending[]): void {
    const args: Array<string | number> = [batch.length];
    for (const p of batch) args.push(p.key);
    args.push(this.windowMs * 1000);
    for (const p of batch) args.push(p.limit, p.nowUs);
    // One timer per batch (not per decision): the whole batch waits at most timeoutMs for Redis.
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const p of batch) p.reject(error);
    };
    // The timer fires in the loop's timers phase, before the poll phase reads sockets: after a busy
    // stretch an answer may already be waiting. One setImmediate lets the poll phase deliver it first,
    // so event-loop lag is not mistaken for a slow Redis.
    const timer = setTimeout(() => setImmediate(() => fail(new StoreTimeoutError(`Redis did not answer within ${this.timeoutMs} ms`))), this.timeoutMs);
    this.redis.tongateSlidingLog(...args).then((reply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (let i = 0; i < batch.length; i++) {
        batch[i].resolve({ allowed: reply[3 * i] === 1, limit: batch[i].limit, remaining: Number(reply[3 * i + 1]), resetMs: Number(reply[3 * i + 2]) / 1000 });
      }
    }, fail);
  }
}
