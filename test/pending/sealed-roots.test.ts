/**
 * A sealed block's roots are found by their hash's first four bytes, the rest compared (pending-traces.ts): traces
 * whose root hashes share those bytes must each land with the block holding their own root, and only then. Real
 * hashes never collide on purpose, so the transactions here are plain records with chosen hashes; `PendingTraces`
 * reads nothing else of them on this path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address } from '@ton/core';
import type { OpenBlockTransaction, SealedBlock } from '../../src/chain/types.js';
import { PendingTraces } from '../../src/pending/pending-traces.js';

const account = Address.parseRaw(`0:${'11'.repeat(32)}`);

/** A 32-byte hash: the shared four-byte prefix, then `tail` in the last byte. */
function hash(prefix: number, tail: number): Buffer {
  const bytes = Buffer.alloc(32, 0x5a);
  bytes.writeUInt32LE(prefix, 0);
  bytes[31] = tail;
  return bytes;
}

/** An accepted external message's transaction (the start of a trace), with nothing sent. */
function rootTx(txHash: Buffer, n: number): OpenBlockTransaction {
  return {
    hash: txHash,
    account,
    lt: BigInt(n),
    now: 1,
    inMsg: { hash: hash(0xfeed, n), message: { info: { type: 'external-in' } } },
    outMsgs: [],
  } as unknown as OpenBlockTransaction;
}

function block(seqno: number, txHashes: Buffer[]): SealedBlock {
  return { masterchain: { id: { seqno } }, transactions: txHashes.map((h) => ({ hash: h })) } as unknown as SealedBlock;
}

test('traces whose roots share the first four bytes of their hash land each with its own block', () => {
  const traces = new PendingTraces(10);
  const landed: Array<[string, number]> = [];
  traces.listen({ landed: (trace, seqno) => landed.push([trace.traceId, seqno]) });
  const [a, b, c] = [hash(7, 1), hash(7, 2), hash(7, 3)];
  traces.executed(rootTx(a, 1));
  traces.executed(rootTx(b, 2));
  traces.executed(rootTx(c, 3));
  assert.equal(traces.size, 3);

  // A transaction with the same prefix that roots no live trace finds none.
  traces.sealed(block(11, [hash(7, 9)]));
  assert.deepEqual(landed, []);
  assert.equal(traces.size, 3);

  traces.sealed(block(12, [b]));
  assert.deepEqual(landed, [[b.toString('base64'), 12]]);
  assert.equal(traces.size, 2);

  // b left the shared entry: sealing it again finds nothing; a and c are still found.
  traces.sealed(block(13, [b, c]));
  assert.deepEqual(landed.slice(1), [[c.toString('base64'), 13]]);
  traces.sealed(block(14, [a]));
  assert.deepEqual(landed.slice(2), [[a.toString('base64'), 14]]);
  assert.equal(traces.size, 0);
});

test('an invalidated trace leaves the shared entry, the other is still found', () => {
  const traces = new PendingTraces(10, 2);
  const landed: string[] = [];
  const invalidated: string[] = [];
  traces.listen({ landed: (trace) => landed.push(trace.traceId), invalidated: (trace) => invalidated.push(trace.traceId) });
  const old = hash(42, 1);
  traces.executed(rootTx(old, 1));
  traces.sealed(block(11, []));
  const young = hash(42, 2);
  traces.executed(rootTx(young, 2));
  traces.sealed(block(12, []));
  assert.deepEqual(invalidated, [old.toString('base64')]);
  traces.sealed(block(13, [old, young]));
  assert.deepEqual(landed, [young.toString('base64')]);
});
