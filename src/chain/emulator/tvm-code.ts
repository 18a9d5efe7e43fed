/**
 * Just enough of a TVM assembler to write the code get-method-batch.ts runs: a straight sequence of cp0
 * instructions, spread over as many cells as it needs (a cell holds 1023 bits and 4 references; when the next
 * instruction does not fit, the cell ends with a JMPREF to the next one).
 *
 * Encodings are TVM's (docs.ton.org, "TVM instructions"); only those below are used. A wrong encoding cannot
 * pass unnoticed: test/chain/emulator/get-method-batch.test.ts compares every batched answer with the emulator's own.
 */
import { beginCell, type Builder, type Cell } from '@ton/core';

/** Instructions without operands, by their opcode. */
export const OP = {
  DROP: 0x30,
  NIP: 0x31,
  DEPTH: 0x68,
  SUB: 0xa1,
  PUSHNULL: 0x6d,
  SINGLE: 0x6f01,
  PAIR: 0x6f02,
  TUPLEVAR: 0x6f80,
  /** c7 PUSHCTR */
  PUSHC7: 0xed47,
} as const;

const JMPREF = 0xdb3d;
const PUSHREF = 0x88;
const PUSHREFSLICE = 0x89;
/** Room a cell keeps for the JMPREF that continues it. */
const TAIL_BITS = 16;

export class TvmCode {
  /** Finished cells' contents, in order; each but the last jumps to the next. */
  private readonly parts: Array<{ b: Builder; refs: Cell[] }> = [];

  constructor() {
    this.parts.push({ b: beginCell(), refs: [] });
  }

  /** An instruction without operands (1 to 3 bytes). */
  op(opcode: number): this {
    const bytes = opcode > 0xffff ? 3 : opcode > 0xff ? 2 : 1;
    return this.emit(bytes * 8, 0, (b) => b.storeUint(opcode, bytes * 8));
  }

  /** INDEX k (0 <= k <= 15). */
  index(k: number): this {
    return this.emit(16, 0, (b) => b.storeUint(0x6f10 | k, 16));
  }

  /** SETINDEX k (0 <= k <= 15). */
  setIndex(k: number): this {
    return this.emit(16, 0, (b) => b.storeUint(0x6f50 | k, 16));
  }

  /** GETGLOB k (1 <= k <= 31). */
  getGlob(k: number): this {
    return this.emit(16, 0, (b) => b.storeUint(0xf840 | k, 16));
  }

  /** SETGLOB k (1 <= k <= 31). */
  setGlob(k: number): this {
    return this.emit(16, 0, (b) => b.storeUint(0xf860 | k, 16));
  }

  /** RUNVM with its 12 bits of flags. */
  runVm(flags: number): this {
    return this.emit(24, 0, (b) => b.storeUint(0xdb4, 12).storeUint(flags, 12));
  }

  /** PUSHINT in its shortest form (any 257-bit signed integer). */
  pushInt(value: bigint): this {
    if (value >= -5n && value <= 10n) return this.emit(8, 0, (b) => b.storeUint(0x70 | Number(BigInt.asUintN(4, value)), 8));
    if (fitsSigned(value, 8)) return this.emit(16, 0, (b) => b.storeUint(0x80, 8).storeInt(value, 8));
    if (fitsSigned(value, 16)) return this.emit(24, 0, (b) => b.storeUint(0x81, 8).storeInt(value, 16));
    // 82 l:5 x:(8l+19): l = 0..30
    let l = 0;
    while (!fitsSigned(value, 8 * l + 19)) l++;
    if (l > 30) throw new RangeError(`PUSHINT: ${value} does not fit 257 bits`);
    return this.emit(13 + 8 * l + 19, 0, (b) =>
      b
        .storeUint(0x82, 8)
        .storeUint(l, 5)
        .storeInt(value, 8 * l + 19),
    );
  }

  /** PUSHREF: the cell. */
  pushRef(cell: Cell): this {
    return this.emit(8, 1, (b, refs) => (b.storeUint(PUSHREF, 8), refs.push(cell)));
  }

  /** PUSHREFSLICE: the cell, as a slice. */
  pushRefSlice(cell: Cell): this {
    return this.emit(8, 1, (b, refs) => (b.storeUint(PUSHREFSLICE, 8), refs.push(cell)));
  }

  /** The code's root cell. */
  endCell(): Cell {
    let next: Cell | undefined;
    for (let i = this.parts.length - 1; i >= 0; i--) {
      const { b, refs } = this.parts[i];
      if (next) b.storeUint(JMPREF, 16);
      for (const ref of refs) b.storeRef(ref);
      if (next) b.storeRef(next);
      next = b.endCell();
    }
    return next!;
  }

  private emit(bits: number, refs: number, write: (b: Builder, refs: Cell[]) => void): this {
    let part = this.parts[this.parts.length - 1];
    // Each cell but the last keeps room for its JMPREF (16 bits, 1 reference).
    if (part.b.availableBits < bits + TAIL_BITS || part.refs.length + refs > 3) {
      part = { b: beginCell(), refs: [] };
      this.parts.push(part);
    }
    write(part.b, part.refs);
    return this;
  }
}

function fitsSigned(value: bigint, bits: number): boolean {
  const half = 1n << BigInt(bits - 1);
  return value >= -half && value < half;
}
