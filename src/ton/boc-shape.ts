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

const GENERIC = 0xb5ee9c72;
const INDEXED = 0x68ff65f3;
const INDEXED_CRC = 0xacc3a728;

/** The declared counts when the bag is well formed, or the reason it is not. */
export function inspectBoc(bytes: Buffer): BocShape | string {
  if (bytes.length < 6) return 'too short for a BoC header';
  const magic = bytes.readUInt32BE(0);
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
  const read = (width: number): number | undefined => {
    if (at + width > bytes.length) return undefined;
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + bytes[at + i];
    at += width;
    return value;
  };
  const cells = read(size);
  const roots = read(size);
  const absent = read(size);
  const totalSize = read(offBytes);
  if (cells === undefined || roots === undefined || absent === undefined || totalSize === undefined) return 'header is cut short';
  if (cells === 0) return 'it declares no cells';
  if (roots === 0 || roots > cells) return `it declares ${roots} roots for ${cells} cells`;
  if (absent !== 0) return 'absent cells are not supported';

  if (magic === GENERIC) {
    for (let i = 0; i < roots; i++) {
      const root = read(size);
      if (root === undefined) return 'root list is cut short';
      if (root >= cells) return `root index ${root} is beyond its ${cells} cells`;
    }
  } else if (roots !== 1) {
    return `this BoC form has one root, it declares ${roots}`;
  }
  const needed = (hasIdx ? cells * offBytes : 0) + totalSize + (hasCrc ? 4 : 0);
  if (needed > bytes.length - at) return `it declares ${needed} bytes of cells, ${bytes.length - at} follow the header`;
  if (hasIdx) at += cells * offBytes;
  const end = at + totalSize;

  for (let cell = 0; cell < cells; cell++) {
    if (at + 2 > end) return `it declares ${cells} cells, its data ends at cell ${cell}`;
    const d1 = bytes[at];
    const d2 = bytes[at + 1];
    at += 2;
    const refs = d1 & 7;
    if (refs > 4) return `cell ${cell} declares ${refs} references (at most 4)`;
    if (d1 & 16) at += hashCount(d1 >> 5) * (32 + 2);
    at += Math.ceil(d2 / 2);
    for (let r = 0; r < refs; r++) {
      if (at + size > end) return `cell ${cell} is cut short`;
      const ref = read(size)!;
      if (ref <= cell || ref >= cells) return `cell ${cell} refers to cell ${ref} (a cell refers only to later cells of the ${cells})`;
    }
    if (at > end) return `cell ${cell} is cut short`;
  }
  return { cells, roots };
}

/** Hashes stored with a cell whose level mask is `mask`: one per level present, plus the representation hash. */
function hashCount(mask: number): number {
  return 1 + (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}
