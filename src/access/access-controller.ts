/**
 * The rules, in the order a request meets them (issue 3, spec 000):
 *   1. key = header X-API-Key, else query api_key (the HTTP hook extracts it; empty = none);
 *   2. unknown, revoked or expired key -> 401 "API key does not exist";
 *   3. key of another network -> 403 "Network not allowed";
 *   4. no key -> 1 request/s per client address (IPv6 /64) per network;
 *   5. a key -> its own limit, or its account's shared limit on that network when the account has one;
 *   6. over the limit -> 429 "Ratelimit exceeded" + Retry-After; RateLimit-Policy/RateLimit on every limited response.
 * With the embedded stores every step is synchronous: a decision is a hash, two Map reads and a ring
 * buffer update, with no promise. Promises appear only for a key-cache miss on PostgreSQL and for Redis.
 */
import type { Clock } from '../util/clock.js';
import { clientIdentity } from './client-ip.js';
import {
  DENY_KEY_STORE_UNAVAILABLE,
  DENY_LIMITER_UNAVAILABLE,
  DENY_UNKNOWN_KEY,
  DENY_WRONG_NETWORK,
  limitHeaders,
  refusalBody,
  retryAfterSeconds,
  type AccessDecision,
  type PolicyName,
} from './decision.js';
import type { KeyDirectory } from './keys/key-directory.js';
import { KeyHashMemo, MAX_KEY_LENGTH } from './keys/key-material.js';
import type { KeyRecord } from './keys/key-store.js';
import type { LimitResult, Limiter } from './limiter/limiter.js';
import type { AccessMetrics } from './metrics.js';

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

/** A key's stream caps as a decision carries them: only those it (or its account) sets. */
type StreamCaps = { streamConnections?: number; streamAddresses?: number };
const streamCaps = (record: KeyRecord): StreamCaps => ({
  ...(record.streamConnections === null ? {} : { streamConnections: record.streamConnections }),
  ...(record.streamAddresses === null ? {} : { streamAddresses: record.streamAddresses }),
});

export class AccessController {
  private readonly hashes = new KeyHashMemo();

  constructor(private readonly o: AccessControllerOptions) {}

  check(req: AccessRequest): AccessDecision | Promise<AccessDecision> {
    const raw = req.key;
    if (raw === undefined || raw === '') {
      return this.limit(`ip:${req.network}:${clientIdentity(req.clientIp)}`, this.o.anonymousRps, 'ip', undefined);
    }
    // Longer than any key we accept: unknown without touching the cache (a flood of huge values stays cheap).
    if (raw.length > MAX_KEY_LENGTH) return this.refuseUnknown();
    let found: KeyRecord | null | Promise<KeyRecord | null>;
    try {
      found = this.o.directory.lookup(this.hashes.hash(raw));
    } catch {
      return this.refuseStoreUnavailable();
    }
    if (found instanceof Promise) {
      return found.then(
        (record) => this.withKey(req, record),
        () => this.refuseStoreUnavailable(),
      );
    }
    return this.withKey(req, found);
  }

  private withKey(req: AccessRequest, record: KeyRecord | null): AccessDecision | Promise<AccessDecision> {
    if (record === null || (record.expiresAt !== null && record.expiresAt <= this.o.clock.now())) return this.refuseUnknown();
    if (record.network !== req.network) {
      this.o.metrics.decision('wrong_network', 'none');
      return { ...DENY_WRONG_NETWORK, keyId: record.id };
    }
    if (record.accountRps !== null && record.account !== null) {
      return this.limit(`a:${record.network}:${record.account}`, record.accountRps, 'account', record.id, streamCaps(record));
    }
    return this.limit(`k:${record.id}`, record.rps, 'key', record.id, streamCaps(record));
  }

  private limit(
    identity: string,
    limit: number,
    policy: PolicyName,
    keyId: string | undefined,
    streams: StreamCaps = {},
  ): AccessDecision | Promise<AccessDecision> {
    const result = this.o.limiter.consume(identity, limit);
    if (result instanceof Promise) return result.then((r) => this.decide(r, policy, keyId, streams));
    return this.decide(result, policy, keyId, streams);
  }

  private decide(result: LimitResult | null, policy: PolicyName, keyId: string | undefined, streams: StreamCaps = {}): AccessDecision {
    if (result === null) {
      this.o.metrics.decision('limiter_unavailable', policy);
      return DENY_LIMITER_UNAVAILABLE;
    }
    const headers = limitHeaders(policy, result.limit, this.o.limiter.windowMs, result.remaining, result.resetMs);
    if (result.allowed) {
      this.o.metrics.decision('allowed', policy);
      return { allowed: true, headers, keyId, ...streams };
    }
    this.o.metrics.decision('rate_limited', policy);
    headers['retry-after'] = String(retryAfterSeconds(result.resetMs));
    return { allowed: false, status: 429, body: RATE_LIMITED_BODY, headers, keyId };
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
