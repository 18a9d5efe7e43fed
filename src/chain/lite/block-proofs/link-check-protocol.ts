/** What the link-checking thread and its owner say to each other (link-checker.ts, link-check-worker.ts). */
import type { ForwardLink } from './proof-tl.js';
import type { CheckedLink } from './links.js';

export interface LinkCheckRequest {
  id: number;
  link: ForwardLink;
}

export type LinkCheckAnswer =
  | { id: number; ok: true; checked: CheckedLink & { signedWeight: bigint } }
  /** `refused`: the link does not check out (a LiteDataError); otherwise the check itself failed (a bug). */
  | { id: number; ok: false; message: string; refused: boolean };

/**
 * A value that crossed threads, with its byte arrays made Buffers again (a message carries a Buffer as a plain
 * Uint8Array; the cell and TL readers want Buffers).
 */
export function asBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(asBuffers);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = asBuffers(v);
    return out;
  }
  return value;
}
