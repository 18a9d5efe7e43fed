/**
 * The legacy "cell object" of toncenter's runGetMethod (tvm_valuetypes' serialize_to_object):
 *   {"data": {"b64": <data bytes, zero-padded>, "len": <bits>}, "refs": [<cell object>...], "special": bool}
 * It is written next to `bytes` in ["cell", {...}] stack entries, and old clients send it back as a
 * `cell`/`slice` argument (Python clients as a JSON string of it).
 */
import { beginCell, BitString, Cell } from '@ton/core';
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

/** The object tree of a cell, or null when it would exceed `maxNodes`. */
export function legacyCellObject(cell: Cell, maxNodes = LEGACY_OBJECT_MAX_NODES): LegacyCellObject | null {
  let budget = maxNodes;
  const build = (c: Cell): LegacyCellObject | null => {
    if (--budget < 0) return null;
    const refs: LegacyCellObject[] = [];
    for (const ref of c.refs) {
      const child = build(ref);
      if (child === null) return null;
      refs.push(child);
    }
    return { data: { b64: cellDataBytes(c).toString('base64'), len: c.bits.length }, refs, special: c.isExotic };
  };
  return build(cell);
}

/** Why a client's cell object was refused (the caller wraps it into its own typed error). */
export class CellObjectError extends Error {}

const MAX_DEPTH = 1024;

/** Rebuilds an ordinary cell from a legacy object tree. Exotic ("special") cells are refused. */
export function cellFromLegacyObject(object: unknown, depth = 0): Cell {
  if (depth > MAX_DEPTH) throw new CellObjectError('cell object nested too deep');
  if (typeof object !== 'object' || object === null) throw new CellObjectError('cell object must be an object');
  const { data, refs, special } = object as Partial<Record<keyof LegacyCellObject, unknown>>;
  if (special === true) throw new CellObjectError('special (exotic) cells cannot be given as objects');
  if (typeof data !== 'object' || data === null) throw new CellObjectError('cell object needs data {b64, len}');
  const { b64, len } = data as { b64?: unknown; len?: unknown };
  if (typeof b64 !== 'string' || typeof len !== 'number' || !Number.isInteger(len) || len < 0 || len > 1023) {
    throw new CellObjectError('cell object data needs b64 (string) and len (0..1023 bits)');
  }
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length * 8 < len) throw new CellObjectError(`cell object data holds ${bytes.length * 8} bits, len says ${len}`);
  const children = refs === undefined ? [] : refs;
  if (!Array.isArray(children) || children.length > 4) throw new CellObjectError('cell object refs must be an array of at most 4');
  const builder = beginCell().storeBits(new BitString(bytes, 0, len));
  for (const child of children) builder.storeRef(cellFromLegacyObject(child, depth + 1));
  return builder.endCell();
}
