/**
 * The normalized hash computed from its fixed layout equals the hash of the normalized message cell as @ton/core
 * builds it (storeMessage with the body forced into a reference), for destinations of both workchains and bodies of
 * every size and depth.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { Address, beginCell, storeMessage, type Cell } from '@ton/core';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';

const bytes = (seed: number, n: number) => {
  const out = Buffer.alloc(n);
  for (let at = 0; at < n; at += 32) createHash('sha256').update(`${seed}:${at}`).digest().copy(out, at);
  return out;
};

const built = (destination: Address, body: Cell) =>
  beginCell()
    .store(
      storeMessage({ info: { type: 'external-in', src: null, dest: destination, importFee: 0n }, init: null, body }, { forceRef: true }),
    )
    .endCell()
    .hash();

test("the normalized hash from its layout is @ton/core's hash of the normalized message", () => {
  for (let i = 0; i < 300; i++) {
    const destination = new Address(i % 2 === 0 ? 0 : -1, bytes(i, 32));
    let body = beginCell()
      .storeBuffer(bytes(i + 1000, i % 120))
      .endCell();
    // Deeper bodies: a chain of references.
    for (let depth = 0; depth < i % 5; depth++) body = beginCell().storeUint(depth, 8).storeRef(body).endCell();
    assert.ok(normalizedExternalHash(destination, body).equals(built(destination, body)), `case ${i}`);
  }
});
