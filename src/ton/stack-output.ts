/**
 * Get-method results in the three shapes the APIs answer with, from the VmValue[] of vm-stack.ts.
 *
 * tonlib (what toncenter runs on) first turns each value into a typed entry:
 *   int -> tvm.stackEntryNumber (decimal); cell AND slice -> tvm.stackEntryCell (a slice becomes the
 *   cell of its visible part); null -> an empty tvm.stackEntryList; a tuple that is a list (tonlib's
 *   is_list: null, or a pair whose second item is a list) -> tvm.stackEntryList of its items;
 *   any other tuple -> tvm.stackEntryTuple; NaN, builders, continuations -> tvm.stackEntryUnsupported.
 * v2 runGetMethodStd answers those typed entries. v2 runGetMethod answers the legacy top level
 * (tvm_valuetypes' serialize_tvm_stack), nested entries staying typed:
 *   ["num","0x7b"] ("-0x7b" negative) | ["cell",{"bytes","object"}] | ["list"|"tuple",{"@type","elements"}]
 *   | ["unsupported",""]
 * v3 runGetMethod answers what the index derives from the legacy stack:
 *   {type:"num",value:"0x7b"} | {type:"cell",value:b64} | {type:"list"|"tuple",value:[...]}.
 */
import type { Cell } from '@ton/core';
import { bocBase64 } from './boc.js';
import { LEGACY_OBJECT_MAX_NODES, legacyCellObject, type LegacyCellObject, type NodeBudget } from './cell-object.js';
import type { VmValue } from './vm-stack.js';

export type TypedStackEntry =
  | { '@type': 'tvm.stackEntryNumber'; number: { '@type': 'tvm.numberDecimal'; number: string } }
  | { '@type': 'tvm.stackEntryCell'; cell: { '@type': 'tvm.cell'; bytes: string } }
  | { '@type': 'tvm.stackEntryList'; list: TvmList }
  | { '@type': 'tvm.stackEntryTuple'; tuple: TvmTuple }
  | { '@type': 'tvm.stackEntryUnsupported' };

export interface TvmList {
  '@type': 'tvm.list';
  elements: TypedStackEntry[];
}

export interface TvmTuple {
  '@type': 'tvm.tuple';
  elements: TypedStackEntry[];
}

export type LegacyStackEntry =
  ['num', string] | ['cell', { bytes: string; object?: LegacyCellObject }] | ['list', TvmList] | ['tuple', TvmTuple] | ['unsupported', ''];

export type V3StackEntry =
  | { type: 'num'; value: string }
  | { type: 'cell'; value: string }
  | { type: 'list' | 'tuple'; value: V3StackEntry[] }
  | { type: 'unsupported'; value: null };

/** Python hex(): lowercase, `0x0`, `-0x7b`. Read back by tonweb (always as hex) and TonClient. */
export function formatTvmInt(value: bigint): string {
  return value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;
}

/** tonlib's is_list: null, or a 2-tuple whose second item is a list. Iterative: lists may be long. */
function isList(value: VmValue): boolean {
  let current = value;
  for (;;) {
    if (current.type === 'null') return true;
    if (current.type !== 'tuple' || current.items.length !== 2) return false;
    current = current.items[1];
  }
}

/** The items of a list value (see isList): [a, [b, null]] -> [a, b]. */
function listItems(value: VmValue): VmValue[] {
  const items: VmValue[] = [];
  let current = value;
  while (current.type === 'tuple') {
    items.push(current.items[0]);
    current = current.items[1];
  }
  return items;
}

/** What a value is once tonlib has classified it; the three renderings below switch on this. */
type Shape =
  { kind: 'num'; value: bigint } | { kind: 'cell'; cell: Cell } | { kind: 'list' | 'tuple'; items: VmValue[] } | { kind: 'unsupported' };

function shapeOf(value: VmValue): Shape {
  switch (value.type) {
    case 'int':
      return { kind: 'num', value: value.value };
    case 'cell':
    case 'slice':
      return { kind: 'cell', cell: value.cell };
    case 'null':
      return { kind: 'list', items: [] };
    case 'tuple':
      return isList(value) ? { kind: 'list', items: listItems(value) } : { kind: 'tuple', items: value.items };
    default:
      return { kind: 'unsupported' };
  }
}

/** One value as a tonlib typed entry (runGetMethodStd, and nested elements of the legacy stack). */
export function typedStackEntry(value: VmValue): TypedStackEntry {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'num':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: shape.value.toString() } };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bocBase64(shape.cell) } };
    case 'list':
      return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: shape.items.map(typedStackEntry) } };
    case 'tuple':
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: shape.items.map(typedStackEntry) } };
    case 'unsupported':
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

/** v2 runGetMethodStd stack. */
export function typedStack(values: VmValue[]): TypedStackEntry[] {
  return values.map(typedStackEntry);
}

/**
 * Cell-object nodes written for one whole stack. The objects repeat shared subcells, so without a
 * shared budget 255 small DAG cells passed in and returned by a get-method would each expand to the
 * per-cell maximum (255 x 4,096 nodes: a 60 MB answer and half a second of the HTTP thread). Past the
 * budget the remaining cells carry `bytes` only, which every client reads.
 */
export const LEGACY_STACK_MAX_NODES = 16_384;

/** One top-level value in the legacy runGetMethod form; `budget` is shared by the entries of one stack. */
export function legacyStackEntry(value: VmValue, budget: NodeBudget = { nodes: LEGACY_OBJECT_MAX_NODES }): LegacyStackEntry {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'num':
      return ['num', formatTvmInt(shape.value)];
    case 'cell': {
      const bytes = bocBase64(shape.cell);
      const object = legacyCellObject(shape.cell, budget);
      return ['cell', object === null ? { bytes } : { bytes, object }];
    }
    case 'list':
      return ['list', { '@type': 'tvm.list', elements: shape.items.map(typedStackEntry) }];
    case 'tuple':
      return ['tuple', { '@type': 'tvm.tuple', elements: shape.items.map(typedStackEntry) }];
    case 'unsupported':
      return ['unsupported', ''];
  }
}

/** v2 runGetMethod stack. */
export function legacyStack(values: VmValue[]): LegacyStackEntry[] {
  const budget: NodeBudget = { nodes: LEGACY_STACK_MAX_NODES };
  return values.map((value) => legacyStackEntry(value, budget));
}

/** One value in the v3 runGetMethod form. */
export function v3StackEntry(value: VmValue): V3StackEntry {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'num':
      return { type: 'num', value: formatTvmInt(shape.value) };
    case 'cell':
      return { type: 'cell', value: bocBase64(shape.cell) };
    case 'list':
    case 'tuple':
      return { type: shape.kind, value: shape.items.map(v3StackEntry) };
    case 'unsupported':
      return { type: 'unsupported', value: null };
  }
}

/** v3 runGetMethod stack. */
export function v3Stack(values: VmValue[]): V3StackEntry[] {
  return values.map(v3StackEntry);
}
