import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import { legacyStack } from '../../src/ton/stack-output.js';
import { MAX_STACK_NESTING, parseVmStack, VmStackFormatError, VmStackTooDeepError, type VmValue } from '../../src/ton/vm-stack.js';
import { EVERY_VALUE_PROGRAM, runProgram } from './support/tvm-program.js';

test('the emulator stack of every value kind parses, continuation included (which @ton/core refuses)', async () => {
  const { stack, exitCode } = await runProgram(EVERY_VALUE_PROGRAM);
  assert.equal(exitCode, 0);
  assert.throws(() => parseTuple(Cell.fromBase64(stack)), 'test setup: @ton/core cannot read this stack');
  const values = parseVmStack(stack);
  assert.deepEqual(
    values.map((v) => v.type),
    ['int', 'int', 'int', 'int', 'null', 'cell', 'int', 'slice', 'builder', 'tuple', 'tuple', 'tuple', 'tuple', 'cont', 'nan'],
  );
  const ints = values.filter((v): v is Extract<VmValue, { type: 'int' }> => v.type === 'int').map((v) => v.value);
  assert.deepEqual(ints, [7n, -1n, 1n << 255n, -(1n << 256n), 0n]);
  const cell = values[5] as Extract<VmValue, { type: 'cell' }>;
  assert.ok(cell.cell.equals(beginCell().storeUint(5, 8).endCell()));
  const slice = values[7] as Extract<VmValue, { type: 'slice' }>;
  assert.ok(slice.cell.equals(beginCell().storeUint(0b0110, 4).endCell()), 'the slice is its visible window only');
  const builder = values[8] as Extract<VmValue, { type: 'builder' }>;
  assert.ok(builder.cell.equals(beginCell().storeUint(9, 8).endCell()));
  const list = values[9] as Extract<VmValue, { type: 'tuple' }>;
  assert.deepEqual(list.items[0], { type: 'int', value: 1n });
  assert.deepEqual(list.items[1], { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'null' }] });
  const nested = values[10] as Extract<VmValue, { type: 'tuple' }>;
  assert.deepEqual(nested.items, [
    { type: 'int', value: 1n },
    {
      type: 'tuple',
      items: [
        { type: 'int', value: 2n },
        { type: 'int', value: 3n },
      ],
    },
    { type: 'int', value: 4n },
  ]);
  assert.deepEqual(values[12], { type: 'tuple', items: [] });
});

test('agrees with @ton/core parseTuple on stacks it can read (bottom of the stack first)', () => {
  const big: TupleItem[] = Array.from({ length: 20 }, (_, i) => ({ type: 'int', value: BigInt(i) ** 40n * (i % 2 ? -1n : 1n) }));
  const items: TupleItem[] = [
    { type: 'int', value: 1n },
    { type: 'null' },
    { type: 'nan' },
    { type: 'cell', cell: beginCell().storeUint(1, 1).storeRef(beginCell().endCell()).endCell() },
    { type: 'slice', cell: beginCell().storeUint(0xabc, 12).endCell() },
    { type: 'builder', cell: beginCell().storeUint(3, 2).endCell() },
    { type: 'tuple', items: big },
    {
      type: 'tuple',
      items: [
        { type: 'tuple', items: [{ type: 'tuple', items: [] }] },
        { type: 'int', value: -(1n << 200n) },
      ],
    },
    { type: 'tuple', items: [{ type: 'null' }] },
  ];
  const cell = serializeTuple(items);
  const expected = comparable(parseTuple(cell));
  assert.deepEqual(comparable(parseVmStack(cell)), expected);
  assert.deepEqual(comparable(parseVmStack(cell.toBoc())), expected);
  assert.deepEqual(comparable(parseVmStack(cell.toBoc().toString('base64'))), expected);
  assert.deepEqual(comparable(parseVmStack(cell)), comparable(items), 'and both equal what was serialized');
  assert.deepEqual(parseVmStack(serializeTuple([])), []);
});

test('long lists parse and render; nesting past the limit is refused with a typed error, never a stack overflow', () => {
  let list: TupleItem = { type: 'null' };
  for (let i = 899; i >= 0; i--) list = { type: 'tuple', items: [{ type: 'int', value: BigInt(i) }, list] };
  const [entry] = legacyStack(parseVmStack(serializeTuple([list])));
  assert.equal(entry[0], 'list');
  const elements = (entry[1] as { elements: { number: { number: string } }[] }).elements;
  assert.equal(elements.length, 900);
  assert.equal(elements[899].number.number, '899');

  const nest = (levels: number, width: number): TupleItem => {
    let value: TupleItem = { type: 'int', value: 1n };
    for (let i = 0; i < levels; i++) {
      value = { type: 'tuple', items: [value, ...Array.from({ length: width - 1 }, (): TupleItem => ({ type: 'null' }))] };
    }
    return value;
  };
  // Nesting through the first item of wide tuples (the shape that made a recursive reader go deepest).
  const wide = parseVmStack(serializeTuple([nest(20, 255)]));
  assert.equal((wide[0] as Extract<VmValue, { type: 'tuple' }>).items.length, 255);
  const deepest = parseVmStack(serializeTuple([nest(MAX_STACK_NESTING, 3)]));
  assert.equal(legacyStack(deepest)[0][0], 'tuple', 'renders too');
  assert.throws(() => parseVmStack(serializeTuple([nest(MAX_STACK_NESTING + 1, 3)])), VmStackTooDeepError);
});

test('bytes that are not a VmStack raise VmStackFormatError', () => {
  const cases = [
    beginCell().storeUint(1, 24).storeRef(beginCell().endCell()).storeUint(0x99, 8).endCell(), // unknown tag
    beginCell().storeUint(2, 24).endCell(), // depth without entries
    beginCell().storeUint(1, 24).storeRef(beginCell().endCell()).storeUint(0x02, 8).storeUint(5, 7).endCell(), // bad int tag
    'bm90IGEgYm9j', // not a BoC
  ];
  for (const input of cases) assert.throws(() => parseVmStack(input), VmStackFormatError);
});

/** Cells compared by hash (Cell objects carry closures that deepEqual cannot compare). */
function comparable(values: (TupleItem | VmValue)[]): unknown[] {
  return values.map((v) => {
    if ('cell' in v) return { type: v.type, cell: v.cell.hash().toString('hex') };
    if (v.type === 'tuple') return { type: 'tuple', items: comparable(v.items) };
    return v;
  });
}
