/** v2's response envelopes, as toncenter's C++ server writes them (never an `error` key on success). */
import type { JsonText } from '../json-text.js';

/** `@extra`: "<unix time>:<worker>:<elapsed seconds>"; clients ignore it, the published schema requires it. */
export function extra(startedAtMs: number, nowMs: number): string {
  return `${Math.floor(nowMs / 1000)}:0:${((nowMs - startedAtMs) / 1000).toFixed(6)}`;
}

export function okEnvelope(result: unknown, atExtra: string): Record<string, unknown> {
  return { ok: true, result, '@extra': atExtra };
}

/**
 * `okEnvelope` written around a result already serialized (and, for JSON-RPC, `"jsonrpc":"2.0"` and the id): the
 * same bytes JSON.stringify writes for the object, without parsing or serializing the result again.
 */
export function okEnvelopeText(result: JsonText, atExtra: string, rpc?: { id: string | undefined }): string {
  const head = `{"ok":true,"result":${result.text},"@extra":${JSON.stringify(atExtra)}`;
  if (rpc === undefined) return `${head}}`;
  return rpc.id === undefined ? `${head},"jsonrpc":"2.0"}` : `${head},"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)}}`;
}

export function errorEnvelope(code: number, error: string, atExtra?: string): Record<string, unknown> {
  return atExtra === undefined ? { ok: false, error, code } : { ok: false, error, code, '@extra': atExtra };
}
