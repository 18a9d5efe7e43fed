/**
 * The candidate a simplex signature set carries (a boxed consensus.CandidateHashData): its three shapes are read,
 * and what TON's TL parser would not read (another constructor, another length) is refused. The signed bytes are
 * checked against real mainnet signatures in mainnet-captures.test.ts; here, their layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import { readCandidate, simplexSignedBytes } from '../../../src/chain/lite/block-proofs/simplex-signatures.js';

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const ORDINARY = u32(0xe8f9bcdc);
const EMPTY = u32(0x72b4d933);
const PARENT = u32(0x1a4b9af1);
const WITHOUT_PARENTS = u32(0x22cbcca9);
const CANDIDATE_ID = u32(0xb691cd3f);

const rootHash = randomBytes(32);
const fileHash = randomBytes(32);
const blockIdExt = Buffer.concat([u32(-1), Buffer.from('0000000000000080', 'hex'), u32(1234567), rootHash, fileHash]);
const parentId = Buffer.concat([u32(41), randomBytes(32)]); // slot, hash

function refused(candidate: Buffer, reason: RegExp): void {
  assert.throws(
    () => readCandidate(candidate),
    (err: unknown) => err instanceof LiteDataError && reason.test(err.message),
  );
}

test("simplex candidate: the ordinary form with a parent (160 bytes), without one (120, a session's first slot), the empty form (120)", () => {
  const withParent = Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), PARENT, CANDIDATE_ID, parentId]);
  const first = Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), WITHOUT_PARENTS]);
  const empty = Buffer.concat([EMPTY, blockIdExt, parentId]);
  for (const [candidate, form, length] of [
    [withParent, 'ordinary', 160],
    [first, 'ordinary', 120],
    [empty, 'empty', 120],
  ] as const) {
    assert.equal(candidate.length, length);
    const read = readCandidate(candidate);
    assert.equal(read.form, form);
    assert.deepEqual(read.block, { workchain: -1, shard: 0x8000000000000000n, seqno: 1234567, rootHash, fileHash });
  }
});

test('simplex candidate: another constructor, a byte more or less, a parent that is not a candidateId are refused', () => {
  const withParent = Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), PARENT, CANDIDATE_ID, parentId]);
  refused(Buffer.concat([withParent, Buffer.alloc(1)]), /ordinary form of 160 bytes, got 161/);
  refused(withParent.subarray(0, 159), /ordinary form of 160 bytes, got 159/);
  refused(Buffer.concat([EMPTY, blockIdExt, parentId, Buffer.alloc(4)]), /empty form of 120 bytes, got 124/);
  refused(Buffer.concat([u32(0x12345678), withParent.subarray(4)]), /unknown consensus.CandidateHashData constructor 0x12345678/);
  refused(
    Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), u32(0xdeadbeef)]),
    /unknown consensus.CandidateParent constructor 0xdeadbeef/,
  );
  refused(
    Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), PARENT, u32(0xdeadbeef), parentId]),
    /parent is not a consensus.candidateId/,
  );
  refused(Buffer.alloc(40), /40 bytes, too short/);
});

test('simplex signed bytes: consensus.dataToSign session_id, then the 44-byte finalize vote as TL bytes (length byte, 3 bytes of padding)', () => {
  const sessionId = randomBytes(32);
  const candidate = Buffer.concat([ORDINARY, blockIdExt, randomBytes(32), WITHOUT_PARENTS]);
  const signed = simplexSignedBytes({ sessionId, slot: 614, candidate });
  assert.equal(signed.length, 4 + 32 + 48);
  assert.equal(signed.readUInt32LE(0), 0xa8e33df8);
  assert.ok(signed.subarray(4, 36).equals(sessionId));
  assert.equal(signed[36], 44);
  assert.equal(signed.readUInt32LE(37), 0x40a7e105); // finalizeVote
  assert.equal(signed.readUInt32LE(41), 0xb691cd3f); // boxed candidateId
  assert.equal(signed.readInt32LE(45), 614);
  assert.ok(signed.subarray(49, 81).equals(createHash('sha256').update(candidate).digest()));
  assert.ok(signed.subarray(81).equals(Buffer.alloc(3)));
});
