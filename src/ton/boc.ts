/**
 * Bags of cells as they travel in JSON: base64 strings. toncenter writes BoCs with a CRC32C and no
 * index (`te6cck...`), as tonlib does; clients send standard or url-safe base64.
 */
import { Cell } from '@ton/core';
import { BocParseError } from './errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes a base64 BoC with exactly one root cell. `subject` names the parameter in the error
 * (`boc`, `body`, `init_code`, ...). Whitespace is ignored (some encoders wrap lines).
 */
export function parseBoc(input: unknown, subject = 'boc'): Cell {
  if (typeof input !== 'string') throw new BocParseError(input, 'a BoC must be a base64 string', subject);
  const text = input.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (text.length === 0) throw new BocParseError(input, 'empty boc', subject);
  if (!BASE64.test(text)) throw new BocParseError(input, 'not base64', subject);
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(Buffer.from(text, 'base64'));
  } catch (error) {
    throw new BocParseError(input, `not a valid bag of cells: ${error instanceof Error ? error.message : String(error)}`, subject);
  }
  if (roots.length !== 1) throw new BocParseError(input, `expected one root cell, got ${roots.length}`, subject);
  return roots[0];
}

/** The base64 BoC toncenter writes for a cell: CRC32C, no index. */
export function bocBase64(cell: Cell): string {
  return cell.toBoc({ idx: false, crc32: true }).toString('base64');
}
