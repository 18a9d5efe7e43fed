/**
 * Content codings between the client, tongate and the upstream. The client's Accept-Encoding is forwarded
 * reduced to the codings tongate can itself decode (node:zlib: br, gzip, deflate), in one spelling, so the
 * upstream's encoded bytes pass through unchanged and the cache and single flight key on what was asked
 * rather than on how it was written. tongate decodes a body only when it must look inside: an error it
 * rewrites into the version's shape, the "is it JSON" check of a 2xx, a read about to be cached.
 */
import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions, type BrotliOptions } from 'node:zlib';

/** In the order tongate lists them to the upstream. */
const CODINGS = ['br', 'gzip', 'deflate'] as const;
/** What the upstream is asked for when the client accepts none of them: the bytes as they are. */
export const IDENTITY = 'identity';

const spelled = new Map<string, string>();
/** Distinct Accept-Encoding spellings remembered (clients send the same few over and over). */
const SPELLINGS_KEPT = 64;

/**
 * The codings of `header` that tongate can decode, as `br, gzip` (fixed order), or `identity`. A coding
 * with q=0 is refused; `*` accepts those not named; `x-gzip` is gzip (RFC 9110 8.4.1.3).
 */
export function acceptedCodings(header: string | string[] | undefined): string {
  if (header === undefined || header === '') return IDENTITY;
  const text = Array.isArray(header) ? header.join(',') : header;
  const known = spelled.get(text);
  if (known !== undefined) return known;
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [rawName, ...params] = part.split(';');
    let name = rawName.trim().toLowerCase();
    if (name === 'x-gzip') name = 'gzip';
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value?.trim());
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const any = weights.get('*') ?? 0;
  const accepted = CODINGS.filter((coding) => (weights.get(coding) ?? any) > 0);
  const result = accepted.length === 0 ? IDENTITY : accepted.join(', ');
  if (spelled.size < SPELLINGS_KEPT) spelled.set(text, result);
  return result;
}

/** The response's content coding when it is one tongate decodes ('' for none), else undefined. */
export function contentCoding(header: string | string[] | undefined): 'br' | 'gzip' | 'deflate' | '' | undefined {
  if (header === undefined) return '';
  const value = (Array.isArray(header) ? header.join(',') : header).trim().toLowerCase();
  if (value === '' || value === IDENTITY) return '';
  if (value === 'x-gzip') return 'gzip';
  return (CODINGS as readonly string[]).includes(value) ? (value as 'br' | 'gzip' | 'deflate') : undefined;
}

const ZLIB_PARTIAL: ZlibOptions = { finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_PARTIAL: BrotliOptions = { finishFlush: constants.BROTLI_OPERATION_FLUSH };

/**
 * `body` decoded from `coding` ('' : as it is), at most `maxBytes` of output; `partial` accepts a body cut
 * short (the first bytes of a stream, an error body read only so far). Undefined when it cannot be decoded
 * (not that coding, or more than `maxBytes`).
 */
export function decoded(body: Buffer, coding: 'br' | 'gzip' | 'deflate' | '', maxBytes: number, partial = false): Buffer | undefined {
  if (coding === '') return body;
  try {
    if (coding === 'br') return brotliDecompressSync(body, { ...(partial ? BROTLI_PARTIAL : {}), maxOutputLength: maxBytes });
    const options = { ...(partial ? ZLIB_PARTIAL : {}), maxOutputLength: maxBytes };
    if (coding === 'gzip') return gunzipSync(body, options);
    // "deflate" is zlib-wrapped by the RFC, but some servers send raw deflate.
    try {
      return inflateSync(body, options);
    } catch {
      return inflateRawSync(body, options);
    }
  } catch {
    return undefined;
  }
}
