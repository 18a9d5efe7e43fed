import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import { bocBase64 } from '../../src/ton/boc.js';
import { cellFromLegacyObject, legacyCellObject } from '../../src/ton/cell-object.js';
import { formatTvmInt, legacyStack, typedStack, v3Stack, type LegacyStackEntry } from '../../src/ton/stack-output.js';
import { parseVmStack, type VmValue } from '../../src/ton/vm-stack.js';
import { clientAnswering } from './support/client-transport.js';
import { v2Components } from './support/spec.js';
import { EVERY_VALUE_PROGRAM, runProgram } from './support/tvm-program.js';

const require = createRequire(import.meta.url);
const tonwebUtils = require('tonweb/src/providers/HttpProviderUtils.js').default;

const num = (n: bigint | number) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: String(n) } });
const cellX05 = beginCell().storeUint(5, 8).endCell();
const slice0110 = beginCell().storeUint(0b0110, 4).endCell();

async function everyValue(): Promise<VmValue[]> {
  return parseVmStack((await runProgram(EVERY_VALUE_PROGRAM)).stack);
}

test('numbers are Python hex(): lowercase, 0x0, -0x for negatives', () => {
  assert.equal(formatTvmInt(0n), '0x0');
  assert.equal(formatTvmInt(343n), '0x157');
  assert.equal(formatTvmInt(-2n), '-0x2');
  assert.equal(formatTvmInt(1n << 255n), `0x8${'0'.repeat(63)}`);
});

test('legacy runGetMethod stack of every value kind, as toncenter writes it', async () => {
  const stack = legacyStack(await everyValue());
  const expected: LegacyStackEntry[] = [
    ['num', '0x7'],
    ['num', '-0x1'],
    ['num', `0x8${'0'.repeat(63)}`],
    ['num', `-0x1${'0'.repeat(64)}`],
    ['list', { '@type': 'tvm.list', elements: [] }],
    ['cell', { bytes: bocBase64(cellX05), object: { data: { b64: 'BQ==', len: 8 }, refs: [], special: false } }],
    ['num', '0x0'],
    // A slice is reported as the cell of its visible window (toncenter never writes "slice").
    ['cell', { bytes: bocBase64(slice0110), object: { data: { b64: 'YA==', len: 4 }, refs: [], special: false } }],
    ['unsupported', ''],
    ['list', { '@type': 'tvm.list', elements: [num(1), num(2)] as never }],
    [
      'tuple',
      {
        '@type': 'tvm.tuple',
        elements: [
          num(1),
          { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [num(2), num(3)] } },
          num(4),
        ] as never,
      },
    ],
    ['list', { '@type': 'tvm.list', elements: [num(5)] as never }],
    ['tuple', { '@type': 'tvm.tuple', elements: [] }],
    ['unsupported', ''],
    ['unsupported', ''],
  ];
  assert.deepEqual(stack, expected);
});

test('typed (runGetMethodStd) and v3 renderings of the same values', async () => {
  const values = await everyValue();
  const typed = typedStack(values);
  assert.deepEqual(typed[0], num(7));
  assert.deepEqual(typed[4], { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } });
  assert.deepEqual(typed[7], { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bocBase64(slice0110) } });
  assert.deepEqual(typed[8], { '@type': 'tvm.stackEntryUnsupported' });
  assert.deepEqual(typed[11], { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [num(5)] } });

  const v3 = v3Stack(values);
  assert.deepEqual(v3.slice(0, 6), [
    { type: 'num', value: '0x7' },
    { type: 'num', value: '-0x1' },
    { type: 'num', value: `0x8${'0'.repeat(63)}` },
    { type: 'num', value: `-0x1${'0'.repeat(64)}` },
    { type: 'list', value: [] },
    { type: 'cell', value: bocBase64(cellX05) },
  ]);
  assert.deepEqual(v3[10], {
    type: 'tuple',
    value: [
      { type: 'num', value: '0x1' },
      {
        type: 'tuple',
        value: [
          { type: 'num', value: '0x2' },
          { type: 'num', value: '0x3' },
        ],
      },
      { type: 'num', value: '0x4' },
    ],
  });
  assert.deepEqual(v3[13], { type: 'unsupported', value: null });
});

test('TonClient reads the legacy stack (and refuses "unsupported", as it does from toncenter)', async () => {
  const stack = legacyStack(await everyValue());
  const readable = stack.filter(([tag]) => tag !== 'unsupported');
  const { client, calls } = clientAnswering({ '@type': 'smc.runResult', gas_used: 549, exit_code: 0, stack: readable });
  const result = await client.runMethod(new (await import('@ton/core')).Address(0, Buffer.alloc(32)), 'anything');
  assert.equal(calls[0].method, 'runGetMethod');
  const reader = result.stack;
  assert.equal(reader.readBigNumber(), 7n);
  assert.equal(reader.readBigNumber(), -1n);
  assert.equal(reader.readBigNumber(), 1n << 255n);
  assert.equal(reader.readBigNumber(), -(1n << 256n));
  assert.equal(reader.readCellOpt(), null, 'TVM null reads as null');
  assert.ok(reader.readCell().equals(cellX05));
  assert.equal(reader.readBigNumber(), 0n);
  assert.ok(reader.readCell().equals(slice0110));
  assert.deepEqual(reader.pop(), { type: 'tuple', items: [1n, 2n] }); // TonClient's own element form
  assert.deepEqual(reader.pop(), { type: 'tuple', items: [1n, [2n, 3n], 4n] });
  assert.deepEqual(reader.pop(), { type: 'tuple', items: [5n] });
  assert.deepEqual(reader.pop(), { type: 'null' }, 'an empty tuple reads as null in TonClient');

  const withUnsupported = clientAnswering({ '@type': 'smc.runResult', gas_used: 1, exit_code: 0, stack });
  await assert.rejects(
    withUnsupported.client.runMethod(new (await import('@ton/core')).Address(0, Buffer.alloc(32)), 'x'),
    /Unsupported stack item type: unsupported/,
  );
});

test('tonweb reads numbers (always as hex), cells and flat tuples of the legacy stack', async () => {
  const stack = legacyStack(await everyValue());
  const pick = [0, 1, 3, 5, 7, 10].map((i) => stack[i]);
  const parsed = tonwebUtils.parseResponse({ exit_code: 0, stack: JSON.parse(JSON.stringify(pick)) });
  assert.equal(parsed[0].toString(10), '7');
  assert.equal(parsed[1].toString(10), '-1');
  assert.equal(parsed[2].toString(10), (-(1n << 256n)).toString());
  assert.equal(Buffer.from(parsed[3].bits.array.slice(0, 1)).toString('hex'), '05');
  assert.equal(parsed[4].bits.cursor, 4, 'the slice came as a 4-bit cell');
  assert.deepEqual(
    parsed[5].map((x: any) => (Array.isArray(x) ? x.map(String) : String(x))),
    ['1', ['2', '3'], '4'],
  );
});

test('results validate against the v2 spec (RunGetMethodResult, RunGetMethodStdResult)', async () => {
  const values = await everyValue();
  const common = {
    '@type': 'smc.runResult',
    gas_used: 549,
    exit_code: 0,
    block_id: {
      '@type': 'ton.blockIdExt',
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: 1,
      root_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      file_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    },
    last_transaction_id: { '@type': 'internal.transactionId', lt: '0', hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
  };
  const legacy = JSON.parse(JSON.stringify({ ...common, stack: legacyStack(values) }));
  assert.deepEqual(v2Components().errors('RunGetMethodResult', legacy), []);
  const std = JSON.parse(JSON.stringify({ '@type': 'smc.runResult', gas_used: 549, exit_code: 0, stack: typedStack(values) }));
  assert.deepEqual(v2Components().errors('RunGetMethodStdResult', std), []);
  // The validator is live: a decimal-number entry shape the spec does not allow is caught.
  assert.notDeepEqual(v2Components().errors('RunGetMethodResult', { ...legacy, stack: [['num', '1', 'extra']] }), []);
  assert.notDeepEqual(v2Components().errors('RunGetMethodStdResult', { ...std, stack: [{ '@type': 'tvm.stackEntryNumber' }] }), []);
});

test('the cell object: nested refs and exotic flag; a DAG that would explode is left out', () => {
  const child = beginCell().storeUint(1, 1).endCell();
  const root = beginCell().storeUint(0xabc, 12).storeRef(child).storeRef(beginCell().endCell()).endCell();
  const object = legacyCellObject(root);
  assert.deepEqual(object, {
    data: { b64: 'q8A=', len: 12 },
    refs: [
      { data: { b64: 'gA==', len: 1 }, refs: [], special: false },
      { data: { b64: '', len: 0 }, refs: [], special: false },
    ],
    special: false,
  });
  assert.ok(cellFromLegacyObject(object).equals(root), 'round trip');

  // 2^30 paths through 31 distinct cells.
  let dag: Cell = beginCell().endCell();
  for (let i = 0; i < 30; i++) dag = beginCell().storeUint(i, 8).storeRef(dag).storeRef(dag).endCell();
  assert.equal(legacyCellObject(dag), null);
  const [tag, value] = legacyStack([{ type: 'cell', cell: dag }])[0];
  assert.equal(tag, 'cell');
  assert.deepEqual(Object.keys(value), ['bytes'], 'only bytes: the object would be too large');
});
