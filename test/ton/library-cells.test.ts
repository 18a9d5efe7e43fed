/**
 * Library cells in a code tree (src/ton/library-cells.ts): found at the root or deep in it, each library once, ordinary
 * cells and other exotic cells (a pruned branch) not taken for one; the dictionary the emulator takes reads back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { libraryDictionary, libraryHashesIn, libraryHashOf } from '../../src/ton/library-cells.js';
import { libraryCell } from '../support/library-contracts.js';

const code = (n: number) => beginCell().storeUint(n, 32).endCell();

test('library cells are found at the root and deep in a tree, each once; other cells are not libraries', () => {
  const [a, b] = [code(1), code(2)];
  assert.ok(libraryHashOf(libraryCell(a)).equals(a.hash()));
  assert.deepEqual([...libraryHashesIn([libraryCell(a)]).keys()], [a.hash().toString('hex')], 'a code that is a library cell');
  const deep = beginCell()
    .storeUint(7, 8)
    .storeRef(beginCell().storeRef(libraryCell(b)).storeRef(libraryCell(a)).endCell())
    .storeRef(libraryCell(a))
    .endCell();
  const found = libraryHashesIn([deep, null, undefined, libraryCell(b)]);
  assert.deepEqual([...found.keys()].sort(), [a, b].map((c) => c.hash().toString('hex')).sort());
  assert.ok(found.get(b.hash().toString('hex'))!.equals(b.hash()));
  assert.equal(libraryHashesIn([beginCell().storeRef(a).storeRef(b).endCell()]).size, 0, 'ordinary cells name no library');
  // A pruned branch (exotic type 1) is no library cell.
  const pruned = new Cell({
    exotic: true,
    bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(a.hash()).storeUint(0, 16).endCell().bits,
  });
  assert.equal(libraryHashesIn([pruned]).size, 0);
});

test('the library dictionary is keyed by hash, each value the library itself', () => {
  const libs = new Map([code(3), code(4)].map((c) => [c.hash().toString('hex'), c]));
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), Cell.fromBase64(libraryDictionary(libs)));
  assert.equal(dict.size, 2);
  for (const [hex, cell] of libs) assert.ok(dict.get(Buffer.from(hex, 'hex'))!.equals(cell));
});
