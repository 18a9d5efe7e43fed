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

// A call carries groups: the decisions of one identity asked in one turn with one limit and one "now" travel as one
// group (key, limit, now, count), decided at once with the calls one decision would make: Redis runs this on its one
// thread for every decision of every instance, and its cost was per decision (~7.5 µs each beside ~25 µs per call,
// measured with INFO commandstats), while a turn's batch is mostly one identity's requests.
// KEYS[g] = group g's list; ARGV[1] = window (µs); then per group: limit, "now" (µs; '' = Redis TIME), count.
// Returns, per group: admitted (the first ones of the group, in order), the list's length before them, µs until the
// oldest entry leaves (for the admitted), µs until the window frees a slot (for the refused).
// The answers are those of deciding the group's decisions one by one: trimming at one instant a second time cuts
// nothing; each admission pushes at the head, so the oldest stays the tail (or is the first admission, in an empty
// list); once the window is full the rest are refused, and each refused one sees the same list. A list's expiry is
// set once per call, after its last admission in the call. Exported for bench:access's bare round trip (the same call
// without tongate around it).
export const SLIDING_LOG_SCRIPT = `
local window = tonumber(ARGV[1])
local t = redis.call('TIME')
local serverNow = tonumber(t[1]) * 1000000 + tonumber(t[2])
local out = {}
local expiry = {}
for g = 1, #KEYS do
  local key = KEYS[g]
  local limit = tonumber(ARGV[3 * g - 1])
  local given = ARGV[3 * g]
  local count = tonumber(ARGV[3 * g + 1])
  local now = serverNow
  if given ~= '' then now = tonumber(given) end
  local edge = now - window
  -- The trim: entries are newest first, so those that left the window are the list's tail. One LRANGE reads a tail
  -- longer than what usually leaves between two calls (about a call's count), one LTRIM cuts what left; a tail that
  -- left whole (a pause, a burst's window ending) is read again twice as long. The oldest kept is its last entry.
  local oldest
  local span = 2 * count + 16
  while true do
    local tail = redis.call('LRANGE', key, -span, -1)
    local kept = #tail
    while kept > 0 and tonumber(tail[kept]) <= edge do kept = kept - 1 end
    if kept < #tail then redis.call('LTRIM', key, 0, kept - #tail - 1) end
    if kept > 0 then
      oldest = tonumber(tail[kept])
      break
    end
    if #tail < span then break end
    span = span * 2
  end
  local n = redis.call('LLEN', key)
  local admitted = limit - n
  if admitted > count then admitted = count end
  if admitted < 0 then admitted = 0 end
  local untilOldest = 0
  local untilSlot = 0
  if admitted > 0 then
    local stamp = string.format('%d', now)
    local stamps = {}
    for j = 1, admitted do stamps[j] = stamp end
    redis.call('LPUSH', key, unpack(stamps))
    -- One window after the last admission the list is dead (entries are trimmed by time anyway).
    -- With a caller's clock (tests) Redis's real-time expiry must not cut the caller's window short.
    local slack = 1000
    if given ~= '' then slack = 600000 end
    local ms = math.ceil(window / 1000) + slack
    if not expiry[key] or ms > expiry[key] then expiry[key] = ms end
    -- Pushed at the head: the oldest is the tail the trim kept, or the first admission in an empty list.
    if not oldest then oldest = now end
    untilOldest = oldest + window - now
  end
  if admitted < count then
    -- Refused: the window holds n >= limit admissions (n > limit after a limit was lowered: entries
    -- are kept so that raising it again cannot over-admit). A slot frees when the limit-th newest leaves.
    untilSlot = tonumber(redis.call('LINDEX', key, limit - 1)) + window - now
  end
  out[4 * g - 3] = admitted
  out[4 * g - 2] = n
  out[4 * g - 1] = untilOldest
  out[4 * g] = untilSlot
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

/** Told a decision's result, or (result undefined) why there is none: StoreTimeoutError or Redis's error. */
export type Answer = (result: LimitResult | undefined, error?: unknown) => void;

interface Pending {
  identity: string;
  limit: number;
  nowUs: string;
  answer: Answer;
}

/** One identity's decisions of one call with one limit and one "now", in the order they were asked. */
interface Group {
  identity: string;
  limit: number;
  nowUs: string;
  items: Pending[];
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
  private readonly windowUs: number;
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
    this.windowUs = this.windowMs * 1000;
    this.prefix = options.prefix;
    this.clock = options.clock;
    this.timeoutMs = options.timeoutMs;
    const redis = options.redis as RedisWithScript;
    // numberOfKeys is given per call (the number of groups); ioredis sends EVALSHA and falls back to EVAL once.
    if (typeof redis.tongateSlidingLog !== 'function') redis.defineCommand('tongateSlidingLog', { lua: SLIDING_LOG_SCRIPT });
    this.redis = redis;
  }

  consume(identity: string, limit: number): Promise<LimitResult> {
    return new Promise<LimitResult>((resolve, reject) =>
      this.decide(identity, limit, (result, error) => (result ? resolve(result) : reject(error))),
    );
  }

  /**
   * consume() with a callback: the shared limiter makes the one promise a request awaits, so a decision costs one
   * promise, not two chained.
   */
  decide(identity: string, limit: number, answer: Answer): void {
    const nowUs = this.clock ? String(Math.round(this.clock.now() * 1000)) : '';
    this.pending.push({ identity, limit, nowUs, answer });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
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
    const groups = groupDecisions(items);
    const args: Array<string | number> = [groups.length];
    // {…} is a Redis Cluster hash tag: one identity's list maps to one slot.
    for (const g of groups) args.push(`${this.prefix}:rl:{${g.identity}}`);
    args.push(this.windowUs);
    for (const g of groups) args.push(g.limit, g.nowUs, g.items.length);
    let done = false;
    const settle = (reply: number[] | undefined, error: unknown): void => {
      if (done) return; // a late answer after the timeout is ignored
      done = true;
      clearTimeout(timer);
      if (reply === undefined) {
        for (const p of items) p.answer(undefined, error);
        return;
      }
      for (let g = 0; g < groups.length; g++) {
        const { limit, items: mine } = groups[g];
        const admitted = Number(reply[4 * g]);
        const before = Number(reply[4 * g + 1]);
        const untilOldest = Number(reply[4 * g + 2]) / 1000;
        const untilSlot = Number(reply[4 * g + 3]) / 1000;
        for (let j = 0; j < mine.length; j++) {
          // The group's first `admitted` decisions were admitted, one after the other; the rest found the window full.
          mine[j].answer(
            j < admitted
              ? { allowed: true, limit, remaining: limit - before - 1 - j, resetMs: untilOldest }
              : { allowed: false, limit, remaining: 0, resetMs: untilSlot },
          );
        }
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

/**
 * A call's decisions as groups (one identity, one limit, one "now"), each identity's groups in the order its decisions
 * were asked: lists of different identities are independent, so only that order matters. A new group starts when an
 * identity's limit or caller's instant changes (with Redis's TIME every decision of a call has one instant).
 */
function groupDecisions(items: Pending[]): Group[] {
  const groups: Group[] = [];
  let latest: Map<string, Group> | undefined;
  let previous: Group | undefined;
  for (const p of items) {
    // A batch is mostly runs of one identity: the previous group answers without a map.
    let g = previous !== undefined && previous.identity === p.identity ? previous : latest?.get(p.identity);
    if (g === undefined || g.limit !== p.limit || g.nowUs !== p.nowUs) {
      g = { identity: p.identity, limit: p.limit, nowUs: p.nowUs, items: [] };
      groups.push(g);
      // The map is made at the second group (until then the one group is `previous`).
      if (previous !== undefined) (latest ??= new Map([[previous.identity, previous]])).set(p.identity, g);
    }
    g.items.push(p);
    previous = g;
  }
  return groups;
}
