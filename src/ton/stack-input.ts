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
 *
 * Work limits, all checked while walking the JSON and before any BoC is decoded (the walk itself stops at
 * the first limit crossed, so a 100,000-entry stack costs as little as a 256-entry one):
 *   entries at the top level  255  (STACK_MAX_ENTRIES)
 *   entries in all            999  (STACK_MAX_ALL_ENTRIES; tuple items, list items and list pairs count)
 *   cells/slices/builders      64  (STACK_MAX_CELL_ENTRIES)
 *   nesting of tuples/lists    64  (STACK_MAX_NESTING)
 *   items of one tuple        255  (TVM's own tuple limit)
 *   cells of all cell/slice/builder entries together: 512 cells (STACK_MAX_CELLS) and 65,535 bytes,
 *   within the request's budget for all its BoCs (boc.ts) when the caller passes it
 * Why these numbers: docs/api.md "Limits".
 */
import { Cell, type TupleItem } from '@ton/core';
import { bocBudget, parseBoc, type BocBudget } from './boc.js';
import { cellFromLegacyObject, CellObjectError } from './cell-object.js';
import { StackParseError, TonInputError } from './errors.js';

/** Entries at the top of the stack: TVM's tuple limit, and well below the embedded emulator's ceiling. */
export const STACK_MAX_ENTRIES = 255;
/** Entries in all: tonlib serializes arguments under a budget of 1,000 operations, one per entry plus one. */
export const STACK_MAX_ALL_ENTRIES = 999;
/**
 * Cell, slice and builder entries in all. Ours: each is a BoC decoded, serialized into the stack, decoded
 * back from the result and written out again as a BoC and a cell object, all on the HTTP thread, at
 * ~150 us each here (255 of them took 40-55 ms); get-methods take one or two.
 */
export const STACK_MAX_CELL_ENTRIES = 64;
/**
 * Cells of all cell, slice and builder entries together. Ours, below the request's 1,024 (boc.ts): a
 * stack's cells are paid four times on the HTTP thread (decoded, serialized into the stack, decoded back
 * from the result, written out as BoCs and cell objects), a message's twice.
 */
export const STACK_MAX_CELLS = 512;
/** Nesting of tuples and lists (toncenter refuses result stacks 100 deep; arguments need far less). */
export const STACK_MAX_NESTING = 64;
/** TVM tuples hold at most 255 items. */
export const TUPLE_MAX_ITEMS = 255;
const INT257_LIMIT = 1n << 256n;
const INT_TEXT = /^(-?)(0x[0-9a-fA-F]{1,65}|[0-9]{1,80})$/;

type Kind = 'int' | 'cell' | 'slice' | 'builder' | 'tuple' | 'list' | 'null';

// Maps, not object literals: a client's type name must never find Object.prototype's members
// ("constructor", "toString", "__proto__").
const LEGACY_TAGS = new Map<string, Kind>([
  ['num', 'int'],
  ['number', 'int'],
  ['int', 'int'],
  ['integer', 'int'],
  ['tvm.Cell', 'cell'],
  ['cell', 'cell'],
  ['tvm.Slice', 'slice'],
  ['slice', 'slice'],
  ['tvm.Builder', 'builder'],
  ['builder', 'builder'],
  ['tuple', 'tuple'],
  ['tvm.Tuple', 'tuple'],
  ['list', 'list'],
  ['tvm.List', 'list'],
  ['null', 'null'],
]);

const V3_TYPES = new Map<string, Kind>([
  ['num', 'int'],
  ['cell', 'cell'],
  ['slice', 'slice'],
  ['builder', 'builder'],
  ['tuple', 'tuple'],
  ['list', 'list'],
  ['null', 'null'],
]);

/** Typed entries: which kind, and where its payload sits (`number.number`, `cell.bytes`, ...). */
const TYPED = new Map<string, { kind: Kind; wrapper?: string }>([
  ['tvm.stackEntryNumber', { kind: 'int', wrapper: 'number' }],
  ['tvm.numberDecimal', { kind: 'int' }],
  ['tvm.stackEntryCell', { kind: 'cell', wrapper: 'cell' }],
  ['tvm.cell', { kind: 'cell' }],
  ['tvm.stackEntrySlice', { kind: 'slice', wrapper: 'slice' }],
  ['tvm.slice', { kind: 'slice' }],
  ['tvm.stackEntryTuple', { kind: 'tuple', wrapper: 'tuple' }],
  ['tvm.tuple', { kind: 'tuple' }],
  ['tvm.stackEntryList', { kind: 'list', wrapper: 'list' }],
  ['tvm.list', { kind: 'list' }],
]);

/** A client object's own field (never one inherited from Object.prototype). */
function own(object: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** One parse: the entries counted so far, the cells' shared budget, and the cells still to decode. */
interface Walk {
  entries: number;
  budget: BocBudget;
  cells: Array<() => void>;
}

/** Parses a whole argument stack; `name` is the parameter name used in error paths. */
export function parseStack(input: unknown, name = 'stack', budget: BocBudget = bocBudget()): TupleItem[] {
  if (!Array.isArray(input)) throw new StackParseError(name, input, 'Stack should be array');
  if (input.length > STACK_MAX_ENTRIES) {
    throw new StackParseError(name, `[${input.length} entries]`, `more than ${STACK_MAX_ENTRIES} entries`);
  }
  // The stack's own cell limit, within what is left of the request's budget.
  const stackBudget: BocBudget = {
    bytes: budget.bytes,
    cells: Math.min(budget.cells, STACK_MAX_CELLS),
    maxBytes: budget.maxBytes,
    // The limit named in a refusal: the request's when less than 512 of it was left, else the stack's.
    maxCells: budget.cells < STACK_MAX_CELLS ? budget.maxCells : STACK_MAX_CELLS,
  };
  const walk: Walk = { entries: 0, budget: stackBudget, cells: [] };
  const items = input.map((entry, i) => parseEntry(entry, `${name}[${i}]`, 0, walk));
  // Every count is within its limit: only now are the BoCs decoded (each charged to the budget).
  const cellsBefore = stackBudget.cells;
  const bytesBefore = stackBudget.bytes;
  for (const decode of walk.cells) decode();
  budget.cells -= cellsBefore - stackBudget.cells;
  budget.bytes -= bytesBefore - stackBudget.bytes;
  return items;
}

/** Parses one entry of any form. */
export function parseStackEntry(entry: unknown, path = 'stack[0]'): TupleItem {
  const walk: Walk = { entries: 0, budget: bocBudget(STACK_MAX_CELLS), cells: [] };
  const item = parseEntry(entry, path, 0, walk);
  for (const decode of walk.cells) decode();
  return item;
}

function parseEntry(entry: unknown, path: string, depth: number, walk: Walk): TupleItem {
  if (depth > STACK_MAX_NESTING) throw new StackParseError(path, entry, `nested deeper than ${STACK_MAX_NESTING} levels`);
  if (++walk.entries > STACK_MAX_ALL_ENTRIES) {
    throw new StackParseError(path, entry, `more than ${STACK_MAX_ALL_ENTRIES} entries in all (tuple and list items count)`);
  }
  if (Array.isArray(entry)) {
    const [tag, value] = entry;
    if (typeof tag !== 'string') throw new StackParseError(path, entry, 'expected [type, value] with a string type');
    const kind = LEGACY_TAGS.get(tag);
    if (kind === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${tag}`);
    if (kind !== 'null' && entry.length !== 2) throw new StackParseError(path, entry, 'expected [type, value]');
    return build(kind, value, entry, path, depth, walk);
  }
  if (typeof entry === 'object' && entry !== null) {
    const typeName = own(entry, '@type');
    if (typeof typeName === 'string') {
      const typed = TYPED.get(typeName);
      if (typed === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${typeName}`);
      const payload = typed.wrapper === undefined ? entry : own(entry, typed.wrapper);
      return buildTyped(typed.kind, payload, entry, path, depth, walk);
    }
    const v3Type = own(entry, 'type');
    if (typeof v3Type === 'string') {
      const kind = V3_TYPES.get(v3Type);
      if (kind === undefined) throw new StackParseError(path, entry, `unsupported stack entry type: ${v3Type}`);
      return build(kind, own(entry, 'value'), entry, path, depth, walk);
    }
  }
  throw new StackParseError(path, entry, 'expected [type, value], a tonlib typed object or {type, value}');
}

/** Typed payloads keep their value one level down: number.number, cell.bytes, tuple.elements. */
function buildTyped(kind: Kind, payload: unknown, entry: unknown, path: string, depth: number, walk: Walk): TupleItem {
  if (typeof payload !== 'object' || payload === null) throw new StackParseError(path, entry, 'missing payload object');
  const field = kind === 'int' ? 'number' : kind === 'tuple' || kind === 'list' ? 'elements' : 'bytes';
  return build(kind, own(payload, field), entry, path, depth, walk);
}

function build(kind: Kind, value: unknown, entry: unknown, path: string, depth: number, walk: Walk): TupleItem {
  switch (kind) {
    case 'null':
      return { type: 'null' };
    case 'int':
      return { type: 'int', value: parseTvmInt(value, entry, path) };
    case 'cell':
    case 'slice':
    case 'builder': {
      // Decoded once the whole stack has been counted (parseStack), charged to the stack's budget.
      if (walk.cells.length >= STACK_MAX_CELL_ENTRIES) {
        throw new StackParseError(path, entry, `more than ${STACK_MAX_CELL_ENTRIES} cell, slice and builder entries in all`);
      }
      const item = { type: kind, cell: Cell.EMPTY };
      walk.cells.push(() => (item.cell = argumentCell(kind, parseCellValue(value, entry, path, walk.budget), entry, path)));
      return item;
    }
    case 'tuple':
      return { type: 'tuple', items: parseElements(value, entry, path, depth, walk) };
    case 'list': {
      const items = parseElements(value, entry, path, depth, walk);
      // Each item hangs in a pair of its own: TVM (and tonlib's budget) sees one more entry per item.
      walk.entries += items.length;
      if (walk.entries > STACK_MAX_ALL_ENTRIES) {
        throw new StackParseError(path, entry, `more than ${STACK_MAX_ALL_ENTRIES} entries in all (tuple and list items count)`);
      }
      return listToPairs(items);
    }
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

function parseCellValue(value: unknown, entry: unknown, path: string, budget: BocBudget): Cell {
  try {
    if (typeof value === 'string') {
      // Python clients send the cell object as a JSON string; a BoC never starts with '{'.
      if (value.trimStart().startsWith('{')) return cellFromLegacyObject(JSON.parse(value), budget);
      return parseBoc(value, 'boc', budget);
    }
    if (typeof value === 'object' && value !== null) {
      if (Object.prototype.hasOwnProperty.call(value, 'bytes')) return parseBoc(own(value, 'bytes'), 'boc', budget);
      return cellFromLegacyObject(value, budget);
    }
  } catch (error) {
    if (error instanceof TonInputError) throw new StackParseError(path, entry, error.reason);
    if (error instanceof CellObjectError || error instanceof SyntaxError) throw new StackParseError(path, entry, error.message);
    throw error;
  }
  throw new StackParseError(path, entry, 'expected a base64 BoC, {bytes} or a cell object');
}

/**
 * Cells TVM can take as arguments. A pruned branch (or a cell above one) has a non-zero level, which no
 * stack may hold (the emulator refuses the whole stack); an exotic cell can be passed as a cell (a
 * library cell is resolved when the code loads it) but not read as a slice or builder (the emulator
 * fails outright on one).
 */
function argumentCell(kind: 'cell' | 'slice' | 'builder', cell: Cell, entry: unknown, path: string): Cell {
  if (cell.level() > 0) throw new StackParseError(path, entry, 'a pruned branch (or a cell holding one) cannot be a get-method argument');
  if (kind !== 'cell' && cell.isExotic)
    throw new StackParseError(path, entry, `an exotic cell (library or pruned branch) cannot be passed as a ${kind}`);
  return cell;
}

function parseElements(value: unknown, entry: unknown, path: string, depth: number, walk: Walk): TupleItem[] {
  const elements = typeof value === 'object' && value !== null && !Array.isArray(value) ? own(value, 'elements') : value;
  if (!Array.isArray(elements)) throw new StackParseError(path, entry, 'expected an elements array');
  if (elements.length > TUPLE_MAX_ITEMS)
    throw new StackParseError(path, `[${elements.length} elements]`, `more than ${TUPLE_MAX_ITEMS} elements`);
  return elements.map((item, i) => parseEntry(item, `${path}.elements[${i}]`, depth + 1, walk));
}

/** [a, b, c] -> (a, (b, (c, null))), the TVM list layout. */
function listToPairs(items: TupleItem[]): TupleItem {
  let list: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) list = { type: 'tuple', items: [items[i], list] };
  return list;
}
