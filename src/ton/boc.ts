/**
 * Bags of cells as they travel in JSON: base64 strings. toncenter writes BoCs with a CRC32C and no
 * index (`te6cck...`), as tonlib does; clients send standard or url-safe base64.
 *
 * A BoC from a client is checked before @ton/core builds a single cell (boc-shape.ts): its size, its
 * cell count and every reference index, so a hostile bag costs no more than a legitimate one and a
 * malformed one is refused in our words, never with a JavaScript error from inside the library.
 */
import type { Cell } from '@ton/core';
import { tonCore } from './core-module.js';
import { inspectBoc } from './boc-shape.js';
import { byIdentity, writeBoc } from './boc-writer.js';
import { BocParseError } from './errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What the BoCs of one request may hold together (every BoC parameter and every cell of a get-method
 * stack share one budget).
 *  - 65,535 bytes and depth 512: TON's own limits for an external message (config param 43 defaults
 *    `max_ext_msg_size`, `max_ext_msg_depth`; validators drop bigger ones); a liteserver refuses
 *    get-method arguments of 64 KiB or more too.
 *  - 1,024 cells: ours. TON allows 8,192 cells in a message (`max_msg_cells`), but BoCs are decoded on
 *    the thread that serves HTTP, and each cell costs again where the request goes on (a get-method's
 *    stack is serialized, its result decoded and written back): ~50 us per cell end to end here, so
 *    1,024 cells keep the worst request near 50 ms. A 64 KiB message of real cells holds a few hundred.
 */
export const BOC_MAX_BYTES = 65_535;
export const BOC_MAX_CELLS = 1_024;
export const BOC_MAX_DEPTH = 512;

/** What is left to spend, and the limits it started from; one budget may be shared by several BoCs. */
export interface BocBudget {
  bytes: number;
  cells: number;
  readonly maxBytes: number;
  readonly maxCells: number;
}

export const bocBudget = (maxCells = BOC_MAX_CELLS): BocBudget => ({
  bytes: BOC_MAX_BYTES,
  cells: maxCells,
  maxBytes: BOC_MAX_BYTES,
  maxCells,
});

/** The words for a budget crossed: "more than 1024 cells", "... in all" once something was spent. */
export function overBudget(budget: BocBudget, what: 'cells' | 'bytes'): string {
  const [max, left] = what === 'cells' ? [budget.maxCells, budget.cells] : [budget.maxBytes, budget.bytes];
  return `${what === 'cells' ? 'more than' : 'larger than'} ${max} ${what}${left < max ? ' in all' : ''}`;
}

/**
 * Decodes a base64 BoC with exactly one root cell. `subject` names the parameter in the error
 * (`boc`, `body`, `init_code`, ...). Whitespace is ignored (some encoders wrap lines). The BoC's
 * bytes and cells are taken from `budget` (a fresh one by default) before anything is built.
 */
export function parseBoc(input: unknown, subject = 'boc', budget: BocBudget = bocBudget()): Cell {
  if (typeof input !== 'string') throw new BocParseError(input, 'a BoC must be a base64 string', subject);
  // Four base64 characters per three bytes: refuse an oversized text before cleaning or decoding it.
  if (input.length > (Math.ceil(budget.bytes / 3) + 1) * 4 * 2) throw tooBig(input, subject, budget);
  const text = input.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (text.length === 0) throw new BocParseError(input, 'empty boc', subject);
  if (!BASE64.test(text)) throw new BocParseError(input, 'not base64', subject);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > budget.bytes) throw tooBig(input, subject, budget);
  const shape = inspectBoc(bytes);
  if (typeof shape === 'string') throw new BocParseError(input, `not a valid bag of cells: ${shape}`, subject);
  if (shape.roots !== 1) throw new BocParseError(input, `expected one root cell, got ${shape.roots}`, subject);
  if (shape.cells > budget.cells) {
    throw new BocParseError(input, `${overBudget(budget, 'cells')} (this one holds ${shape.cells})`, subject);
  }
  budget.bytes -= bytes.length;
  budget.cells -= shape.cells;
  let root: Cell;
  try {
    root = tonCore().Cell.fromBoc(bytes)[0];
  } catch (error) {
    // The shape was checked, so what is left is about cell contents (a malformed exotic cell, a bad CRC).
    throw new BocParseError(input, `not a valid bag of cells: ${libraryReason(error)}`, subject);
  }
  if (root.depth() > BOC_MAX_DEPTH)
    throw new BocParseError(input, `cells nested deeper than ${BOC_MAX_DEPTH} levels (depth ${root.depth()})`, subject);
  clientBytes.set(root, bytes);
  return root;
}

/** The bytes a client sent for each cell parseBoc returned (kept so they are not serialized again). */
const clientBytes = new WeakMap<Cell, Buffer>();

/** The BoC of a cell: the client's own bytes when it came from parseBoc, else a fresh serialization. */
export function bocBytes(cell: Cell): Buffer {
  return clientBytes.get(cell) ?? cell.toBoc();
}

function tooBig(input: string, subject: string, budget: BocBudget): BocParseError {
  return new BocParseError(input, overBudget(budget, 'bytes'), subject);
}

/** @ton/core's own words when they are about the BoC ("Invalid CRC32C"); never a JavaScript engine message. */
function libraryReason(error: unknown): string {
  if (error instanceof Error && error.constructor === Error && error.message.length < 200) return error.message;
  return 'malformed cell';
}

/**
 * The base64 BoC toncenter writes for a cell: CRC32C, no index. `uniqueCells`: no two cells of the tree are equal
 * unless they are one object (read from one BoC of the emulator's or @ton/core's, which merge equal cells:
 * boc-writer.ts), so they are told apart without reading their hashes; the same bytes.
 */
export function bocBase64(cell: Cell, uniqueCells = false): string {
  if (cell === tonCore().Cell.EMPTY) return (emptyBoc ??= serialize(cell));
  return uniqueCells ? writeBoc(cell, BOC_OPTIONS, byIdentity).toString('base64') : serialize(cell);
}

const BOC_OPTIONS = { idx: false, crc32: true };

const serialize = (cell: Cell) => cell.toBoc(BOC_OPTIONS).toString('base64');
/** The empty cell's BoC (every empty message body's), serialized once. */
let emptyBoc: string | undefined;
