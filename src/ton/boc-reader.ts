/**
 * @ton/core's `deserializeBoc` (what `Cell.fromBoc` / `Cell.fromBase64` call), read byte by byte: the same cells
 * from the same bytes, installed by core-speedups.ts.
 *
 * Why: every thread parses BoCs all the time (a stored account state, a get-method's answer, a block), and
 * @ton/core reads each header field, descriptor and reference index through a BitReader over a BitString, with
 * an object per cell spread into another: for a 712-byte account state of 22 cells, ~68 µs, a third of it in
 * that reading and much of the rest in the garbage it leaves (the Cell objects and their hashes cost the same
 * either way). A BoC's header and cell descriptors are whole bytes, so here they are read as bytes.
 *
 * Only the common form is read here: magic `b5ee9c72`, well formed. Anything else (the two legacy magics, a
 * truncated or inconsistent BoC, a reference that does not point forward, bad padding) goes to @ton/core's own
 * reader, which then accepts or throws exactly as it always did. Cells keep their data as a view of `src`,
 * as @ton/core's do.
 */
import { BitString, Cell } from '@ton/core';
import { crc32cTable } from './crc32c.js';

const GENERIC_MAGIC = 0xb5ee9c72;

/** A number of `bytes` big-endian bytes at `at` (at most 6: a BoC's sizes are 1-4 bytes, offsets up to 8). */
function readBE(src: Uint8Array, at: number, bytes: number): number {
  let value = 0;
  for (let i = 0; i < bytes; i++) value = value * 256 + src[at + i];
  return value;
}

/** Hash and depth slots a cell with this level mask stores when its descriptor says it carries them. */
function storedHashes(levelMask: number): number {
  return 1 + (levelMask & 1) + ((levelMask >> 1) & 1) + ((levelMask >> 2) & 1);
}

/** The cells of `src`, or undefined when it is not a well-formed BoC of the common form (the caller falls back). */
export function readBocBytes(src: Buffer): Cell[] | undefined {
  const length = src.length;
  if (length < 6 || src.readUInt32BE(0) !== GENERIC_MAGIC) return undefined;
  const flags = src[4];
  const hasIdx = (flags & 0x80) !== 0;
  const hasCrc32c = (flags & 0x40) !== 0;
  const size = flags & 7;
  const offBytes = src[5];
  if (size === 0 || size > 4 || offBytes === 0 || offBytes > 6) return undefined;
  let at = 6;
  if (at + 3 * size + offBytes > length) return undefined;
  const cellCount = readBE(src, at, size);
  const rootCount = readBE(src, at + size, size);
  at += 3 * size; // cells, roots, absent (@ton/core does not use absent)
  const totalCellSize = readBE(src, at, offBytes);
  at += offBytes;
  if (at + rootCount * size > length) return undefined;
  const roots: number[] = [];
  for (let i = 0; i < rootCount; i++, at += size) roots.push(readBE(src, at, size));
  if (hasIdx) at += cellCount * offBytes;
  const dataStart = at;
  const dataEnd = dataStart + totalCellSize;
  if (dataEnd + (hasCrc32c ? 4 : 0) > length || cellCount * 2 > totalCellSize) return undefined;
  if (hasCrc32c && !crc32cTable(src.subarray(0, length - 4)).equals(src.subarray(dataEnd, dataEnd + 4))) return undefined;

  const bits: BitString[] = new Array(cellCount);
  const exotic: boolean[] = new Array(cellCount);
  /** refs of cell i: refIndex[refStart[i] .. refStart[i + 1]). */
  const refStart = new Int32Array(cellCount + 1);
  const refIndex: number[] = [];
  let p = dataStart;
  for (let i = 0; i < cellCount; i++) {
    if (p + 2 > dataEnd) return undefined;
    const d1 = src[p];
    const d2 = src[p + 1];
    p += 2;
    const refsCount = d1 & 7;
    if (refsCount > 4) return undefined;
    if (d1 & 16) p += storedHashes(d1 >> 5) * (32 + 2);
    const dataBytes = Math.ceil(d2 / 2);
    if (p + dataBytes + refsCount * size > dataEnd) return undefined;
    if (dataBytes === 0) {
      bits[i] = BitString.EMPTY;
    } else if (d2 % 2 === 1) {
      // The last byte is completed by a 1 and zeros: the data ends before that 1.
      const last = src[p + dataBytes - 1];
      if (last === 0) return undefined;
      bits[i] = new BitString(src, p * 8, dataBytes * 8 - (31 - Math.clz32(last & -last)) - 1);
    } else {
      bits[i] = new BitString(src, p * 8, dataBytes * 8);
    }
    exotic[i] = (d1 & 8) !== 0;
    p += dataBytes;
    refStart[i] = refIndex.length;
    for (let r = 0; r < refsCount; r++, p += size) refIndex.push(readBE(src, p, size));
  }
  refStart[cellCount] = refIndex.length;

  // References point forward (a cell after the one that holds them): built from the last cell to the first.
  const cells: Cell[] = new Array(cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const refs: Cell[] = [];
    for (let k = refStart[i]; k < refStart[i + 1]; k++) {
      const r = refIndex[k];
      if (r <= i || r >= cellCount) return undefined;
      refs.push(cells[r]);
    }
    cells[i] = new Cell({ bits: bits[i], refs, exotic: exotic[i] });
  }
  const result: Cell[] = [];
  for (const root of roots) {
    if (root >= cellCount) return undefined;
    result.push(cells[root]);
  }
  return result;
}
