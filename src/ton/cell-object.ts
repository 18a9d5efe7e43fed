/**
 * The legacy "cell object" of toncenter's runGetMethod (tvm_valuetypes' serialize_to_object):
 *   {"data": {"b64": <data bytes, zero-padded>, "len": <bits>}, "refs": [<cell object>...], "special": bool}
 * It is written next to `bytes` in ["cell", {...}] stack entries, and old clients send it back as a
 * `cell`/`slice` argument (Python clients as a JSON string of it).
 */
import { beginCell, BitString, Cell } from '@ton/core';
import { BOC_MAX_DEPTH, bocBudget, overBudget, type BocBudget } from './boc.js';
import { cellDataBytes } from './cell-data.js';

export interface LegacyCellObject {
  data: { b64: string; len: number };
  refs: LegacyCellObject[];
  special: boolean;
}

/**
 * Most nodes one object may expand to. The tree repeats shared subcells (a BoC is a DAG), so a small
 * hostile result could expand exponentially; past this budget the object is left out (the spec makes
 * it optional: clients read `bytes`).
 */
export const LEGACY_OBJECT_MAX_NODES = 4096;

/** Nodes still to spend; one budget may be shared by the cells of one answer. */
export interface NodeBudget {
  nodes: number;
}

/**
 * The object tree of a cell, or null when it would take more than the per-cell maximum or what is left
 * of `budget`. A tree that does not fit spends what it visited: the work per answer stays bounded.
 */
export function legacyCellObject(cell: Cell, budget: NodeBudget = { nodes: LEGACY_OBJECT_MAX_NODES }): LegacyCellObject | null {
  let left = Math.min(LEGACY_OBJECT_MAX_NODES, budget.nodes);
  const start = left;
  const build = (c: Cell): LegacyCellObject | null => {
    if (--left < 0) return null;
    const refs: LegacyCellObject[] = [];
    for (const ref of c.refs) {
      const child = build(ref);
      if (child === null) return null;
      refs.push(child);
    }
    return { data: { b64: cellDataBytes(c).toString('base64'), len: c.bits.length }, refs, special: c.isExotic };
  };
  const object = build(cell);
  budget.nodes -= Math.min(start, start - left);
  return object;
}

/** Why a client's cell object was refused (the caller wraps it into its own typed error). */
export class CellObjectError extends Error {}

/** Cells nested deeper than this are refused (TON's own limit for message cells, as for BoCs). */
const MAX_DEPTH = BOC_MAX_DEPTH;

/**
 * Rebuilds an ordinary cell from a legacy object tree. Exotic ("special") cells are refused. The
 * tree's nodes are counted first, without recursion and stopping at the budget, so an object with more
 * cells than `budget` allows costs nothing to refuse; the nodes and their data are then charged to it.
 */
export function cellFromLegacyObject(object: unknown, budget: BocBudget = bocBudget()): Cell {
  const nodes = countNodes(object, budget.cells);
  if (nodes > budget.cells) throw new CellObjectError(`cell object holds ${overBudget(budget, 'cells')}`);
  budget.cells -= nodes;
  return build(object, 0, budget);
}

/** Nodes of the tree under `object`, counted up to `limit` + 1 (no further). */
function countNodes(object: unknown, limit: number): number {
  let count = 0;
  const pending: unknown[] = [object];
  while (pending.length > 0 && count <= limit) {
    const node = pending.pop();
    count++;
    const refs = typeof node === 'object' && node !== null ? (node as { refs?: unknown }).refs : undefined;
    if (Array.isArray(refs)) for (let i = 0; i < refs.length && i < 5; i++) pending.push(refs[i]);
  }
  return count;
}

function build(object: unknown, depth: number, budget: BocBudget): Cell {
  if (depth > MAX_DEPTH) throw new CellObjectError(`cell object nested deeper than ${MAX_DEPTH} levels`);
  if (typeof object !== 'object' || object === null) throw new CellObjectError('cell object must be an object');
  const { data, refs, special } = object as Partial<Record<keyof LegacyCellObject, unknown>>;
  if (special === true) throw new CellObjectError('special (exotic) cells cannot be given as objects');
  if (typeof data !== 'object' || data === null) throw new CellObjectError('cell object needs data {b64, len}');
  const { b64, len } = data as { b64?: unknown; len?: unknown };
  if (typeof b64 !== 'string' || typeof len !== 'number' || !Number.isInteger(len) || len < 0 || len > 1023) {
    throw new CellObjectError('cell object data needs b64 (string) and len (0..1023 bits)');
  }
  // 128 bytes hold 1023 bits; a longer text is not a cell's data (and is not decoded).
  if (b64.length > 176) throw new CellObjectError('cell object data b64 is longer than a cell holds');
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length * 8 < len) throw new CellObjectError(`cell object data holds ${bytes.length * 8} bits, len says ${len}`);
  budget.bytes -= Math.ceil(len / 8) + 2;
  if (budget.bytes < 0) throw new CellObjectError(`cell objects are ${overBudget(budget, 'bytes')}`);
  const children = refs === undefined ? [] : refs;
  if (!Array.isArray(children) || children.length > 4) throw new CellObjectError('cell object refs must be an array of at most 4');
  const builder = beginCell().storeBits(new BitString(bytes, 0, len));
  for (const child of children) builder.storeRef(build(child, depth + 1, budget));
  return builder.endCell();
}
