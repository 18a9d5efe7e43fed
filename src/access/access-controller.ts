/**
 * The rules, in the order a request meets them (issue 3, spec 000):
 *   1. key = header X-API-Key, else query api_key (the HTTP hook extracts it; empty = none);
 *   2. unknown, revoked or expired key -> 401 "API key does not exist";
 *   3. key of another network -> 403 "Network not allowed";
 *   4. no key -> 1 request/s per client address (IPv6 /64) per network;
 *   5. a key -> its own limit, or its account's shared limit on that network when the account has one;
 *   6. over the limit -> 429 "Ratelimit exceeded" + Retry-After; RateLimit-Policy/RateLimit on every limited response.
 * With the embedded stores every step is synchronous: a decision is a memo read (the key's hash), a Map read
 * (the key's record), a WeakMap read (what its decisions reuse), one clock read and a ring buffer update, with no
 * promise. Promises appear only for a key-cache miss on PostgreSQL and for Redis.
 */
import type { Clock } from '../util/clock.js';
import { clientIdentity } from './client-ip.js';
import {
  Admission,
  DENY_KEY_STORE_UNAVAILABLE,
  DENY_LIMITER_UNAVAILABLE,
  DENY_UNKNOWN_KEY,
  DENY_WRONG_NETWORK,
  limitHeaders,
  refusalBody,
  resetSeconds,
  retryAfterSeconds,
  type AccessDecision,
  type PolicyName,
} from './decision.js';
import type { KeyDirectory } from './keys/key-directory.js';
import { KeyHashMemo, MAX_KEY_LENGTH } from './keys/key-material.js';
import type { KeyRecord } from './keys/key-store.js';
import type { LimitResult, Limiter } from './limiter/limiter.js';
import type { AccessMetrics, CountCell } from './metrics.js';

/** One request, as the access layer sees it. */
export interface AccessRequest {
  /** The network the request addressed ('mainnet', 'testnet', ...). */
  network: string;
  /** The API key presented, if any (empty string = none). */
  key: string | undefined;
  /** The client address (already resolved through trusted proxies by the HTTP layer). Only read when there is no key. */
  clientIp: string;
}

export interface AccessControllerOptions {
  directory: KeyDirectory;
  limiter: Limiter;
  clock: Clock;
  metrics: AccessMetrics;
  anonymousRps: number;
}

const RATE_LIMITED_BODY = Object.freeze(refusalBody('rate_limited'));

/**
 * What every decision for one key record reuses, built when the record is first met (the key directory hands out
 * the same record object until it changes): the limiter identity, the limit and policy that apply, the policy
 * header, the stream caps and the metrics cells. A decision for a cached key then builds only what changes per
 * request (the remaining quota and its header), with one clock read.
 */
interface KeyPlan {
  identity: string;
  limits: LimitPlan;
  keyId: string;
  streamConnections: number | undefined;
  streamAddresses: number | undefined;
  admissions: AdmissionCache;
}

/**
 * The admissions one key record (or the keyless limit) gave lately, by the remaining quota and `t` they carry: an
 * `Admission` is immutable and says nothing but its key's fields and those two numbers, so a decision that lands on
 * the same two hands out the same object instead of building a new one and its `RateLimit` string (about 0.18 KB a
 * request, and Node then flattens that string when it checks the header). Direct-mapped by the remaining quota, which
 * moves by one or a few from one request to the next. One slot per possible remaining quota up to 256 (a key of 10
 * requests/s keeps 16 slots and always hits them); past that a busy key's count in its window wanders over more values
 * than the slots, and some decisions build their admission as before.
 */
const MAX_ADMISSION_SLOTS = 256;
class AdmissionCache {
  private readonly mask: number;
  private readonly remaining: Float64Array;
  private readonly reset: Float64Array;
  private readonly entries: (Admission | undefined)[];

  constructor(limit: number) {
    let slots = 1;
    while (slots <= limit && slots < MAX_ADMISSION_SLOTS) slots *= 2;
    this.mask = slots - 1;
    this.remaining = new Float64Array(slots).fill(-1);
    this.reset = new Float64Array(slots);
    this.entries = new Array<Admission | undefined>(slots).fill(undefined);
  }

  get(remaining: number, t: number): Admission | undefined {
    const slot = remaining & this.mask;
    return this.remaining[slot] === remaining && this.reset[slot] === t ? this.entries[slot] : undefined;
  }

  set(remaining: number, t: number, admission: Admission): void {
    const slot = remaining & this.mask;
    this.remaining[slot] = remaining;
    this.reset[slot] = t;
    this.entries[slot] = admission;
  }
}

/** A policy and its limit: the RateLimit-Policy value and the counts its decisions bump. */
interface LimitPlan {
  policy: PolicyName;
  limit: number;
  policyHeader: string;
  /** `"key";r=`: the RateLimit value's start. */
  rateStart: string;
  allowed: CountCell;
  limited: CountCell;
}

export class AccessController {
  private readonly hashes = new KeyHashMemo();
  private readonly plans = new WeakMap<KeyRecord, KeyPlan>();
  private readonly limitPlans = new Map<string, LimitPlan>();
  private readonly anonymous: LimitPlan;
  private readonly anonymousAdmissions: AdmissionCache;

  constructor(private readonly o: AccessControllerOptions) {
    this.anonymous = this.limitPlan('ip', o.anonymousRps);
    this.anonymousAdmissions = new AdmissionCache(o.anonymousRps);
  }

  /** Reads `req` before it returns (the HTTP hook hands it the same object, refilled, on every request). */
  check(req: AccessRequest): AccessDecision | Promise<AccessDecision> {
    const raw = req.key;
    const network = req.network;
    if (raw === undefined || raw === '') {
      return this.limit(`ip:${req.network}:${clientIdentity(req.clientIp)}`, this.anonymous, undefined, undefined);
    }
    // Longer than any key we accept: unknown without touching the cache (a flood of huge values stays cheap).
    if (raw.length > MAX_KEY_LENGTH) return this.refuseUnknown();
    const now = this.o.clock.now();
    let found: KeyRecord | null | Promise<KeyRecord | null>;
    try {
      found = this.o.directory.lookup(this.hashes.hash(raw), now);
    } catch {
      return this.refuseStoreUnavailable();
    }
    if (found instanceof Promise) {
      return found.then(
        // The store answered later: the decision's instant is now.
        (record) => this.withKey(network, record, this.o.clock.now()),
        () => this.refuseStoreUnavailable(),
      );
    }
    return this.withKey(network, found, now);
  }

  private withKey(network: string, record: KeyRecord | null, now: number): AccessDecision | Promise<AccessDecision> {
    if (record === null || (record.expiresAt !== null && record.expiresAt <= now)) return this.refuseUnknown();
    if (record.network !== network) {
      this.o.metrics.decision('wrong_network', 'none');
      return { ...DENY_WRONG_NETWORK, keyId: record.id };
    }
    let plan = this.plans.get(record);
    if (plan === undefined) this.plans.set(record, (plan = this.keyPlan(record)));
    return this.limit(plan.identity, plan.limits, plan, now);
  }

  private limit(
    identity: string,
    plan: LimitPlan,
    key: KeyPlan | undefined,
    now: number | undefined,
  ): AccessDecision | Promise<AccessDecision> {
    const result = this.o.limiter.consume(identity, plan.limit, now);
    if (result instanceof Promise) return result.then((r) => this.decide(r, plan, key));
    return this.decide(result, plan, key);
  }

  private decide(result: LimitResult | null, plan: LimitPlan, key: KeyPlan | undefined): AccessDecision {
    if (result === null) {
      this.o.metrics.decision('limiter_unavailable', plan.policy);
      return DENY_LIMITER_UNAVAILABLE;
    }
    // The headers name the limit the limiter applied; the prepared policy header is that of the limit it was asked for.
    if (result.allowed && result.limit === plan.limit) {
      plan.allowed.n++;
      const remaining = result.remaining;
      const t = resetSeconds(result.resetMs);
      const cache = key === undefined ? this.anonymousAdmissions : key.admissions;
      let admission = cache.get(remaining, t);
      if (admission === undefined) {
        const rate = plan.rateStart + remaining + ';t=' + t;
        admission =
          key === undefined
            ? new Admission(plan.policyHeader, rate, undefined, undefined, undefined)
            : new Admission(plan.policyHeader, rate, key.keyId, key.streamConnections, key.streamAddresses);
        cache.set(remaining, t, admission);
      }
      return admission;
    }
    const headers: Record<string, string> =
      result.limit === plan.limit
        ? { 'ratelimit-policy': plan.policyHeader, ratelimit: plan.rateStart + result.remaining + ';t=' + resetSeconds(result.resetMs) }
        : limitHeaders(plan.policy, result.limit, this.o.limiter.windowMs, result.remaining, result.resetMs);
    if (result.allowed) {
      plan.allowed.n++;
      const rate = headers.ratelimit;
      return new Admission(headers['ratelimit-policy'], rate, key?.keyId, key?.streamConnections, key?.streamAddresses);
    }
    plan.limited.n++;
    headers['retry-after'] = String(retryAfterSeconds(result.resetMs));
    return { allowed: false, status: 429, body: RATE_LIMITED_BODY, headers, keyId: key?.keyId };
  }

  private keyPlan(record: KeyRecord): KeyPlan {
    const shared = record.accountRps !== null && record.account !== null;
    return {
      identity: shared ? `a:${record.network}:${record.account}` : `k:${record.id}`,
      limits: this.limitPlan(shared ? 'account' : 'key', shared ? record.accountRps! : record.rps),
      keyId: record.id,
      streamConnections: record.streamConnections ?? undefined,
      streamAddresses: record.streamAddresses ?? undefined,
      admissions: new AdmissionCache(shared ? record.accountRps! : record.rps),
    };
  }

  private limitPlan(policy: PolicyName, limit: number): LimitPlan {
    const k = `${policy}/${limit}`;
    let plan = this.limitPlans.get(k);
    if (plan === undefined) {
      plan = {
        policy,
        limit,
        policyHeader: limitHeaders(policy, limit, this.o.limiter.windowMs, 0, 0)['ratelimit-policy'],
        rateStart: `"${policy}";r=`,
        allowed: this.o.metrics.decisionCell('allowed', policy),
        limited: this.o.metrics.decisionCell('rate_limited', policy),
      };
      // Bounded (a limit per key can take many values); past it a plan is built per key record, not shared.
      if (this.limitPlans.size < 10_000) this.limitPlans.set(k, plan);
    }
    return plan;
  }

  private refuseUnknown(): AccessDecision {
    this.o.metrics.decision('unknown_key', 'none');
    return DENY_UNKNOWN_KEY;
  }

  private refuseStoreUnavailable(): AccessDecision {
    this.o.metrics.decision('key_store_unavailable', 'none');
    return DENY_KEY_STORE_UNAVAILABLE;
  }
}
