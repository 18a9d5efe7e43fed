/**
 * Get-method arguments as clients send them, into @ton/core TupleItem[] (serializeTuple feeds them to
 * the emulator). One reader takes every form, whichever endpoint it came to, because each is
 * unambiguous by shape:
 *
 *   legacy arrays  ["num"|"number"|"int"|"integer", 123 | "123" | "-0x7b"]
 *                  ["tvm.Cell"|"cell", b64 BoC | {bytes} | cell object | JSON string of a cell object]
 *                  ["tvm.Slice"|"slice", same]   ["tvm.Builder"|"builder", same]  (TonClient sends builders)
 *                  ["tuple"|"tvm.Tuple"|"list"|"tvm.List", {"elements":[...]} | [...]]   ["null"]
 *   tonlib typed   {"@type":"tvm.stackEntryNumber","number":{"@type":"tvm.numberDecimal","number":"5"}},
 *                  tvm.stackEntryCell{cell{bytes}}, tvm.stackEntrySlice{slice{bytes}},
 *                  tvm.stackEntryTuple{tuple{elements}}, tvm.stackEntryList{list{elements}},
 *                  and the bare tvm.numberDecimal / tvm.cell / tvm.slice / tvm.tuple / tvm.list
 *   v3             {"type":"num"|"cell"|"slice"|"builder"|"tuple"|"list"|"null","value":...}
 *
 * Numbers: a JSON integer (safe range), or a string in decimal or 0x-hex with an optional '-'. A bare
 * hex string ("ff", which tonweb users send from BN.toJSON) is refused rather than guessed.
 * A list is built the way TVM code expects one: [a, [b, [c, null]]]; an empty list is null.
 */
import type { Cell, TupleItem } from '@ton/core';
import { parseBoc } from './boc.js';
import { cellFromLegacyObject, CellObjectError } from './cell-object.js';
import { StackParseError, TonInputError } from './errors.js';

/** Nesting allowed in arguments (toncenter refuses result stacks 100 deep; arguments need far less). */
const MAX_DEPTH = 64;
/** TVM tuples hold at most 255 items. */
const MAX_TUPLE = 255;
const INT257_LIMIT = 1n << 256n;
const INT_TEXT = /^(-?)(0x[0-9a-fA-F]{1,65}|[0-9]{1,80})$/;

type Kind = 'int' | 'cell' | 'slice' | 'builder' | 'tuple' | 'list' | 'null';

const LEGACY_TAGS: Record<string, Kind> = {
  num: 'int',
  number: 'int',
  int: 'int',
  integer: 'int',
  'tvm.Cell': 'cell',
  cell: 'cell',
  'tvm.Slice': 'slice',
  slice: 'slice',
  'tvm.Builder': 'builder',
  builder: 'builder',
  tuple: 'tuple',
  'tvm.Tuple': 'tuple',
  list: 'list',
  'tvm.List': 'list',
  null: 'null',
};

const V3_TYPES: Record<string, Kind> = {
  num: 'int',
  cell: 'cell',
  slice: 'slice',
  builder: 'builder',
  tuple: 'tuple',
  list: 'list',
  null: 'null',
};

/** Typed entries: which kind, and where its payload sits (`number.number`, `cell.bytes`, ...). */
const TYPED: Record<string, { kind: Kind; wrapper?: string }> = {
  'tvm.stackEntryNumber': { kind: 'int', wrapper: 'number' },
  'tvm.numberDecimal': { kind: 'int' },
  'tvm.stackEntryCell': { kind: 'cell', wrapper: 'cell' },
  'tvm.cell': { kind: 'cell' },
  'tvm.stackEntrySlice': { kind: 'slice', wrapper: 'slice' },
  'tvm.slice': { kind: 'slice' },
  'tvm.stackEntryTuple': { kind: 'tuple', wrapper: 'tuple' },
  'tvm.tuple': { kind: 'tuple' },
  'tvm.stackEntryList': { kind: 'list', wrapper: 'list' },
  'tvm.list': { kind: 'list' },
};

/** Parses a whole argument stack; `name` is the parameter name used in error paths. */
export function parseStack(input: unknown, name = 'stack'): TupleItem[] {
  if (!Array.isArray(input)) throw new StackParseError(name, input, 'Stack should be array');
  return input.map((entry, i) => parseEntry(entry, `${name}[${i}]`, 0));
}

/** Parses one entry of any form. */
export function parseStackEntry(entry: unknown, path = 'stack[0]'): TupleItem {
  return parseEntry(entry, path, 0);
}

function parseEntry(entry: unknown, path: string, depth: number): TupleItem {
  if (depth > MAX_DEPTH) throw new StackParseError(path, entry, `nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(entry)) {
    const [tag, value] = entry;
    if (typeof tag !== 'string') throw new StackParseError(path, entry, 'expected [type, value] with a string type');
    const kind = LEGACY_TAGS[tag];
    if (kind === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${tag}`);
    if (kind !== 'null' && entry.length !== 2) throw new StackParseError(path, entry, 'expected [type, value]');
    return build(kind, value, entry, path, depth);
  }
  if (typeof entry === 'object' && entry !== null) {
    const object = entry as Record<string, unknown>;
    if (typeof object['@type'] === 'string') {
      const typed = TYPED[object['@type']];
      if (typed === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${object['@type']}`);
      const payload = typed.wrapper === undefined ? object : object[typed.wrapper];
      return buildTyped(typed.kind, payload, entry, path, depth);
    }
    if (typeof object.type === 'string') {
      const kind = V3_TYPES[object.type];
      if (kind === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${object.type}`);
      return build(kind, object.value, entry, path, depth);
    }
  }
  throw new StackParseError(path, entry, 'expected [type, value], a tonlib typed object or {type, value}');
}

/** Typed payloads keep their value one level down: number.number, cell.bytes, tuple.elements. */
function buildTyped(kind: Kind, payload: unknown, entry: unknown, path: string, depth: number): TupleItem {
  if (typeof payload !== 'object' || payload === null) throw new StackParseError(path, entry, 'missing payload object');
  const fields = payload as Record<string, unknown>;
  const field = kind === 'int' ? 'number' : kind === 'tuple' || kind === 'list' ? 'elements' : 'bytes';
  return build(kind, fields[field], entry, path, depth);
}

function build(kind: Kind, value: unknown, entry: unknown, path: string, depth: number): TupleItem {
  switch (kind) {
    case 'null':
      return { type: 'null' };
    case 'int':
      return { type: 'int', value: parseTvmInt(value, entry, path) };
    case 'cell':
    case 'slice':
    case 'builder':
      return { type: kind, cell: parseCellValue(value, entry, path) };
    case 'tuple':
      return { type: 'tuple', items: parseElements(value, entry, path, depth) };
    case 'list':
      return listToPairs(parseElements(value, entry, path, depth));
  }
}

function parseTvmInt(value: unknown, entry: unknown, path: string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new StackParseError(path, entry, 'number is not a safe integer; send it as a string');
    return BigInt(value);
  }
  if (typeof value !== 'string') throw new StackParseError(path, entry, 'number must be an integer or a string');
  const match = INT_TEXT.exec(value);
  if (match === null) throw new StackParseError(path, entry, 'expected a decimal or 0x-hex integer');
  const magnitude = BigInt(match[2]);
  const result = match[1] === '-' ? -magnitude : magnitude;
  if (result < -INT257_LIMIT || result >= INT257_LIMIT) throw new StackParseError(path, entry, 'integer does not fit in 257 bits');
  return result;
}

function parseCellValue(value: unknown, entry: unknown, path: string): Cell {
  try {
    if (typeof value === 'string') {
      // Python clients send the cell object as a JSON string; a BoC never starts with '{'.
      if (value.trimStart().startsWith('{')) return cellFromLegacyObject(JSON.parse(value));
      return parseBoc(value);
    }
    if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      if ('bytes' in object) return parseBoc(object.bytes);
      return cellFromLegacyObject(object);
    }
  } catch (error) {
    if (error instanceof TonInputError) throw new StackParseError(path, entry, error.reason);
    if (error instanceof CellObjectError || error instanceof SyntaxError) throw new StackParseError(path, entry, error.message);
    throw error;
  }
  throw new StackParseError(path, entry, 'expected a base64 BoC, {bytes} or a cell object');
}

function parseElements(value: unknown, entry: unknown, path: string, depth: number): TupleItem[] {
  const elements =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).elements : value;
  if (!Array.isArray(elements)) throw new StackParseError(path, entry, 'expected an elements array');
  if (elements.length > MAX_TUPLE) throw new StackParseError(path, entry, `more than ${MAX_TUPLE} elements`);
  return elements.map((item, i) => parseEntry(item, `${path}.elements[${i}]`, depth + 1));
}

/** [a, b, c] -> (a, (b, (c, null))), the TVM list layout. */
function listToPairs(items: TupleItem[]): TupleItem {
  let list: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) list = { type: 'tuple', items: [items[i], list] };
  return list;
}
