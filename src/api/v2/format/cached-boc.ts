/**
 * The base64 BoC of a cell, kept per cell object. Serializing a wallet's code takes ~0.1 ms, most of an
 * account read; the chain hands out the same Cell objects until the account changes (its parsed view
 * is cached), and cells are immutable, so the text can be kept as long as the cell lives.
 */
import type { Cell } from '@ton/core';
import { bocBase64 } from '../../../ton/boc.js';

const texts = new WeakMap<Cell, string>();

export function cachedBocBase64(cell: Cell): string {
  let text = texts.get(cell);
  if (text === undefined) {
    text = bocBase64(cell);
    texts.set(cell, text);
  }
  return text;
}
