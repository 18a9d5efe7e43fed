/**
 * fast-check generators of request parameters: for each declared parameter type (v2 params.ts, v3 params.ts)
 * values that are valid, nearly valid and hostile, mixed with values of any type. Values that JSON cannot
 * carry in the test process (nesting deeper than JSON.stringify's stack) travel as `Raw` text spliced in.
 */
import fc from 'fast-check';
import { Address, beginCell, type Cell } from '@ton/core';

/** JSON text put into a body or query verbatim. */
export class Raw {
  constructor(readonly text: string) {}
}

export interface Known {
  /** Addresses of accounts that exist (the faucets), in user-friendly form. */
  accounts: string[];
}

const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));

const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x',
  '0x-1',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '340282366920938463463374607431768211456',
  '%00',
  '\u0000',
  '\uffff',
  '\ud800',
  '../../etc/passwd',
  "'; DROP TABLE blocks; --",
  '${7*7}',
  '<script>',
  'a'.repeat(5000),
];

/** Deep nesting as raw JSON (JSON.stringify would overflow first). */
const deep = fc.constantFrom(10, 600, 3000, 10_000).map((d) => new Raw('['.repeat(d) + ']'.repeat(d)));

/** Not even text: bad %-escapes in a query, invalid JSON in a body. */
const garbage = fc.constantFrom(new Raw('%ff%fe'), new Raw('%'), new Raw('%E0%A4%A'), new Raw('{"a":'), new Raw('"\\ud800"'));

export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  garbage,
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.double(),
  fc.bigInt().map(String),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.constantFrom(...HOSTILE_STRINGS), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', '@type', 'type', 'value'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  deep,
);

const rawAddress = fc.tuple(fc.constantFrom(-1, 0, 1, 127, -128, 255, -2147483648), hex(32)).map(([wc, h]) => `${wc}:${h}`);
const friendly = fc
  .tuple(fc.constantFrom(-1, 0), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), fc.boolean(), fc.boolean())
  .map(([wc, hash, bounceable, testOnly, urlSafe]) => new Address(wc, Buffer.from(hash)).toString({ bounceable, testOnly, urlSafe }));

export function address(known: Known): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known.accounts) },
    { weight: 2, arbitrary: rawAddress },
    { weight: 2, arbitrary: friendly },
    { weight: 1, arbitrary: friendly.map((a) => a.slice(0, -1)) },
    { weight: 1, arbitrary: hex(32).map((h) => `0:${h}0`) },
    { weight: 1, arbitrary: hostile },
  );
}

const hash = fc.oneof(
  hex(32),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64')),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64url')),
  hex(31),
  hex(33),
  hostile,
);

/** A random ordinary cell tree: bits, up to two refs, at most five levels (31 cells). */
const cell: fc.Arbitrary<Cell> = fc.letrec<{ cell: Cell }>((tie) => ({
  cell: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'cell' },
    fc.uint8Array({ maxLength: 127 }).map((bytes) => beginCell().storeBuffer(Buffer.from(bytes)).endCell()),
    fc.tuple(fc.uint8Array({ maxLength: 127 }), fc.array(tie('cell'), { minLength: 1, maxLength: 2 })).map(([bytes, refs]) => {
      const b = beginCell().storeBuffer(Buffer.from(bytes));
      for (const r of refs) b.storeRef(r);
      return b.endCell();
    }),
  ),
})).cell;

/** Exotic cells a client may send: a library reference, a pruned branch. */
const exotic = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .chain((h) =>
    fc.constantFrom(
      beginCell().storeUint(2, 8).storeBuffer(Buffer.from(h)).endCell({ exotic: true }),
      beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.from(h)).storeUint(0, 16).endCell({ exotic: true }),
    ),
  );

/** A chain of `n` cells, each referencing the next: deep, and many cells. */
const chain = (n: number): Cell => {
  let c = beginCell().endCell();
  for (let i = 0; i < n; i++) c = beginCell().storeUint(i, 32).storeRef(c).endCell();
  return c;
};
const CHAIN_1000 = chain(1000).toBoc().toString('base64');

export const boc: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: cell.map((c) => c.toBoc().toString('base64')) },
  { weight: 1, arbitrary: cell.map((c) => c.toBoc().toString('base64url')) },
  { weight: 1, arbitrary: fc.tuple(cell, fc.nat(40)).map(([c, n]) => c.toBoc().subarray(0, n).toString('base64')) },
  {
    weight: 1,
    arbitrary: fc.tuple(cell, fc.nat(60), fc.nat(255)).map(([c, at, v]) => {
      const b = Buffer.from(c.toBoc());
      if (b.length) b[at % b.length] = v;
      return b.toString('base64');
    }),
  },
  { weight: 1, arbitrary: exotic.map((c) => c.toBoc().toString('base64')) },
  { weight: 1, arbitrary: fc.constant(CHAIN_1000) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64')) },
  { weight: 1, arbitrary: hostile },
);

const number = fc.oneof(
  fc.integer(),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String),
  fc.bigInt({ min: 0n, max: 2n ** 256n }).map((n) => `0x${n.toString(16)}`),
  fc.constantFrom('-0x5', '1e3', '5.5', '', 'x'),
);

export const stackEntry: fc.Arbitrary<unknown> = fc.letrec<{ entry: unknown }>((tie) => ({
  entry: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom('num', 'number', 'int'), number),
    fc.tuple(fc.constantFrom('tvm.Cell', 'tvm.Slice', 'tvm.Builder', 'cell', 'slice'), boc),
    fc.tuple(fc.constantFrom('tuple', 'list', 'tvm.Tuple', 'tvm.List'), fc.array(tie('entry'), { maxLength: 4, depthIdentifier: 'stack' })),
    fc.array(tie('entry'), { maxLength: 3, depthIdentifier: 'stack' }).map((elements) => ['tuple', { '@type': 'tvm.tuple', elements }]),
    number.map((n) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: n } })),
    boc.map((bytes) => ({ '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes } })),
    fc
      .tuple(fc.constantFrom('num', 'cell', 'slice', 'tuple', 'toString', '__proto__'), fc.oneof(number, boc))
      .map(([type, value]) => ({ type, value })),
    fc.tuple(fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', ''), hostile),
    fc.record({ '@type': fc.constantFrom('__proto__', 'constructor', 'toString', 'tvm.stackEntryTuple', 'tvm.stackEntrySlice') }),
    hostile,
  ),
})).entry;

export const stack: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.array(stackEntry, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 5000).map((n) => Array.from({ length: n }, () => ['num', 1])) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 64 }, () => ['tuple', Array.from({ length: 64 }, (_, i) => ['num', i])])) },
  { weight: 1, arbitrary: hostile },
);

const getMethod = fc.oneof(
  fc.constantFrom('seqno', 'get_public_key', 'get_subwallet_id', 'get_wallet_data', 'get_jetton_data', 'no_such_method', 'recv_internal'),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.constantFrom(85143, 78748, 0, -1, 2 ** 32, 2 ** 63),
  hostile,
);

const shard = fc.oneof(
  fc.constantFrom('-9223372036854775808', '8000000000000000', '0x8000000000000000', '0', '4000000000000000', 'C000000000000000'),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 65n }).map(String),
  hostile,
);

const smallInt = fc.oneof(fc.integer({ min: -2, max: 50 }), fc.integer({ min: -2, max: 50 }).map(String), number, hostile);
const lt = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n + 1n }).map(String),
  fc.constantFrom('9223372036854775807', '9223372036854775808', '-1'),
  number,
  hostile,
);
const bool = fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', '1', '0', 'yes', ''), hostile);
/** A list item as text: hostile values include objects without a prototype, which Array.join cannot convert. */
const itemText = (x: unknown): string => (x instanceof Raw ? x.text : typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x));
const list = <T>(item: fc.Arbitrary<T>) =>
  fc.oneof(
    fc.array(item, { maxLength: 5 }),
    item,
    fc.array(item, { maxLength: 3 }).map((xs) => xs.map(itemText).join(',')),
  );

/** A value for a parameter of this type (v2 or v3 type names). */
export function valueFor(type: string, known: Known): fc.Arbitrary<unknown> {
  switch (type) {
    case 'address':
    case 'address|null':
      return address(known);
    case 'address[]':
      return list(address(known));
    case 'hash':
      return hash;
    case 'hash[]':
      return list(hash);
    case 'boc':
      return boc;
    case 'stack':
      return stack;
    case 'method':
      return getMethod;
    case 'shard':
      return shard;
    case 'int64':
      return lt;
    case 'int':
    case 'int32':
    case 'utime':
    case 'limit':
    case 'offset':
      return smallInt;
    case 'bool':
      return bool;
    case 'opcode':
      return fc.oneof(fc.constantFrom('0x7362d09c', '0xf8a7ea5', '-1', '4294967296', 'zz'), fc.integer().map(String), hostile);
    case 'direction':
      return fc.oneof(fc.constantFrom('in', 'out', 'both', ''), hostile);
    case 'sort':
    case 'sort|none':
      return fc.oneof(fc.constantFrom('asc', 'desc', 'ASC', ''), hostile);
    case 'string[]':
      return list(fc.string({ maxLength: 20 }));
    default:
      return fc.oneof(fc.string({ maxLength: 40 }), hostile);
  }
}
