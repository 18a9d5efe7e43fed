/**
 * The Redis sliding log's script as it decided before decisions were grouped (one decision after the other, each
 * with its own trimming, LLEN and LPUSH): the reference the grouped script must answer exactly like.
 * KEYS[i] = decision i's list; ARGV[1] = window (µs); then per decision: limit, "now" (µs; '' = Redis TIME).
 * Returns, per decision: admitted (0/1), remaining, µs until the window frees a slot / the oldest leaves.
 */
import type { Redis } from 'ioredis';
import type { LimitResult } from '../../../src/access/limiter/limiter.js';

const PER_DECISION_SCRIPT = `
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

export interface Decision {
  identity: string;
  limit: number;
  /** The caller's instant, ms. */
  at: number;
}

/** Decides `decisions` in one call of the per-decision script, on the lists `${prefix}:rl:{identity}`. */
export async function decideOneByOne(redis: Redis, prefix: string, windowMs: number, decisions: Decision[]): Promise<LimitResult[]> {
  const args: Array<string | number> = decisions.map((d) => `${prefix}:rl:{${d.identity}}`);
  args.push(windowMs * 1000);
  for (const d of decisions) args.push(d.limit, String(Math.round(d.at * 1000)));
  const reply = (await redis.eval(PER_DECISION_SCRIPT, decisions.length, ...args)) as number[];
  return decisions.map((d, i) => ({
    allowed: reply[3 * i] === 1,
    limit: d.limit,
    remaining: Number(reply[3 * i + 1]),
    resetMs: Number(reply[3 * i + 2]) / 1000,
  }));
}
