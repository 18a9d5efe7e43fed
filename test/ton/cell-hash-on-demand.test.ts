/**
 * hashCellsOnDemand (core-speedups.ts): a thread that switches it on hashes a level-0 ordinary cell when its hash is
 * first read. Each test file runs in a process of its own, so the switch stays in this file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell } from '@ton/core';
import { cellWithKnownHash, hashCellsOnDemand } from '../../src/ton/core-speedups.js';

/** Trees with shared subtrees and cells of every size, built (so hashed) before the switch. */
function trees(): Cell[] {
  let seed = 26;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const roots: Cell[] = [];
  for (let t = 0; t < 20; t++) {
    const pool: Cell[] = [];
    for (let i = 0, size = 1 + random(60); i < size; i++) {
      const b = beginCell();
      for (let k = 0, bits = random(3) === 0 ? random(1024) : random(70); k < bits; k++) b.storeBit(random(2));
      for (let r = 0, refs = pool.length === 0 ? 0 : random(5); r < refs; r++)
        b.storeRef(pool[pool.length - 1 - random(Math.min(pool.length, 8))]);
      pool.push(b.endCell());
    }
    roots.push(pool[pool.length - 1]);
  }
  return roots;
}

const describe = (cell: Cell): string =>
  `${cell.depth()}:${[0, 1, 2, 3].map((level) => cell.hash(level).toString('hex')).join('/')}:${cell.refs.map(describe).join(',')}`;

test('cells read from a BoC and built after the switch have the hashes, depths and BoCs they had before it', () => {
  const before = trees();
  const expected = before.map(describe);
  const bocs = before.map((root) => root.toBoc({ idx: false, crc32: true }));
  hashCellsOnDemand();

  const read = bocs.map((boc) => Cell.fromBoc(boc)[0]);
  assert.deepEqual(read.map(describe), expected);
  // Serializing orders cells by their hashes: a fresh read, hashed first by toBoc itself.
  assert.deepEqual(
    bocs.map((boc) => Cell.fromBoc(boc)[0].toBoc({ idx: false, crc32: true }).toString('base64')),
    bocs.map((boc) => boc.toString('base64')),
  );
  // Built again from the same bits and references, a root's hash read first (its subtree's hashes computed then).
  const rebuild = (cell: Cell): Cell => new Cell({ bits: cell.bits, refs: cell.refs.map(rebuild) });
  const rebuilt = before.map(rebuild);
  assert.deepEqual(
    rebuilt.map((cell) => cell.hash().toString('hex')),
    before.map((cell) => cell.hash().toString('hex')),
  );
  assert.deepEqual(rebuilt.map(describe), expected);
  assert.ok(read[0].equals(before[0]) && !read[0].equals(read[1]));

  // A hash handed over is still taken as it is (not computed on demand).
  const known = Buffer.alloc(32, 7);
  assert.ok(
    cellWithKnownHash(before[1].bits, [...before[1].refs], known)
      .hash()
      .equals(known),
  );
  // The empty cell's hash is TON's.
  assert.equal(new Cell().hash().toString('hex'), '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7');
});
