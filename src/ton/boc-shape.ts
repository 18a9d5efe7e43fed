/**
 * The shape of a serialized bag of cells, read from its bytes without building any cell: how many
 * cells and roots it declares, and whether every length and reference index is in range. Why: @ton/core's
 * `Cell.fromBoc` trusts the header (it builds as many cells as declared, each hashed, before anything
 * else) and reads reference indexes unchecked (an index past the end fails deep inside it with "Cannot
 * read properties of undefined"). Reading the shape first costs one pass over at most 64 KiB and turns
 * both into a refusal in our words, before any work that grows with what the header claims.
 *
 * Layouts (crypto/tl/boc.tlb): `serialized_boc#b5ee9c72` (flags byte: has_idx, has_crc32c,
 * has_cache_bits, 2 flag bits, 3-bit size), and the two older indexed forms `#68ff65f3` and
 * `#acc3a728` (the latter with a CRC32C), which have one root and the size in a whole byte.
 */

export interface BocShape {
  cells: number;
  roots: number;
}

/**
 * Where everything of a well-formed bag is, read once: what `inspectBoc` checks and what the byte reader that
 * builds the cells (boc-reader.ts) needs, so the layout is walked by one function.
 */
export interface BocLayout {
  /** The common form (`b5ee9c72`); the two older forms are valid too, but only @ton/core reads them. */
  generic: boolean;
  /** Bytes per reference index. */
  size: number;
  cells: number;
  /** Root indexes (the older forms: `[0]`). */
  roots: number[];
  hasCrc: boolean;
  /** Where the cells' bytes end (the CRC32C follows when `hasCrc`). */
  dataEnd: number;
  /** Per cell: its descriptor bytes d1 and d2, and where its data starts (its references follow the data). */
  d1: Uint8Array;
  d2: Uint8Array;
  dataAt: Int32Array;
}

const GENERIC = 0xb5ee9c72;
const INDEXED = 0x68ff65f3;
const INDEXED_CRC = 0xacc3a728;

/** A big-endian number of `width` bytes at `at` (at most 8: exact up to 2^53, which no real length reaches). */
export function readBigEndian(bytes: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 256 + bytes[at + i];
  return value;
}

/** The declared counts when the bag is well formed, or the reason it is not. */
export function inspectBoc(bytes: Buffer): BocShape | string {
  const layout = readBocLayout(bytes);
  return typeof layout === 'string' ? layout : { cells: layout.cells, roots: layout.roots.length };
}

/** The bag's layout when it is well formed, or the reason it is not. */
export function readBocLayout(bytes: Uint8Array): BocLayout | string {
  if (bytes.length < 6) return 'too short for a BoC header';
  const magic = (bytes[0] * 2 ** 24 + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3]) >>> 0;
  let size: number;
  let hasIdx: boolean;
  let hasCrc: boolean;
  if (magic === GENERIC) {
    const flags = bytes[4];
    hasIdx = (flags & 0x80) !== 0;
    hasCrc = (flags & 0x40) !== 0;
    size = flags & 0x07;
  } else if (magic === INDEXED || magic === INDEXED_CRC) {
    hasIdx = true;
    hasCrc = magic === INDEXED_CRC;
    size = bytes[4];
  } else {
    return 'unknown magic (not a bag of cells)';
  }
  const offBytes = bytes[5];
  if (size < 1 || size > 4) return `reference size ${size} is not 1..4 bytes`;
  if (offBytes < 1 || offBytes > 8) return `offset size ${offBytes} is not 1..8 bytes`;

  let at = 6;
  if (at + 3 * size + offBytes > bytes.length) return 'header is cut short';
  const cells = readBigEndian(bytes, at, size);
  const rootCount = readBigEndian(bytes, at + size, size);
  const absent = readBigEndian(bytes, at + 2 * size, size);
  const totalSize = readBigEndian(bytes, at + 3 * size, offBytes);
  at += 3 * size + offBytes;
  if (cells === 0) return 'it declares no cells';
  if (rootCount === 0 || rootCount > cells) return `it declares ${rootCount} roots for ${cells} cells`;
  if (absent !== 0) return 'absent cells are not supported';

  const roots: number[] = [];
  if (magic === GENERIC) {
    for (let i = 0; i < rootCount; i++, at += size) {
      if (at + size > bytes.length) return 'root list is cut short';
      const root = readBigEndian(bytes, at, size);
      if (root >= cells) return `root index ${root} is beyond its ${cells} cells`;
      roots.push(root);
    }
  } else if (rootCount !== 1) {
    return `this BoC form has one root, it declares ${rootCount}`;
  } else {
    roots.push(0);
  }
  const needed = (hasIdx ? cells * offBytes : 0) + totalSize + (hasCrc ? 4 : 0);
  if (needed > bytes.length - at) return `it declares ${needed} bytes of cells, ${bytes.length - at} follow the header`;
  if (hasIdx) at += cells * offBytes;
  const end = at + totalSize;
  // Sized by the bytes, not by the header's claim: every cell takes at least its two descriptor bytes, so a
  // header claiming more cells fails in the walk below before it reaches the end of these.
  const capacity = Math.min(cells, Math.floor(totalSize / 2));
  const d1s = new Uint8Array(capacity);
  const d2s = new Uint8Array(capacity);
  const dataAt = new Int32Array(capacity);
  for (let cell = 0; cell < cells; cell++) {
    if (at + 2 > end) return `it declares ${cells} cells, its data ends at cell ${cell}`;
    const d1 = bytes[at];
    const d2 = bytes[at + 1];
    at += 2;
    const refs = d1 & 7;
    if (refs > 4) return `cell ${cell} declares ${refs} references (at most 4)`;
    if (d1 & 16) at += hashCount(d1 >> 5) * (32 + 2);
    d1s[cell] = d1;
    d2s[cell] = d2;
    dataAt[cell] = at;
    at += Math.ceil(d2 / 2);
    if (at + refs * size > end) return `cell ${cell} is cut short`;
    for (let r = 0; r < refs; r++, at += size) {
      const ref = readBigEndian(bytes, at, size);
      if (ref <= cell || ref >= cells) return `cell ${cell} refers to cell ${ref} (a cell refers only to later cells of the ${cells})`;
    }
  }
  return { generic: magic === GENERIC, size, cells, roots, hasCrc, dataEnd: end, d1: d1s, d2: d2s, dataAt };
}

/** Hashes stored with a cell whose level mask is `mask`: one per level present, plus the representation hash. */
function hashCount(mask: number): number {
  return 1 + (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}
