/**
 * Values about to cross threads (postMessage). A message carries a byte array's entire underlying buffer, not only
 * the bytes its view shows: a small Buffer is a view into Node's shared 8 KiB pool, a decoded liteserver answer's
 * fields are views into the whole answer (~600 KB for 16 block links). Sending such views copies all of it per
 * message (it made sending one block link cost ~1.5 ms, one pending transaction's BoC ~45 µs), so what crosses is
 * copied out to buffers of its own size first.
 */

/** The view's bytes in a buffer of their own (the view itself when it already spans its whole buffer). */
export function compactBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const copy = new Uint8Array(bytes.byteLength); // its own buffer (Buffer.from would share a pool slab)
  copy.set(bytes);
  return copy;
}

/** A value with every byte array in it compacted (arrays and plain objects walked). */
export function compactBuffers<T>(value: T): T {
  if (value instanceof Uint8Array) return compactBytes(value) as T;
  if (Array.isArray(value)) return value.map(compactBuffers) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = compactBuffers(v);
    return out as T;
  }
  return value;
}
