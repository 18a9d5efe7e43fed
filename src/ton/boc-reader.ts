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
 * reader, which then accepts or throws exactly as it always did. The layout (every length and reference in range)
 * is read by boc-shape.ts, the walk that also checks a client's BoC before anything is built. Cells keep their
 * data as a view of `src`, as @ton/core's do.
 */
import { BitString, Cell } from '@ton/core';
import { readBigEndian, readBocLayout } from './boc-shape.js';
import { crc32cTable } from './crc32c.js';

/** The cells of `src`, or undefined when it is not a well-formed BoC of the common form (the caller falls back). */
export function readBocBytes(src: Buffer): Cell[] | undefined {
  const layout = readBocLayout(src);
  if (typeof layout === 'string' || !layout.generic) return undefined;
  const { size, cells: cellCount, roots, hasCrc, dataEnd, d1, d2, dataAt } = layout;
  if (hasCrc && !crc32cTable(src.subarray(0, src.length - 4)).equals(src.subarray(dataEnd, dataEnd + 4))) return undefined;

  // References point forward (the layout checked it): built from the last cell to the first.
  const cells: Cell[] = new Array(cellCount);
  for (let i = cellCount - 1; i >= 0; i--) {
    const at = dataAt[i];
    const dataBytes = Math.ceil(d2[i] / 2);
    let bits: BitString;
    if (dataBytes === 0) {
      bits = BitString.EMPTY;
    } else if (d2[i] % 2 === 1) {
      // The last byte is completed by a 1 and zeros: the data ends before that 1.
      const last = src[at + dataBytes - 1];
      if (last === 0) return undefined;
      bits = new BitString(src, at * 8, dataBytes * 8 - (31 - Math.clz32(last & -last)) - 1);
    } else {
      bits = new BitString(src, at * 8, dataBytes * 8);
    }
    const refs: Cell[] = [];
    for (let r = 0, refAt = at + dataBytes; r < (d1[i] & 7); r++, refAt += size) refs.push(cells[readBigEndian(src, refAt, size)]);
    cells[i] = new Cell({ bits, refs, exotic: (d1[i] & 8) !== 0 });
  }
  return roots.map((root) => cells[root]);
}
