import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Address, beginCell, serializeTuple, type TupleItem } from '@ton/core';
import { legacyCellObject } from '../../src/ton/cell-object.js';
import { bocBudget } from '../../src/ton/boc.js';
import { StackParseError, TonInputError } from '../../src/ton/errors.js';
import { parseStack, parseStackEntry, STACK_MAX_ENTRIES, STACK_MAX_NESTING } from '../../src/ton/stack-input.js';
import { clientAnswering } from './support/client-transport.js';

const require = createRequire(import.meta.url);
const BN = require('tonweb/src/utils').BN;

const cell = beginCell().storeUint(0xabcdef, 24).storeRef(beginCell().storeUint(1, 1)).endCell();
const b64 = cell.toBoc().toString('base64');

/** Cells compared by hash (Cell objects carry closures deepEqual cannot compare). */
function comparable(items: TupleItem[]): unknown[] {
  return items.map((v) => {
    if ('cell' in v) return { type: v.type, cell: v.cell.hash().toString('hex') };
    if (v.type === 'tuple') return { type: 'tuple', items: comparable(v.items) };
    return v;
  });
}

test('what TonClient sends (ints, cells, slices, builders) parses back to the items it serialized', async () => {
  const items: TupleItem[] = [
    { type: 'int', value: 5n },
    { type: 'int', value: -(1n << 200n) },
    { type: 'cell', cell },
    { type: 'slice', cell },
    { type: 'builder', cell },
  ];
  const { client, calls } = clientAnswering({ '@type': 'smc.runResult', gas_used: 1, exit_code: 0, stack: [] });
  await client.runMethod(new Address(0, Buffer.alloc(32)), 'get_something', items);
  const sent = calls[0].params.stack;
  assert.deepEqual(
    (sent as unknown[][]).map((e) => e[0]),
    ['num', 'num', 'tvm.Cell', 'tvm.Slice', 'tvm.Builder'],
  );
  assert.deepEqual(comparable(parseStack(sent)), comparable(items));
});

test('number forms: JSON integer, decimal, 0x-hex, negative hex; tag aliases', () => {
  const forms: [unknown, bigint][] = [
    [['num', 123], 123n],
    [['num', '123'], 123n],
    [['num', '0x7b'], 123n],
    [['number', '-0x7B'], -123n],
    [['int', '-5'], -5n],
    [['integer', -1], -1n],
    [{ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-42' } }, -42n],
    [{ '@type': 'tvm.numberDecimal', number: '7' }, 7n],
    [{ type: 'num', value: '0x12a' }, 0x12an],
    [['num', `0x${'f'.repeat(64)}`], (1n << 256n) - 1n],
    [['num', `-0x1${'0'.repeat(64)}`], -(1n << 256n)],
  ];
  for (const [entry, value] of forms) assert.deepEqual(parseStackEntry(entry), { type: 'int', value }, JSON.stringify(entry));
});

test('cell forms: BoC, {bytes}, cell object, JSON string of a cell object (Python clients), typed, v3', () => {
  const object = legacyCellObject(cell);
  const forms: [unknown, string][] = [
    [['tvm.Cell', b64], 'cell'],
    [['cell', { bytes: b64 }], 'cell'],
    [['cell', object], 'cell'],
    [['cell', JSON.stringify(object)], 'cell'],
    [['tvm.Slice', b64], 'slice'],
    [['slice', { bytes: b64, object }], 'slice'],
    [['tvm.Builder', b64], 'builder'],
    [{ '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: b64 } }, 'cell'],
    [{ '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: b64 } }, 'slice'],
    [{ '@type': 'tvm.cell', bytes: b64 }, 'cell'],
    [{ type: 'cell', value: b64 }, 'cell'],
    [{ type: 'slice', value: b64 }, 'slice'],
  ];
  for (const [entry, type] of forms) {
    const item = parseStackEntry(entry);
    assert.equal(item.type, type, JSON.stringify(entry).slice(0, 80));
    assert.ok('cell' in item && item.cell.equals(cell));
  }
});

test('tuples and lists: legacy, typed and v3; a list becomes TVM pairs ending in null', () => {
  const one = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '1' } };
  const two = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '2' } };
  const tuple = {
    type: 'tuple',
    items: [
      { type: 'int', value: 1n },
      { type: 'int', value: 2n },
    ],
  };
  const list = {
    type: 'tuple',
    items: [
      { type: 'int', value: 1n },
      { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'null' }] },
    ],
  };
  assert.deepEqual(parseStackEntry(['tuple', { '@type': 'tvm.tuple', elements: [one, two] }]), tuple);
  assert.deepEqual(parseStackEntry(['tvm.Tuple', [one, two]]), tuple);
  assert.deepEqual(parseStackEntry({ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [one, two] } }), tuple);
  assert.deepEqual(parseStackEntry({ type: 'tuple', value: [{ type: 'num', value: '1' }, ['num', 2]] }), tuple);
  assert.deepEqual(parseStackEntry(['list', { '@type': 'tvm.list', elements: [one, two] }]), list);
  assert.deepEqual(parseStackEntry({ '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [one, two] } }), list);
  assert.deepEqual(parseStackEntry(['list', { '@type': 'tvm.list', elements: [] }]), { type: 'null' });
  assert.deepEqual(parseStackEntry(['null']), { type: 'null' });
  assert.deepEqual(parseStackEntry({ type: 'null' }), { type: 'null' });
  // The items feed serializeTuple unchanged (what chain/local hands to the emulator).
  assert.doesNotThrow(() =>
    serializeTuple(
      parseStack([
        ['tuple', [one, ['list', [two]]]],
        ['num', 3],
      ]),
    ),
  );
});

test('bad entries raise StackParseError naming the entry path', () => {
  const cases: [unknown, string, RegExp][] = [
    [{ stack: 'x' }, 'stack', /Stack should be array/],
    [[['num', 'ff']], 'stack[0]', /decimal or 0x-hex/], // BN.toJSON() of tonweb users
    [[['num', JSON.parse(JSON.stringify(new BN(255)))]], 'stack[0]', /decimal or 0x-hex/],
    [[['num', 1.5]], 'stack[0]', /safe integer/],
    [[['num', 2 ** 60]], 'stack[0]', /safe integer/],
    [[['num', `0x1${'0'.repeat(64)}`]], 'stack[0]', /257 bits/],
    [[['num', null]], 'stack[0]', /integer or a string/],
    [
      [
        ['num', '1'],
        ['dict', {}],
      ],
      'stack[1]',
      /unsupported stack entry type: dict/,
    ],
    [[['num']], 'stack[0]', /expected \[type, value\]/],
    [[[5, 1]], 'stack[0]', /string type/],
    [[['tvm.Cell', 'no!t base64']], 'stack[0]', /not base64/],
    [[['tvm.Cell', 'aGVsbG8=']], 'stack[0]', /not a valid bag of cells/],
    [[['cell', '{"data": 1}']], 'stack[0]', /data/],
    [[['cell', '{broken']], 'stack[0]', /JSON|Expected/],
    [[['cell', { data: { b64: 'AA==', len: 8 }, refs: [], special: true }]], 'stack[0]', /special/],
    [
      [
        ['num', 1],
        [
          'tuple',
          {
            elements: [
              ['num', 1],
              ['num', 'x'],
            ],
          },
        ],
      ],
      'stack[1].elements[1]',
      /decimal or 0x-hex/,
    ],
    [[{ '@type': 'tvm.stackEntryUnsupported' }], 'stack[0]', /unsupported stack entry type/],
    [[{ '@type': 'tvm.stackEntryNumber' }], 'stack[0]', /payload/],
    [[{ type: 'dict', value: 1 }], 'stack[0]', /unsupported stack entry type: dict/],
    [['just a string'], 'stack[0]', /expected \[type, value\]/],
    [[['tuple', { elements: Array(256).fill(['num', 1]) }]], 'stack[0]', /more than 255/],
  ];
  for (const [input, path, reason] of cases) {
    assert.throws(
      () => parseStack(input),
      (error: unknown) => {
        assert.ok(error instanceof StackParseError && error instanceof TonInputError, JSON.stringify(input).slice(0, 60));
        assert.equal(error.path, path, JSON.stringify(input).slice(0, 60));
        assert.match(error.reason, reason);
        assert.ok(error.message.includes(path));
        return true;
      },
    );
  }
});

test('deep nesting is refused, not a stack overflow', () => {
  let entry: unknown = ['num', 1];
  for (let i = 0; i < 100; i++) entry = ['tuple', [entry]];
  assert.throws(
    () => parseStack([entry]),
    (error: unknown) => error instanceof StackParseError && /nested deeper/.test(error.reason),
  );
});

test('work limits: 255 entries at the top, 999 in all, 64 levels of nesting, each named in the refusal', () => {
  const num = ['num', 1];
  const nums = (n: number) => Array.from({ length: n }, () => num);
  const tuple = (items: unknown[]) => ['tuple', { elements: items }];
  // At each limit: accepted.
  assert.equal(parseStack(nums(STACK_MAX_ENTRIES)).length, 255);
  const allowed = [tuple(nums(255)), tuple(nums(255)), tuple(nums(255)), ...nums(999 - 3 * 256)];
  assert.equal(parseStack(allowed).length, 234);
  let nested: unknown = num;
  for (let i = 0; i < STACK_MAX_NESTING; i++) nested = tuple([nested]);
  assert.equal(parseStack([nested]).length, 1);
  // One past each: refused, with the path and the limit in the words.
  const refusals: [unknown, string, RegExp][] = [
    [nums(256), 'stack', /more than 255 entries/],
    [nums(100_000), 'stack', /more than 255 entries/],
    [[...allowed, num], 'stack[234]', /more than 999 entries in all/],
    [[tuple(Array.from({ length: 255 }, () => tuple(nums(255))))], 'stack[0].elements[3].elements[229]', /more than 999 entries in all/],
    // A list of n items is n pairs more for TVM: 500 items + 500 pairs is over.
    [
      [
        ['list', { elements: nums(250) }],
        ['list', { elements: nums(250) }],
      ],
      'stack[1]',
      /more than 999 entries in all/,
    ],
    [[tuple([nested])], `stack[0]${'.elements[0]'.repeat(65)}`, /nested deeper than 64 levels/],
  ];
  for (const [input, path, reason] of refusals) {
    assert.throws(
      () => parseStack(input),
      (error: unknown) => error instanceof StackParseError && error.path === path && reason.test(error.reason),
      `${path} ${reason}`,
    );
  }
});

test('at most 64 cell, slice and builder entries in all, wherever they sit', () => {
  const boc = beginCell().storeUint(1, 8).endCell().toBoc().toString('base64');
  const cells = (n: number) => Array.from({ length: n }, () => ['tvm.Slice', boc]);
  assert.equal(parseStack([['tuple', cells(50)], ...cells(14)]).length, 15);
  assert.throws(
    () =>
      parseStack([
        ['tuple', cells(50)],
        ...cells(14),
        [
          'tuple',
          [
            ['num', 1],
            ['tvm.Cell', boc],
          ],
        ],
      ]),
    (error: unknown) =>
      error instanceof StackParseError &&
      error.path === 'stack[15].elements[1]' &&
      /more than 64 cell, slice and builder entries/.test(error.reason),
  );
});

test('limits are checked before any BoC is decoded: a bad BoC in entry 0 of an oversized stack is not what is reported', () => {
  const badFirst = [['tvm.Cell', 'aGVsbG8='], ...Array.from({ length: 998 }, () => ['num', 1]), ['tuple', [['num', 1]]]];
  assert.throws(
    () =>
      parseStack([
        ['tuple', badFirst.slice(0, 255)],
        ['tuple', badFirst.slice(255, 510)],
        ['tuple', badFirst.slice(510, 765)],
        ['tuple', badFirst.slice(765)],
      ]),
    (error: unknown) => error instanceof StackParseError && /more than 999 entries/.test(error.reason),
  );
});

test('the cells of one stack share one budget: 512 cells and 65,535 bytes in all', () => {
  // 100 cells in one BoC (a chain): 5 entries of it (500 cells) fit, 6 do not.
  let chain = beginCell().endCell();
  for (let i = 0; i < 99; i++) chain = beginCell().storeUint(i, 8).storeRef(chain).endCell();
  const boc = chain.toBoc().toString('base64');
  assert.equal(parseStack(Array.from({ length: 5 }, () => ['tvm.Cell', boc])).length, 5);
  assert.throws(
    () => parseStack(Array.from({ length: 6 }, () => ['tvm.Cell', boc])),
    (error: unknown) =>
      error instanceof StackParseError &&
      error.path === 'stack[5]' &&
      /more than 512 cells in all \(this one holds 100\)/.test(error.reason),
  );
  // The request's budget is shared: what other parameters spent is not available to the stack.
  const request = bocBudget();
  request.cells -= 950;
  assert.throws(
    () => parseStack([['tvm.Cell', boc]], 'stack', request),
    (error: unknown) => error instanceof StackParseError && /more than 1024 cells in all/.test(error.reason),
  );
  const fresh = bocBudget();
  parseStack([['tvm.Cell', boc]], 'stack', fresh);
  assert.equal(fresh.cells, 1_024 - 100, 'the stack spends from the request budget');
  // Bytes: 40 BoCs of ~1.7 KB each.
  const wide = beginCell()
    .storeBuffer(Buffer.alloc(127, 1))
    .storeRef(beginCell().storeBuffer(Buffer.alloc(127, 2)))
    .endCell();
  let big = wide;
  for (let i = 0; i < 12; i++) big = beginCell().storeBuffer(Buffer.alloc(127, i)).storeRef(big).endCell();
  const bigBoc = big.toBoc().toString('base64');
  const perBoc = Buffer.from(bigBoc, 'base64').length;
  const fit = Math.floor(65_535 / perBoc);
  assert.equal(parseStack(Array.from({ length: fit }, () => ['tvm.Cell', bigBoc])).length, fit);
  assert.throws(
    () => parseStack(Array.from({ length: fit + 1 }, () => ['tvm.Cell', bigBoc])),
    (error: unknown) => error instanceof StackParseError && /larger than 65535 bytes in all/.test(error.reason),
  );
  // Cell objects count their nodes before building any: a 4-ary tree of 1,365 nodes is refused.
  const tree = (levels: number): unknown => ({
    data: { b64: '', len: 0 },
    refs: levels === 0 ? [] : Array.from({ length: 4 }, () => tree(levels - 1)),
  });
  assert.equal(parseStack([['cell', tree(4)]]).length, 1, '341 nodes fit');
  assert.throws(
    () => parseStack([['cell', tree(5)]]),
    (error: unknown) => error instanceof StackParseError && /cell object holds more than 512 cells/.test(error.reason),
  );
  const flat = { data: { b64: '', len: 0 }, refs: Array.from({ length: 4 }, () => ({ data: { b64: '', len: 0 }, refs: [] })) };
  assert.equal(parseStack([['cell', flat]]).length, 1);
});

test("type names that are Object.prototype's members are unknown types, not JavaScript errors", () => {
  for (const input of [
    [['constructor', 1]],
    [['__proto__', 1]],
    [['toString', 1]],
    [{ type: 'toString' }],
    [{ type: 'constructor', value: 1 }],
    [{ '@type': '__proto__' }],
    [{ '@type': 'hasOwnProperty' }],
    [JSON.parse('{"@type":"tvm.stackEntryNumber","__proto__":{"number":"1"}}')],
    [{ '@type': 'tvm.stackEntryTuple', tuple: { valueOf: 1 } }],
  ]) {
    assert.throws(
      () => parseStack(input),
      (error: unknown) => error instanceof StackParseError && !/Cannot read|undefined is not|is not a function/.test(error.message),
      JSON.stringify(input),
    );
  }
});

test('exotic cells: a library cell passes as a cell, not as a slice or builder; a pruned branch never', () => {
  const library = beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell({ exotic: true });
  const pruned = beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32, 9)).storeUint(3, 16).endCell({ exotic: true });
  const aboveaPruned = beginCell().storeRef(pruned).endCell();
  const b64 = (c: typeof library) => c.toBoc().toString('base64');
  assert.equal(parseStack([['tvm.Cell', b64(library)]])[0].type, 'cell');
  const refusals: [unknown[], RegExp][] = [
    [['tvm.Slice', b64(library)], /cannot be passed as a slice/],
    [['tvm.Builder', b64(library)], /cannot be passed as a builder/],
    [['tvm.Cell', b64(pruned)], /pruned branch/],
    [['tvm.Slice', b64(aboveaPruned)], /pruned branch/],
  ];
  for (const [entry, reason] of refusals) {
    assert.throws(
      () => parseStack([entry]),
      (error: unknown) => error instanceof StackParseError && reason.test(error.reason),
      String(entry[0]),
    );
  }
});
