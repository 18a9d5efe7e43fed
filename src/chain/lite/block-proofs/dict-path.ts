/**
 * One key of a TL-B hashmap, found by walking only its path. A Merkle proof keeps the path to the keys it proves
 * and prunes the rest, so a whole-dictionary parser (@ton/core's Dictionary) cannot read it; this walk opens only
 * the cells on the way, and a pruned cell there means the proof does not cover the key it claims to.
 */
import type { Cell, Slice } from '@ton/core';
import { LiteDataError } from '../errors.js';

/**
 * The leaf of `key` (its value, with any augmentation first, left in the slice) in the hashmap whose root edge is
 * `root` (a Hashmap n X, or the reference of a non-empty HashmapE/HashmapAugE); undefined when the key is absent.
 */
export function hashmapLookup(root: Cell, key: bigint, keyBits: number, what: string): Slice | undefined {
  let node = open(root, what);
  let remaining = keyBits;
  let pos = 0;
  const bit = (i: number) => ((key >> BigInt(keyBits - 1 - i)) & 1n) === 1n;
  for (;;) {
    const label = readLabel(node, remaining);
    for (const b of label) {
      if (b !== bit(pos)) return undefined; // the path leaves the key: no such entry
      pos++;
    }
    remaining -= label.length;
    if (remaining === 0) return node;
    // Fork: left (0) and right (1) children (an augmented fork's extra follows them, unread).
    const left = node.loadRef();
    const right = node.loadRef();
    node = open(bit(pos) ? right : left, what);
    pos++;
    remaining--;
  }
}

/** hm_label: hml_short$0 (unary length), hml_long$10 (length in ceil(log2(m+1)) bits), hml_same$11 (one bit repeated). */
export function readLabel(s: Slice, m: number): boolean[] {
  const lenBits = Math.ceil(Math.log2(m + 1));
  if (!s.loadBit()) {
    let n = 0;
    while (s.loadBit()) n++;
    return Array.from({ length: n }, () => s.loadBit());
  }
  if (!s.loadBit()) {
    const n = s.loadUint(lenBits);
    return Array.from({ length: n }, () => s.loadBit());
  }
  const b = s.loadBit();
  return new Array<boolean>(s.loadUint(lenBits)).fill(b);
}

/** A cell on the path: a pruned branch there means the proof does not cover what it claims to. */
export function open(cell: Cell, what: string): Slice {
  if (cell.isExotic) throw new LiteDataError(`${what} is pruned from the proof`);
  return cell.beginParse();
}

/**
 * The entries of a hashmap with keys below `limit`, in key order (`visit` gets the key and the leaf's value), from
 * the root edge in `root` (a slice: a Hashmap's root sits inline in its parent's cell). Subtrees whose keys are all
 * at or past `limit` are not opened: a config's validator list has ~400 entries and the masterchain needs the
 * first ~100, read this way in a quarter of the time a whole-dictionary parse takes.
 */
export function hashmapEntriesBelow(
  root: Slice,
  keyBits: number,
  limit: number,
  what: string,
  visit: (key: number, value: Slice) => void,
): void {
  const walk = (node: Slice, prefix: number, remaining: number): void => {
    const label = readLabel(node, remaining);
    for (const b of label) prefix = prefix * 2 + (b ? 1 : 0);
    remaining -= label.length;
    if (remaining === 0) {
      if (prefix < limit) visit(prefix, node);
      return;
    }
    // Fork: the left subtree's keys start at prefix·0·00..., the right one's at prefix·1·00...
    const left = node.loadRef();
    const right = node.loadRef();
    const half = 2 ** (remaining - 1);
    if (prefix * 2 * half < limit) walk(open(left, what), prefix * 2, remaining - 1);
    if ((prefix * 2 + 1) * half < limit) walk(open(right, what), prefix * 2 + 1, remaining - 1);
  };
  walk(root, 0, keyBits);
}
