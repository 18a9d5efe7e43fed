/**
 * Reads a serialized VmStack, the `stack` BoC the emulator's run_get_method returns, into VmValue[].
 * @ton/core's parseTuple refuses continuations; toncenter must still answer (reporting them as
 * unsupported), so this reader accepts every VmStackValue.
 *
 * TL-B (crypto/block/block.tlb):
 *   vm_stack#_ depth:(## 24) stack:(VmStackList depth) = VmStack;
 *   vm_stk_cons#_ {n:#} rest:^(VmStackList n) tos:VmStackValue = VmStackList (n + 1);
 *   vm_stk_nil#_ = VmStackList 0;
 *   vm_stk_null#00  vm_stk_tinyint#01 value:int64  vm_stk_int#0201_ value:int257  vm_stk_nan#02ff
 *   vm_stk_cell#03 cell:^Cell  vm_stk_slice#04 _:VmCellSlice  vm_stk_builder#05 cell:^Cell
 *   vm_stk_cont#06 cont:VmCont  vm_stk_tuple#07 len:(## 16) data:(VmTuple len)
 *   _ cell:^Cell st_bits:(## 10) end_bits:(## 10) st_ref:(#<= 4) end_ref:(#<= 4) = VmCellSlice;
 *   vm_tupref_nil$_ = VmTupleRef 0;  vm_tupref_single$_ entry:^VmStackValue = VmTupleRef 1;
 *   vm_tupref_any$_ {n:#} ref:^(VmTuple (n + 2)) = VmTupleRef (n + 2);
 *   vm_tuple_nil$_ = VmTuple 0;  vm_tuple_tcons$_ {n:#} head:(VmTupleRef n) tail:^VmStackValue = VmTuple (n + 1);
 *
 * Every VmStackValue is the last thing in its cell (after the list's `rest` ref, or alone in a tuple
 * entry's cell), so a continuation can be kept as "the rest of the cell" without decoding VmCont.
 */
import { beginCell, Cell, type Slice } from '@ton/core';

export type VmValue =
  | { type: 'null' }
  | { type: 'int'; value: bigint }
  | { type: 'nan' }
  | { type: 'cell'; cell: Cell }
  /** The slice's visible part (its bit and ref window) as a cell, as tonlib renders it. */
  | { type: 'slice'; cell: Cell }
  | { type: 'builder'; cell: Cell }
  /** A continuation, kept as the undecoded rest of its cell. */
  | { type: 'cont'; cell: Cell }
  | { type: 'tuple'; items: VmValue[] };

/** Thrown when the bytes are not a VmStack: the emulator never produces that, so it is a bug, not bad input. */
export class VmStackFormatError extends Error {}

/**
 * Tuples nested deeper than this are refused (toncenter answers 533 for deep results). A TVM list is
 * nested pairs, so this also bounds list length; it keeps every recursion here and in stack-output.ts
 * far from the JS call-stack limit, whatever a contract returns.
 */
export const MAX_STACK_NESTING = 1000;

/** A result too deeply nested to render (see MAX_STACK_NESTING). */
export class VmStackTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`Result stack depth >= ${limit}`);
  }
}

/** Parses the emulator's stack (base64 BoC, bytes or cell). Result order: bottom of the stack first. */
export function parseVmStack(stack: string | Buffer | Cell): VmValue[] {
  try {
    const root = stack instanceof Cell ? stack : Cell.fromBoc(typeof stack === 'string' ? Buffer.from(stack, 'base64') : stack)[0];
    let cs = root.beginParse();
    const depth = cs.loadUint(24);
    const values: VmValue[] = [];
    for (let i = 0; i < depth; i++) {
      const rest = cs.loadRef();
      values.push(readValue(cs, 0));
      cs = rest.beginParse();
    }
    return values.reverse();
  } catch (error) {
    if (error instanceof VmStackFormatError || error instanceof VmStackTooDeepError) throw error;
    throw new VmStackFormatError(`malformed VmStack: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readValue(cs: Slice, depth: number): VmValue {
  const tag = cs.loadUint(8);
  switch (tag) {
    case 0x00:
      return { type: 'null' };
    case 0x01:
      return { type: 'int', value: cs.loadIntBig(64) };
    case 0x02: {
      const next = cs.loadUint(7);
      if (next === 0) return { type: 'int', value: cs.loadIntBig(257) };
      if (next === 0x7f && cs.loadBit()) return { type: 'nan' };
      throw new VmStackFormatError(`bad integer tag 0x02 ${next.toString(16)}`);
    }
    case 0x03:
      return { type: 'cell', cell: cs.loadRef() };
    case 0x04:
      return { type: 'slice', cell: readCellSlice(cs) };
    case 0x05:
      return { type: 'builder', cell: cs.loadRef() };
    case 0x06:
      return { type: 'cont', cell: cs.asCell() };
    case 0x07:
      if (depth >= MAX_STACK_NESTING) throw new VmStackTooDeepError(MAX_STACK_NESTING);
      return { type: 'tuple', items: readTuple(cs.loadUint(16), cs, depth + 1) };
    default:
      throw new VmStackFormatError(`unknown stack value tag 0x${tag.toString(16)}`);
  }
}

function readCellSlice(cs: Slice): Cell {
  const cell = cs.loadRef();
  const startBits = cs.loadUint(10);
  const endBits = cs.loadUint(10);
  const startRef = cs.loadUint(3);
  const endRef = cs.loadUint(3);
  if (startBits > endBits || endBits > cell.bits.length || startRef > endRef || endRef > cell.refs.length) {
    throw new VmStackFormatError('slice window outside its cell');
  }
  const builder = beginCell().storeBits(cell.bits.substring(startBits, endBits - startBits));
  for (const ref of cell.refs.slice(startRef, endRef)) builder.storeRef(ref);
  return builder.endCell();
}

/**
 * VmTuple n, walked iteratively from its last item (a head chain can be 255 cells long):
 *   n = 1: ^v0      n = 2: ^v0 ^v1      n >= 3: ^(VmTuple n-1) ^v(n-1)
 * `depth` is the nesting of the tuple's items.
 */
function readTuple(length: number, cs: Slice, depth: number): VmValue[] {
  const items: VmValue[] = new Array(length);
  let current = cs;
  for (let last = length - 1; last >= 0; last--) {
    if (last === 0) {
      items[0] = readValue(current.loadRef().beginParse(), depth);
    } else if (last === 1) {
      items[0] = readValue(current.loadRef().beginParse(), depth);
      items[1] = readValue(current.loadRef().beginParse(), depth);
      break;
    } else {
      const rest = current.loadRef();
      items[last] = readValue(current.loadRef().beginParse(), depth);
      current = rest.beginParse();
    }
  }
  return items;
}
