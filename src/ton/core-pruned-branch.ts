/**
 * A fix for @ton/core (0.63.1, the newest): it reads a pruned branch cell's stored hashes as if there were one
 * per level up to the cell's level, but TON stores one per *significant* level below it
 * (`mask.apply(level - 1).hashCount`, which the same function uses to check the cell's size). A pruned branch
 * whose level mask skips a level (mask 0b10: pruned inside a Merkle update inside a Merkle proof) then fails
 * with "Offset + Length = 528 is out of bounds". Liteservers send such cells in every proof of a basechain
 * account (liteServer.getAccountState), so without this no such proof can even be parsed.
 *
 * @ton/core's cell constructor (resolveExotic) and hashing (wonderCalculator) call `exoticPruned` through its
 * module's exports at each call, so replacing the export reaches them. It is replaced only for the duration of
 * one synchronous parse (`withPrunedBranchFix`): the rest of the process (client BoCs, the fuzz suite's exotic
 * cells) keeps @ton/core's own behaviour, and cells built under the fix carry their hashes from then on.
 */
import { createRequire } from 'node:module';
import { BitReader, type BitString } from '@ton/core';

const require = createRequire(import.meta.url);

interface LevelMaskLike {
  value: number;
  level: number;
  apply(level: number): { hashCount: number };
}

interface PrunedModule {
  exoticPruned?: (bits: BitString, refs: unknown[]) => { mask: number; pruned: Array<{ depth: number; hash: Buffer }> };
}

let module: PrunedModule | undefined;
let original: PrunedModule['exoticPruned'];
let fixed: PrunedModule['exoticPruned'];

function prepare(): boolean {
  let LevelMask: new (mask: number) => LevelMaskLike;
  try {
    module = require('@ton/core/dist/boc/cell/exoticPruned.js') as PrunedModule;
    LevelMask = (require('@ton/core/dist/boc/cell/LevelMask.js') as { LevelMask: typeof LevelMask }).LevelMask;
  } catch {
    return false;
  }
  original = module.exoticPruned;
  if (typeof original !== 'function') return false;
  const slow = original;
  fixed = (bits, refs) => {
    const original = slow;
    // 280 bits: @ton/core's special case of a maskless level-1 cell; the original handles it (and every mask
    // without gaps) correctly.
    if (bits.length === 280) return original(bits, refs);
    const reader = new BitReader(bits);
    if (reader.loadUint(8) !== 1) return original(bits, refs);
    const mask = new LevelMask(reader.loadUint(8));
    if (mask.level < 1 || mask.level > 3 || refs.length !== 0) return original(bits, refs);
    const count = mask.apply(mask.level - 1).hashCount;
    if (count === mask.level) return original(bits, refs);
    if (bits.length !== 16 + count * (256 + 16)) return original(bits, refs);
    const hashes: Buffer[] = [];
    for (let i = 0; i < count; i++) hashes.push(reader.loadBuffer(32));
    const pruned = hashes.map((hash) => ({ hash, depth: reader.loadUint(16) }));
    return { mask: mask.value, pruned };
  };
  return true;
}

const available = prepare();

/** Runs `parse` (synchronous: a Cell.fromBoc) with the fix in place. */
export function withPrunedBranchFix<T>(parse: () => T): T {
  if (!available || !module || !fixed) return parse();
  module.exoticPruned = fixed;
  try {
    return parse();
  } finally {
    module.exoticPruned = original;
  }
}
