/**
 * @ton/core's `serializeBoc`, exactly, byte-wise (core-speedups.ts installs it as every `toBoc()`): the same
 * topological order (the cells met breadth-first from the root, then a depth-first walk taking each cell's
 * references last first, reversed), the same header and cell encoding. Root only, as @ton/core writes (one root, no
 * cache bits).
 *
 * The order depends on nothing but which cells are the same cell: @ton/core tells them apart by their hashes
 * (`byHash`), so equal subtrees are written once. A tree whose equal cells are already one object each (`byIdentity`)
 * gives the same bytes without a hash read: the cells of one BoC written by a serializer that merges equal cells
 * (TON's, @ton/core's: every transaction the emulator writes), and cells built over them with nothing equal to
 * another (an inline body or StateInit: a root, which no cell of its own subtree can equal). The pending layer's
 * render thread writes a message's body and StateInit that way: hashing their cells was most of the cost of writing
 * them (test/ton/boc-writer.test.ts compares both keys with @ton/core's own serializer).
 * No import of @ton/core's values (boc.ts is loaded by commands that never load @ton/core).
 */
import type { BitString, Cell } from '@ton/core';
import { crc32cTable } from './crc32c.js';

/** What tells two cells apart: equal keys are one cell of the BoC. */
export type CellKey = (cell: Cell) => unknown;

export const byHash: CellKey = (cell) => cell.hash().toString('latin1');
export const byIdentity: CellKey = (cell) => cell;

interface CellOrder {
  cell: Cell;
  refs: unknown[];
}

export function writeBoc(root: Cell, opts: { idx: boolean; crc32: boolean }, keyOf: CellKey): Buffer {
  const cells = new Map<unknown, CellOrder>();
  let pending: Cell[] = [root];
  while (pending.length > 0) {
    const next: Cell[] = [];
    for (const cell of pending) {
      const key = keyOf(cell);
      if (cells.has(key)) continue;
      cells.set(key, { cell, refs: cell.refs.map(keyOf) });
      for (const ref of cell.refs) next.push(ref);
    }
    pending = next;
  }
  const unvisited = new Set(cells.keys());
  const visiting = new Set<unknown>();
  const sorted: unknown[] = [];
  const visit = (key: unknown): void => {
    if (!unvisited.has(key)) return;
    if (visiting.has(key)) throw Error('Not a DAG');
    visiting.add(key);
    const refs = cells.get(key)!.refs;
    for (let i = refs.length - 1; i >= 0; i--) visit(refs[i]);
    sorted.push(key);
    visiting.delete(key);
    unvisited.delete(key);
  };
  for (const key of cells.keys()) visit(key);
  const count = sorted.length;
  const position = new Map<unknown, number>();
  for (let i = 0; i < count; i++) position.set(sorted[count - 1 - i], i);

  const sizeBytes = Math.max(Math.ceil(bitLength(count) / 8), 1);
  const ends: number[] = [];
  let cellBytes = 0;
  for (let i = count - 1; i >= 0; i--) {
    const { cell } = cells.get(sorted[i])!;
    cellBytes += 2 + Math.ceil(cell.bits.length / 8) + cell.refs.length * sizeBytes;
    ends.push(cellBytes);
  }
  const offsetBytes = Math.max(Math.ceil(bitLength(cellBytes) / 8), 1);
  const total =
    4 + 1 + 1 + 3 * sizeBytes + offsetBytes + sizeBytes + (opts.idx ? count * offsetBytes : 0) + cellBytes + (opts.crc32 ? 4 : 0);
  const out = Buffer.alloc(total);
  let at = out.writeUInt32BE(0xb5ee9c72, 0);
  // has_idx, has_crc32c, has_cache_bits (0), flags (0), size_bytes
  out[at++] = (opts.idx ? 0x80 : 0) | (opts.crc32 ? 0x40 : 0) | sizeBytes;
  out[at++] = offsetBytes;
  at = writeBigEndian(out, at, count, sizeBytes); // cells
  at = writeBigEndian(out, at, 1, sizeBytes); // roots
  at = writeBigEndian(out, at, 0, sizeBytes); // absent
  at = writeBigEndian(out, at, cellBytes, offsetBytes);
  at = writeBigEndian(out, at, 0, sizeBytes); // the root's index
  if (opts.idx) for (const end of ends) at = writeBigEndian(out, at, end, offsetBytes);
  for (let i = count - 1; i >= 0; i--) {
    const { cell, refs } = cells.get(sorted[i])!;
    out[at++] = refs.length + (cell.isExotic ? 8 : 0) + cell.mask.value * 32;
    out[at++] = Math.ceil(cell.bits.length / 8) + Math.floor(cell.bits.length / 8);
    at = writePaddedBits(cell.bits, out, at);
    for (const ref of refs) at = writeBigEndian(out, at, position.get(ref)!, sizeBytes);
  }
  if (opts.crc32) crc32cTable(out.subarray(0, total - 4)).copy(out, total - 4);
  return out;
}

/** Bits needed for a non-negative integer (0 for 0), as @ton/core's bitsForNumber(n, 'uint'). */
function bitLength(n: number): number {
  return n === 0 ? 0 : Math.floor(Math.log2(n)) + 1;
}

function writeBigEndian(out: Buffer, at: number, value: number, bytes: number): number {
  for (let i = bytes - 1; i >= 0; i--) {
    out[at + i] = value % 256;
    value = Math.floor(value / 256);
  }
  return at + bytes;
}

interface BitStringInternals {
  _data: Uint8Array;
  _offset: number;
  _length: number;
}

/** `count` (at most 48) bits of `data` from bit `position` on, big-endian, as a number. */
export function readBits(data: Uint8Array, position: number, count: number): number {
  let value = 0;
  while (count > 0) {
    const skip = position & 7;
    const take = Math.min(8 - skip, count);
    value = value * (1 << take) + ((data[position >> 3] >> (8 - skip - take)) & ((1 << take) - 1));
    position += take;
    count -= take;
  }
  return value;
}

/**
 * A cell's data as a BoC and a cell's representation store it, written into `out` at `at`: whole bytes, an
 * incomplete last byte completed by a 1 and zeros. Answers where it ended. Written in place: a buffer of its own
 * per cell (and a copy) was most of what writing a BoC allocated.
 */
export function writePaddedBits(bits: BitString, out: Uint8Array, at: number): number {
  const { _data: data, _offset: start, _length: length } = bits as unknown as BitStringInternals;
  const whole = length >> 3;
  const tail = length & 7;
  if (whole > 0) {
    if ((start & 7) === 0) out.set(data.subarray(start >> 3, (start >> 3) + whole), at);
    else for (let i = 0; i < whole; i++) out[at + i] = readBits(data, start + i * 8, 8);
  }
  if (tail > 0) out[at + whole] = (readBits(data, start + whole * 8, tail) << (8 - tail)) | (1 << (7 - tail));
  return at + whole + (tail > 0 ? 1 : 0);
}
