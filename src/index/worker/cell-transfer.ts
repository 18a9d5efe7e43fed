/**
 * Cells across a thread boundary. A Cell is a class instance (hashes, BitString), which structured
 * clone cannot carry. A CellPool is plain data for every cell of a block at once, in a handful of
 * typed arrays (so the copy between threads is a few memcpy, not one object per cell): cells in an
 * order where every reference points backwards, so the receiver builds each cell after its
 * references. Packing copies bits and walks each DAG once; the receiver builds each cell it has not
 * built lately (CellCache) with the hash the pool carries, instead of hashing it again.
 */
import { BitString, Cell } from '@ton/core';
import { cellWithKnownHash } from '../../ton/core-speedups.js';

export interface CellPool {
  /** The representation hash of every cell, 32 bytes each: the receiver reuses cells it already built. */
  hashes: Uint8Array;
  /** The data bytes of every cell, one after the other (each cell's last byte padded with zero bits). */
  bytes: Uint8Array;
  /** Cell i's bytes are bytes[byteStarts[i] .. byteStarts[i + 1]). */
  byteStarts: Uint32Array;
  bitLengths: Uint16Array;
  exotic: Uint8Array;
  /** Cell i's references are refs[refStarts[i] .. refStarts[i + 1]), indexes of earlier cells. */
  refStarts: Uint32Array;
  refs: Uint32Array;
}

/** Collects the cells of several roots into one pool; `add` answers the root's index in it. */
export class CellPacker {
  private readonly indexOf = new Map<Cell, number>();
  /** Equal cells that are distinct objects (every account's copy of a wallet code) are packed once. */
  private readonly byHash = new Map<string, number>();
  private readonly hashes: Uint8Array[] = [];
  private readonly chunks: Uint8Array[] = [];
  private readonly byteStarts: number[] = [0];
  private readonly bitLengths: number[] = [];
  private readonly exotic: number[] = [];
  private readonly refStarts: number[] = [0];
  private readonly refs: number[] = [];
  private bytes = 0;

  add(root: Cell): number {
    // Iterative post-order walk: a cell is emitted after all its references; a cell met again (a BoC
    // is a DAG) is emitted once.
    const stack: { cell: Cell; next: number }[] = [{ cell: root, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next < top.cell.refs.length) {
        const child = top.cell.refs[top.next++];
        if (this.indexOf.has(child)) continue;
        const same = this.byHash.get(child.hash().toString('base64'));
        if (same === undefined) stack.push({ cell: child, next: 0 });
        else this.indexOf.set(child, same);
        continue;
      }
      stack.pop();
      if (!this.indexOf.has(top.cell)) this.emit(top.cell);
    }
    return this.indexOf.get(root)!;
  }

  finish(): CellPool {
    const bytes = new Uint8Array(this.bytes);
    let at = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    const hashes = new Uint8Array(this.hashes.length * 32);
    this.hashes.forEach((hash, i) => hashes.set(hash, i * 32));
    return {
      hashes,
      bytes,
      byteStarts: Uint32Array.from(this.byteStarts),
      bitLengths: Uint16Array.from(this.bitLengths),
      exotic: Uint8Array.from(this.exotic),
      refStarts: Uint32Array.from(this.refStarts),
      refs: Uint32Array.from(this.refs),
    };
  }

  private emit(cell: Cell): void {
    const hash = cell.hash();
    const known = this.byHash.get(hash.toString('base64'));
    if (known !== undefined) {
      this.indexOf.set(cell, known);
      return;
    }
    this.byHash.set(hash.toString('base64'), this.bitLengths.length);
    this.hashes.push(hash);
    const data = dataBytes(cell.bits);
    this.chunks.push(data);
    this.bytes += data.length;
    this.byteStarts.push(this.bytes);
    this.bitLengths.push(cell.bits.length);
    this.exotic.push(cell.isExotic ? 1 : 0);
    for (const ref of cell.refs) this.refs.push(this.indexOf.get(ref)!);
    this.refStarts.push(this.refs.length);
    this.indexOf.set(cell, this.bitLengths.length - 1);
  }
}

/** The data bits of a cell as bytes: whole bytes copied, the tail bit by bit. */
function dataBytes(bits: BitString): Uint8Array {
  const length = bits.length;
  const whole = length - (length % 8);
  const aligned = whole > 0 ? bits.subbuffer(0, whole) : null;
  const out = new Uint8Array(Math.ceil(length / 8));
  let from = 0;
  if (aligned) {
    out.set(aligned);
    from = whole;
  }
  for (let i = from; i < length; i++) if (bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  return out;
}

/**
 * Cells the receiver built lately, by hash: a cell is built once and reused while it keeps coming
 * back, as wallet code does in every block. Cleared when full, so it holds the last few blocks' cells.
 */
export class CellCache {
  private cells = new Map<string, Cell>();
  constructor(private readonly capacity = 16_384) {}

  get(hash: string): Cell | undefined {
    return this.cells.get(hash);
  }

  set(hash: string, cell: Cell): void {
    if (this.cells.size >= this.capacity) this.cells = new Map();
    this.cells.set(hash, cell);
  }
}

/** Rebuilds every cell of a pool; index i is cell i. Cells found in `cache` are not built again. */
export function unpackCells(pool: CellPool, cache = new CellCache()): Cell[] {
  const bytes = Buffer.from(pool.bytes.buffer, pool.bytes.byteOffset, pool.bytes.byteLength);
  const hashes = Buffer.from(pool.hashes.buffer, pool.hashes.byteOffset, pool.hashes.byteLength);
  const cells: Cell[] = [];
  for (let i = 0; i < pool.bitLengths.length; i++) {
    const hash = hashes.toString('base64', i * 32, i * 32 + 32);
    let cell = cache.get(hash);
    if (!cell) {
      const bits = new BitString(bytes.subarray(pool.byteStarts[i], pool.byteStarts[i + 1]), 0, pool.bitLengths[i]);
      const refs: Cell[] = [];
      for (let r = pool.refStarts[i]; r < pool.refStarts[i + 1]; r++) refs.push(cells[pool.refs[r]]);
      // The sender's @ton/core hashed this cell already: an ordinary cell takes that hash as it is.
      cell =
        pool.exotic[i] === 1
          ? new Cell({ exotic: true, bits, refs })
          : cellWithKnownHash(bits, refs, Buffer.from(hashes.subarray(i * 32, i * 32 + 32)));
      cache.set(hash, cell);
    }
    cells.push(cell);
  }
  return cells;
}
