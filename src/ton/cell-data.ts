/**
 * A cell's own data bits as bytes, the way tonlib-era tools write them: ceil(bits / 8) bytes, the
 * unused low bits of the last byte zero (no completion tag).
 */
import type { Cell } from '@ton/core';

export function cellDataBytes(cell: Cell): Buffer {
  const bits = cell.bits;
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) {
    if (bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  }
  return out;
}
