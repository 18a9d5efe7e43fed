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
import { rateLimitValues, type RateLimitValues } from './rate-limit-values.js';
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
}

/** A policy and its limit: the RateLimit-Policy value and the counts its decisions bump. */
interface LimitPlan {
  policy: PolicyName;
  limit: number;
  policyHeader: string;
  /** The RateLimit values of its policy, remembered (rate-limit-values.ts). */
  rates: RateLimitValues;
  allowed: CountCell;
  limited: CountCell;
}

export class AccessController {
  private readonly hashes = new KeyHashMemo();
  private readonly plans = new WeakMap<KeyRecord, KeyPlan>();
  private readonly limitPlans = new Map<string, LimitPlan>();
  private readonly anonymous: LimitPlan;

  constructor(private readonly o: AccessControllerOptions) {
    this.anonymous = this.limitPlan('ip', o.anonymousRps);
  }

  check(req: AccessRequest): AccessDecision | Promise<AccessDecision> {
    const raw = req.key;
    if (raw === undefined || raw === '') {
      return this.limit(`ip:${req.network}:${clientIdentity(req.clientIp)}`, this.anonymous, undefined, this.o.clock.now());
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
        (record) => this.withKey(req, record, this.o.clock.now()),
        () => this.refuseStoreUnavailable(),
      );
    }
    return this.withKey(req, found, now);
  }

  private withKey(req: AccessRequest, record: KeyRecord | null, now: number): AccessDecision | Promise<AccessDecision> {
    if (record === null || (record.expiresAt !== null && record.expiresAt <= now)) return this.refuseUnknown();
    if (record.network !== req.network) {
      this.o.metrics.decision('wrong_network', 'none');
      return { ...DENY_WRONG_NETWORK, keyId: record.id };
    }
    let plan = this.plans.get(record);
    if (plan === undefined) this.plans.set(record, (plan = this.keyPlan(record)));
    return this.limit(plan.identity, plan.limits, plan, now);
  }

  private limit(identity: string, plan: LimitPlan, key: KeyPlan | undefined, now: number): AccessDecision | Promise<AccessDecision> {
    const result = this.o.limiter.consume(identity, plan.limit, now);
    if (result instanceof Promise) return result.then((r) => this.decide(r, plan, key, now));
    return this.decide(result, plan, key, now);
  }

  /** `now`: the instant the decision was asked at (a limiter that keeps its own time decided at its own). */
  private decide(result: LimitResult | null, plan: LimitPlan, key: KeyPlan | undefined, now: number): AccessDecision {
    if (result === null) {
      this.o.metrics.decision('limiter_unavailable', plan.policy);
      return DENY_LIMITER_UNAVAILABLE;
    }
    // The headers name the limit the limiter applied; the prepared policy header is that of the limit it was asked for.
    if (result.allowed && result.limit === plan.limit) {
      plan.allowed.n++;
      const rate = plan.rates.value(result.remaining, resetSeconds(result.resetMs));
      return key === undefined
        ? new Admission(plan.policyHeader, rate, undefined, undefined, undefined, now)
        : new Admission(plan.policyHeader, rate, key.keyId, key.streamConnections, key.streamAddresses, now);
    }
    const headers: Record<string, string> =
      result.limit === plan.limit
        ? { 'ratelimit-policy': plan.policyHeader, ratelimit: plan.rates.value(result.remaining, resetSeconds(result.resetMs)) }
        : limitHeaders(plan.policy, result.limit, this.o.limiter.windowMs, result.remaining, result.resetMs);
    if (result.allowed) {
      plan.allowed.n++;
      const rate = headers.ratelimit;
      return new Admission(headers['ratelimit-policy'], rate, key?.keyId, key?.streamConnections, key?.streamAddresses, now);
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
        rates: rateLimitValues(policy),
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
