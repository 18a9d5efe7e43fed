/** Why a metadata URI gave no JSON; `retryable` failures may pass on a later attempt (a 5xx, a timeout). */
export type FetchFailureKind =
  'unsupported-uri' | 'refused-address' | 'timeout' | 'network' | 'http-status' | 'too-many-redirects' | 'too-large' | 'not-json';

export class MetadataFetchError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    readonly retryable = false,
    /** The host's `Retry-After` header as sent (delay-seconds or an HTTP-date), for the retry schedule. */
    readonly retryAfter?: string,
  ) {
    super(message);
    this.name = 'MetadataFetchError';
  }
}

/** Thrown by the guarded DNS lookup; found again in the cause chain of undici's connect error. */
export class RefusedAddressError extends MetadataFetchError {
  constructor(host: string, address: string, reason: string) {
    super('refused-address', `${host} resolves to ${address}, a ${reason} address (allowed only with --fetch-metadata-allow-private)`);
  }
}

/**
 * Connection failures that may pass on a later attempt; a name that does not exist or a bad certificate will not.
 * Read by fetch-json.ts, and by migration 9 to tell which failures stored before it were transient.
 */
export const PASSING = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
