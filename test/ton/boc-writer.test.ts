/**
 * boc-writer.ts: a BoC written with its cells told apart by identity is @ton/core's own BoC of the tree, when equal
 * cells are one object (cells read from one BoC, and a fresh root over them); told apart by hash, for any tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell } from '@ton/core';
import { originalSerializeBoc } from '../../src/ton/core-speedups.js';
import { byHash, byIdentity, writeBoc } from '../../src/ton/boc-writer.js';
import { bocBase64 } from '../../src/ton/boc.js';

const OPTIONS = [
  { idx: false, crc32: false },
  { idx: false, crc32: true },
  { idx: true, crc32: true },
];

/** Random trees built cell by cell: equal subtrees often built twice (distinct objects), and shared ones. */
function randomTrees(count: number, seed: number): Cell[] {
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const trees: Cell[] = [];
  for (let t = 0; t < count; t++) {
    const pool: Cell[] = [];
    for (let i = 0, size = 1 + random(t % 5 === 4 ? 400 : 40); i < size; i++) {
      const b = beginCell();
      // Few bits and few shapes, so equal cells are built again and again as distinct objects.
      const bits = random(3) === 0 ? random(900) : random(4);
      for (let k = 0; k < bits; k++) b.storeBit(random(2));
      for (let r = 0, refs = pool.length === 0 ? 0 : random(5); r < refs; r++)
        b.storeRef(pool[pool.length - 1 - random(Math.min(pool.length, 8))]);
      pool.push(b.endCell());
    }
    trees.push(pool[pool.length - 1]);
  }
  return trees;
}

test('cells read from one BoC, told apart by identity: the BoC @ton/core writes, byte for byte', () => {
  let withEqualObjects = 0;
  for (const built of randomTrees(60, 26)) {
    const read = Cell.fromBoc(originalSerializeBoc!(built, { idx: false, crc32: false }))[0];
    for (const opts of OPTIONS) {
      const theirs = originalSerializeBoc!(built, opts);
      assert.ok(writeBoc(read, opts, byIdentity).equals(theirs), JSON.stringify(opts));
      assert.ok(writeBoc(built, opts, byHash).equals(theirs), JSON.stringify(opts));
    }
    // A fresh root over the cells read (an inline body or StateInit): still one object per cell.
    const root = new Cell({ bits: read.bits, refs: read.refs });
    assert.ok(writeBoc(root, OPTIONS[1], byIdentity).equals(originalSerializeBoc!(root, OPTIONS[1])));
    assert.equal(bocBase64(root, true), bocBase64(root));
    if (!writeBoc(built, OPTIONS[0], byIdentity).equals(originalSerializeBoc!(built, OPTIONS[0]))) withEqualObjects++;
  }
  // The rule is needed: a tree built with equal cells as distinct objects is written otherwise by identity.
  assert.ok(withEqualObjects > 0, `${withEqualObjects} trees differ by identity`);
  const twin = () => beginCell().storeUint(0xabc, 12).endCell();
  const built = beginCell().storeRef(twin()).storeRef(twin()).endCell();
  assert.ok(!writeBoc(built, OPTIONS[1], byIdentity).equals(originalSerializeBoc!(built, OPTIONS[1])));
  const read = Cell.fromBoc(originalSerializeBoc!(built, OPTIONS[1]))[0];
  assert.ok(writeBoc(read, OPTIONS[1], byIdentity).equals(originalSerializeBoc!(built, OPTIONS[1])));
});

test('the empty cell and a tree of one cell', () => {
  for (const cell of [Cell.EMPTY, beginCell().storeUint(7, 3).endCell(), Cell.fromBoc(beginCell().endCell().toBoc())[0]]) {
    for (const opts of OPTIONS) assert.ok(writeBoc(cell, opts, byIdentity).equals(originalSerializeBoc!(cell, opts)));
    assert.equal(bocBase64(cell, true), bocBase64(cell));
  }
});
