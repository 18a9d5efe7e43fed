/** v2's response envelopes, as toncenter's C++ server writes them (never an `error` key on success). */

/** `@extra`: "<unix time>:<worker>:<elapsed seconds>"; clients ignore it, the published schema requires it. */
export function extra(startedAtMs: number, nowMs: number): string {
  return `${Math.floor(nowMs / 1000)}:0:${((nowMs - startedAtMs) / 1000).toFixed(6)}`;
}

export function okEnvelope(result: unknown, atExtra: string): Record<string, unknown> {
  return { ok: true, result, '@extra': atExtra };
}

export function errorEnvelope(code: number, error: string, atExtra?: string): Record<string, unknown> {
  return atExtra === undefined ? { ok: false, error, code } : { ok: false, error, code, '@extra': atExtra };
}
