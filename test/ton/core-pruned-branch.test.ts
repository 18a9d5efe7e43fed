import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { beginCell, Cell } from '@ton/core';
import { withPrunedBranchFix } from '../../src/ton/core-pruned-branch.js';

/** A pruned branch with level mask 0b10 (a gap at level 1): one stored hash and depth, as TON writes it. */
function prunedWithGap(hash: Buffer, depth: number) {
  return beginCell().storeUint(1, 8).storeUint(0b10, 8).storeBuffer(hash).storeUint(depth, 16);
}

test('a pruned branch whose level mask has a gap: @ton/core refuses it; under the fix it stands for the hash it stores', () => {
  const hash = randomBytes(32);
  assert.throws(() => prunedWithGap(hash, 7).endCell({ exotic: true }), /out of bounds/);
  const cell = withPrunedBranchFix(() => prunedWithGap(hash, 7).endCell({ exotic: true }));
  assert.ok(cell.isExotic);
  assert.deepEqual(cell.hash(0), hash);
  assert.equal(cell.depth(0), 7);
  // Its BoC reads back under the fix, and the fix is gone afterwards (the rest of the process keeps @ton/core's rules).
  const boc = cell.toBoc();
  assert.deepEqual(withPrunedBranchFix(() => Cell.fromBoc(boc))[0].hash(0), hash);
  assert.throws(() => Cell.fromBoc(boc), /out of bounds/);
  // Masks without gaps are @ton/core's own business, unchanged.
  const level1 = beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(hash).storeUint(3, 16).endCell({ exotic: true });
  assert.deepEqual(withPrunedBranchFix(() => Cell.fromBoc(level1.toBoc()))[0].hash(0), hash);
});
