/**
 * Why a forwarded request got no upstream answer, as the status tongate answers with: 504 when the
 * upstream took longer than the request's timeout, 502 when it was unreachable, reset the connection or
 * failed (its 5xx, with its message kept), 503 when it (or tongate's budget for it) asks to come back later.
 * The message never holds the upstream key: it is built from statuses, error codes and upstream bodies only.
 */
export type FailureKind =
  | 'timeout'
  | 'unreachable'
  | 'reset'
  | 'upstream-error'
  | 'rate-limited'
  | 'invalid'
  | 'too-large'
  | 'budget'
  | 'refused-key'
  | 'no-upstream';

export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 503 | 504,
    readonly kind: FailureKind,
    message: string,
    /** Seconds, for 503s: when to come back. */
    readonly retryAfter?: number,
    /** The request provably never reached the upstream (refused connection), so even a write may go elsewhere. */
    readonly notSent = false,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }

  /** Worth another attempt (for reads): the upstream failed, not the request. */
  get transient(): boolean {
    return this.kind !== 'too-large' && this.kind !== 'budget' && this.kind !== 'refused-key' && this.kind !== 'no-upstream';
  }
}

/** A transport error of undici turned into a failure. */
export function transportFailure(error: unknown, timedOut: boolean): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (timedOut) return new UpstreamFailure(504, 'timeout', 'upstream did not answer in time');
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new UpstreamFailure(502, 'unreachable', `upstream unreachable (${code})`, undefined, true);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new UpstreamFailure(502, 'unreachable', 'upstream unreachable (connect timeout)', undefined, true);
  return new UpstreamFailure(502, 'reset', `upstream connection failed (${code || (error as Error)?.name || 'error'})`);
}

/** The error text of an upstream error body: toncenter's `error` field when it is JSON, else the text, cut short. */
export function upstreamMessage(body: Buffer, status: number): string {
  const text = body.toString('utf8').trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; detail?: unknown };
    if (typeof parsed?.error === 'string' && parsed.error !== '') return parsed.error;
    if (typeof parsed?.detail === 'string' && parsed.detail !== '') return parsed.detail;
  } catch {
    /* not JSON: the text itself */
  }
  return text === '' ? `upstream answered ${status}` : text.slice(0, 300);
}
