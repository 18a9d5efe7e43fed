/**
 * The one answer the access layer gives per request, and the exact refusal bodies.
 * Bodies follow toncenter's v2 envelope on both API versions (DESIGN.md), HTTP status = code.
 */

export type RefusalStatus = 401 | 403 | 429 | 503;

export interface RefusalBody {
  ok: false;
  error: string;
  code: RefusalStatus;
}

export type AccessDecision =
  | {
      allowed: true;
      headers: Record<string, string>;
      /** RateLimit-Policy and RateLimit when the decision names a limit (an `Admission`): the HTTP hook sets them by name. */
      rateLimitPolicy?: string;
      rateLimit?: string;
      keyId?: string;
      /** The instant the admission was decided at (ms, the access layer's clock): the usage counts' minute. */
      at?: number;
      /** The key's cap on parallel streams, when it (or its account) sets one. */ streamConnections?: number | null;
      /** The key's cap on addresses per stream, when it (or its account) sets one. */ streamAddresses?: number | null;
    }
  | { allowed: false; status: RefusalStatus; body: RefusalBody; headers: Record<string, string>; keyId?: string };

/**
 * A request admitted under a limit: the two RateLimit values as fields. The HTTP hook sets them by name, so the
 * `headers` object is built only for a caller that reads it (the streams' admission, tests), not per request.
 */
export class Admission {
  readonly allowed = true;
  constructor(
    readonly rateLimitPolicy: string,
    readonly rateLimit: string,
    readonly keyId: string | undefined,
    readonly streamConnections: number | undefined,
    readonly streamAddresses: number | undefined,
    readonly at: number,
  ) {}

  get headers(): Record<string, string> {
    return { 'ratelimit-policy': this.rateLimitPolicy, ratelimit: this.rateLimit };
  }
}

export type RefusalReason = 'unknown_key' | 'wrong_network' | 'rate_limited' | 'key_store_unavailable' | 'limiter_unavailable';

const MESSAGES: Record<RefusalReason, [RefusalStatus, string]> = {
  unknown_key: [401, 'API key does not exist'],
  wrong_network: [403, 'Network not allowed'],
  rate_limited: [429, 'Ratelimit exceeded'],
  key_store_unavailable: [503, 'API key store unavailable, retry later'],
  limiter_unavailable: [503, 'Rate limiter unavailable, retry later'],
};

export function refusalBody(reason: RefusalReason): RefusalBody {
  const [code, error] = MESSAGES[reason];
  return { ok: false, error, code };
}

/**
 * Decisions that carry nothing request-specific are built once and shared; callers must not mutate them.
 * (Fastify copies header values onto the reply, it never keeps the object.)
 */
export const ALLOW_UNLIMITED: AccessDecision = Object.freeze({ allowed: true, headers: Object.freeze({}) as Record<string, string> });
export const DENY_UNKNOWN_KEY: AccessDecision = refusal('unknown_key', {});
export const DENY_WRONG_NETWORK: AccessDecision = refusal('wrong_network', {});
export const DENY_KEY_STORE_UNAVAILABLE: AccessDecision = refusal('key_store_unavailable', { 'retry-after': '1' });
export const DENY_LIMITER_UNAVAILABLE: AccessDecision = refusal('limiter_unavailable', { 'retry-after': '1' });

function refusal(reason: RefusalReason, headers: Record<string, string>): AccessDecision {
  const body = refusalBody(reason);
  return Object.freeze({
    allowed: false,
    status: body.code,
    body: Object.freeze(body) as RefusalBody,
    headers: Object.freeze(headers) as Record<string, string>,
  });
}

/** Which limit applied: named in the RateLimit headers (never the key itself, see the IETF draft's advice on `pk`). */
export type PolicyName = 'key' | 'account' | 'ip';

/**
 * IETF draft-ietf-httpapi-ratelimit-headers (structured fields):
 *   RateLimit-Policy: "key";q=10;w=1     quota q per window of w seconds
 *   RateLimit: "key";r=9;t=1             r remaining now, t seconds until quota comes back
 * Retry-After (RFC 9110) on 429: whole seconds, at least 1, never earlier than t.
 */
export function limitHeaders(
  policy: PolicyName,
  limit: number,
  windowMs: number,
  remaining: number,
  resetMs: number,
): Record<string, string> {
  return {
    'ratelimit-policy': policyHeader(policy, limit, windowMs),
    ratelimit: `"${policy}";r=${remaining};t=${resetSeconds(resetMs)}`,
  };
}

/** RateLimit's `t`: whole seconds until quota comes back (0 when it is there now). */
export function resetSeconds(resetMs: number): number {
  return wholeSeconds(resetMs, 0);
}

export function retryAfterSeconds(retryAfterMs: number): number {
  return wholeSeconds(retryAfterMs, 1);
}

function wholeSeconds(ms: number, min: number): number {
  return Math.max(min, Math.ceil(ms / 1000));
}

// The policy header only depends on (policy, limit, window): remember the strings.
const policyCache = new Map<string, string>();
function policyHeader(policy: PolicyName, limit: number, windowMs: number): string {
  const k = `${policy}/${limit}/${windowMs}`;
  let v = policyCache.get(k);
  if (v === undefined) {
    v = `"${policy}";q=${limit};w=${wholeSeconds(windowMs, 1)}`;
    if (policyCache.size < 10_000) policyCache.set(k, v);
  }
  return v;
}
