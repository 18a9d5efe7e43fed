/**
 * Real TON mainnet liteserver answers (../shared/reference/mainnet-captures, read by path: SOURCES.md says what
 * each is) through tongate's own block proof checks: every link verifies (its signed weight printed), and an
 * answer altered in one way is refused for that reason, not for another. The captures hold both signature forms:
 * the ordinary one (before masterchain block 59379986) and the Simplex consensus's (from it on).
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TLReadBuffer } from 'ton-tl';
import { keyPairFromSeed, sign } from '@ton/crypto';
import { fromTlBlockId } from '../../../src/chain/lite/blocks.js';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import type { LitePool } from '../../../src/chain/lite/pool.js';
import { checkForwardLink, ValidatorSetCache } from '../../../src/chain/lite/block-proofs/links.js';
import { MasterchainTrust } from '../../../src/chain/lite/block-proofs/masterchain-trust.js';
import {
  getBlockProof,
  type ForwardLink,
  type PartialBlockProof,
  type SimplexSignatureSet,
} from '../../../src/chain/lite/block-proofs/proof-tl.js';
import { checkSimplexSignatures, readCandidate, simplexSignedBytes } from '../../../src/chain/lite/block-proofs/simplex-signatures.js';
import { masterchainValidators, nodeIdShort } from '../../../src/chain/lite/block-proofs/validator-set.js';
import { blockSignaturesJson } from '../../../src/api/v2/format/block.js';
import { validateComponent } from '../../api/v2/support/components.js';

const CAPTURES = fileURLToPath(new URL('../../../../shared/reference/mainnet-captures/', import.meta.url));
const SIMPLEX_ID = Buffer.from('009824ac', 'hex'); // liteServer.signatureSet.simplex, as written (little-endian)

/** A capture's bytes (hex, `#` lines and whitespace aside); undefined after skipping (or throws with CI=true) when absent. */
function capture(t: TestContext, name: string): Buffer | undefined {
  const path = `${CAPTURES}${name}.hex`;
  if (!existsSync(path)) {
    const why = `mainnet capture ${path} not found`;
    if (process.env.CI === 'true') throw new Error(`${why} (CI=true: the captures must be there)`);
    console.log(`# skipping: ${why}`);
    t.skip(why);
    return undefined;
  }
  const hex = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('')
    .replace(/\s+/g, '');
  return Buffer.from(hex, 'hex');
}

/** Decoded exactly as an answer from a liteserver is (the connection's decoder). */
function decode(bytes: Buffer): PartialBlockProof {
  return getBlockProof.decodeResponse(new TLReadBuffer(bytes));
}

function forwardLinks(proof: PartialBlockProof): ForwardLink[] {
  return proof.steps.map((s) => {
    assert.equal(s.kind, 'liteServer.blockLinkForward');
    return s as ForwardLink;
  });
}

function simplexLink(bytes: Buffer): ForwardLink & { signatures: SimplexSignatureSet } {
  const [link] = forwardLinks(decode(Buffer.from(bytes))); // a copy: the decoded fields may be views of it, and tests alter them
  assert.equal(link.signatures.kind, 'liteServer.signatureSet.simplex');
  return link as ForwardLink & { signatures: SimplexSignatureSet };
}

function percent(part: bigint, whole: bigint): string {
  return (Number((part * 1_000_000n) / whole) / 10_000).toFixed(4);
}

/** Each forward link checked with a fresh cache (so its config proof is read), its weight printed. */
function verifyAll(t: TestContext, proof: PartialBlockProof): void {
  for (const link of forwardLinks(proof)) {
    const checked = checkForwardLink(link, new ValidatorSetCache());
    assert.ok(checked.signedWeight * 3n > checked.totalWeight * 2n);
    const headroom = (Number((checked.signedWeight * 3_000_000n) / checked.totalWeight) / 30_000 - 200 / 3).toFixed(4);
    t.diagnostic(
      `${checked.from.seqno} -> ${checked.to.seqno} (${link.signatures.kind}): ${link.signatures.signatures.length} signatures, weight ` +
        `${checked.signedWeight} of ${checked.totalWeight} = ${percent(checked.signedWeight, checked.totalWeight)} %, ${headroom} points above 2/3`,
    );
  }
}

/** The pool's part in MasterchainTrust, answering with one recorded answer: the checks are the real ones. */
function recordedPool(answer: PartialBlockProof): LitePool {
  const pool = {
    async query(_f: unknown, _request: unknown, options: { check?: (answer: unknown) => unknown }) {
      // As the real pool: an answer counts once its check (links checked on their own thread) has settled.
      await options.check?.(answer);
      return answer;
    },
  };
  return pool as unknown as LitePool;
}

function refusedFor(fn: () => unknown, reason: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof LiteDataError, `a LiteDataError, got ${String(err)}`);
    assert.match(err.message, reason);
    return true;
  });
}

describe('real mainnet block proofs', () => {
  test('ordinary signature sets: the one link and the three-link chain verify', (t) => {
    const one = capture(t, 'one-link-ordinary');
    const chain = capture(t, 'chain');
    if (!one || !chain) return;
    const proof = decode(one);
    assert.equal(proof.steps.length, 1);
    verifyAll(t, proof);
    const links = decode(chain);
    assert.equal(links.steps.length, 3);
    verifyAll(t, links);
  });

  test('the chain across a validator set rotation is proven in one answer, and the proven key block moves on', async (t) => {
    const bytes = capture(t, 'chain');
    if (!bytes) return;
    const proof = decode(bytes);
    const from = fromTlBlockId(proof.from);
    const to = fromTlBlockId(proof.to);
    const trust = new MasterchainTrust(recordedPool(proof), from);
    await trust.verify(to);
    assert.equal(trust.stats.links, 3);
    assert.equal(trust.lastKeyBlock().seqno, proof.steps.at(-1)!.toKeyBlock ? to.seqno : proof.steps[1].to.seqno);
    assert.ok(trust.isProven(to));
  });

  test('the first simplex link (59238081 -> 59379986) decodes and verifies; the trusted key block moves to it', async (t) => {
    const bytes = capture(t, 'one-link-simplex');
    if (!bytes) return;
    const proof = decode(bytes);
    const link = simplexLink(bytes);
    assert.equal(link.from.seqno, 59238081);
    assert.equal(link.to.seqno, 59379986);
    const { form, block } = readCandidate(link.signatures.candidate);
    assert.equal(form, 'ordinary');
    assert.equal(block.seqno, 59379986);
    verifyAll(t, proof);
    const trust = new MasterchainTrust(recordedPool(proof), fromTlBlockId(proof.from));
    await trust.verify(fromTlBlockId(proof.to));
    assert.equal(trust.stats.links, 1);
    assert.equal(trust.stats.signatures, link.signatures.signatures.length);
    assert.equal(trust.lastKeyBlock().seqno, link.toKeyBlock ? 59379986 : 59238081);
  });

  test('one answer with both forms (ordinary links, then a simplex one) is decoded and each link checked by its form', async (t) => {
    // The captures do not meet (the chain ends at 46920655, the simplex link starts at 59238081), so this answer,
    // spliced from both, must be refused: for that gap and nothing else. Each link verifies alone; the chain checks
    // the three ordinary links, then refuses the fourth where it starts.
    const chain = capture(t, 'chain');
    const simplex = capture(t, 'one-link-simplex');
    if (!chain || !simplex) return;
    const HEAD = 4 + 4 + 80 + 80; // constructor, complete, from, to; then the steps' vector
    const spliced = Buffer.concat([
      chain.subarray(0, HEAD - 80),
      simplex.subarray(HEAD - 80, HEAD),
      Buffer.from([4, 0, 0, 0]),
      chain.subarray(HEAD + 4),
      simplex.subarray(HEAD + 4),
    ]);
    const proof = decode(spliced);
    assert.deepEqual(
      forwardLinks(proof).map((l) => l.signatures.kind),
      ['liteServer.signatureSet', 'liteServer.signatureSet', 'liteServer.signatureSet', 'liteServer.signatureSet.simplex'],
    );
    for (const link of forwardLinks(proof)) checkForwardLink(link, new ValidatorSetCache());
    const from = fromTlBlockId(proof.from);
    const trust = new MasterchainTrust(recordedPool(proof), from);
    await assert.rejects(trust.verify(fromTlBlockId(proof.to)), /block proof: link 4 does not start where the previous one ends/);
    assert.equal(trust.stats.refused, 1);
    // Where each link starts is checked before any signature: an answer whose links do not meet costs no ed25519.
    assert.equal(trust.stats.signatures, 0, 'refused on its shape, before any signature was counted');
    assert.equal(trust.lastKeyBlock().seqno, from.seqno, 'a refused answer moves the trusted key block nowhere');
  });

  describe('an altered simplex answer is refused for the right reason', () => {
    test('a flipped signature: that signature does not verify', (t) => {
      const bytes = capture(t, 'one-link-simplex');
      if (!bytes) return;
      const link = simplexLink(bytes);
      const victim = link.signatures.signatures[7];
      victim.signature[40] ^= 0x01;
      refusedFor(
        () => checkForwardLink(link, new ValidatorSetCache()),
        new RegExp(`the signature of ${victim.nodeIdShort.toString('hex')} does not verify`),
      );
    });

    test('a candidate naming another block: refused before any signature is checked', (t) => {
      const bytes = capture(t, 'one-link-simplex');
      if (!bytes) return;
      for (const [what, at] of [
        ['seqno', 16],
        ['root hash', 30],
        ['file hash', 60],
      ] as const) {
        const link = simplexLink(bytes);
        link.signatures.candidate[at] ^= 0x01;
        refusedFor(() => checkForwardLink(link, new ValidatorSetCache()), /the simplex candidate \(ordinary form\) names another block/);
        t.diagnostic(`candidate's ${what} altered: refused`);
      }
      const cut = simplexLink(bytes);
      (cut.signatures as { candidate: Buffer }).candidate = cut.signatures.candidate.subarray(0, 150);
      refusedFor(() => checkForwardLink(cut, new ValidatorSetCache()), /simplex candidate: ordinary form of 160 bytes, got 150/);
    });

    test('the two first ints swapped (cc_seqno and validator_set_hash in the ordinary order): of another catchain', (t) => {
      const bytes = capture(t, 'one-link-simplex');
      if (!bytes) return;
      const good = simplexLink(bytes).signatures;
      const at = bytes.indexOf(SIMPLEX_ID);
      assert.ok(at > 0 && bytes.indexOf(SIMPLEX_ID, at + 1) < 0, 'one simplex set in the answer');
      const swapped = Buffer.from(bytes);
      bytes.copy(swapped, at + 4, at + 8, at + 12);
      bytes.copy(swapped, at + 8, at + 4, at + 8);
      const link = simplexLink(swapped);
      assert.equal(link.signatures.catchainSeqno, good.validatorSetHash);
      assert.equal(link.signatures.validatorSetHash, good.catchainSeqno);
      refusedFor(
        () => checkForwardLink(link, new ValidatorSetCache()),
        new RegExp(`catchain seqno ${good.validatorSetHash}, the block's validators are of ${good.catchainSeqno}\\b`),
      );
    });

    test("a config proof of another block: not the source key block's", (t) => {
      const bytes = capture(t, 'one-link-simplex');
      const other = capture(t, 'one-link-ordinary');
      if (!bytes || !other) return;
      const link = simplexLink(bytes);
      const foreign = forwardLinks(decode(other))[0];
      (link as { configProof: Buffer }).configProof = foreign.configProof;
      refusedFor(
        () => checkForwardLink(link, new ValidatorSetCache()),
        new RegExp(`59238081\\) -> .*: config proof: proof is of another tree than ${Buffer.from(link.from.rootHash).toString('hex')}`),
      );
    });

    test('a destination proof of another block: refused on its hash', (t) => {
      const bytes = capture(t, 'one-link-simplex');
      const other = capture(t, 'one-link-ordinary');
      if (!bytes || !other) return;
      const link = simplexLink(bytes);
      (link as { destProof: Buffer }).destProof = forwardLinks(decode(other))[0].destProof;
      refusedFor(() => checkForwardLink(link, new ValidatorSetCache()), /destination proof: proof is of another tree/);
    });
  });

  test('notarize votes are not finalize votes: a set of valid notarize signatures is refused, the same keys finalizing pass', (t) => {
    // Mainnet's validators' notarize votes are not in the captures, so three keys of our own stand in for the
    // validators; the candidate, block and session are the real ones.
    const bytes = capture(t, 'one-link-simplex');
    if (!bytes) return;
    const real = simplexLink(bytes);
    const to = fromTlBlockId(real.to);
    const keys = [1, 2, 3].map((i) => keyPairFromSeed(Buffer.alloc(32, i)));
    const validators = masterchainValidators(
      { total: 3, main: 3, shuffleMc: false, list: keys.map((k) => ({ publicKey: k.publicKey, weight: 10n, adnlAddr: Buffer.alloc(32) })) },
      real.signatures.catchainSeqno,
    );
    const finalize = simplexSignedBytes(real.signatures);
    const notarize = Buffer.from(finalize);
    notarize.writeUInt32LE(0xcdf605a8, 37); // consensus.simplex.notarizeVote in place of finalizeVote
    const setSignedOver = (signed: Buffer): SimplexSignatureSet => ({
      ...real.signatures,
      validatorSetHash: validators.hashShort,
      signatures: keys.map((k) => ({
        kind: 'liteServer.signature',
        nodeIdShort: nodeIdShort(k.publicKey),
        signature: sign(signed, k.secretKey),
      })),
    });
    assert.equal(checkSimplexSignatures(setSignedOver(finalize), validators, to), 30n);
    const firstSigner = nodeIdShort(keys[0].publicKey).toString('hex');
    refusedFor(
      () => checkSimplexSignatures(setSignedOver(notarize), validators, to),
      new RegExp(`the signature of ${firstSigner} does not verify`),
    );
    // Two of three finalizing is exactly 2/3: not more than two thirds.
    const twoOfThree = setSignedOver(finalize);
    refusedFor(
      () => checkSimplexSignatures({ ...twoOfThree, signatures: twoOfThree.signatures.slice(0, 2) }, validators, to),
      /signed by 20 of 30 weight, not more than two thirds/,
    );
  });

  test("v2's getMasterchainBlockSignatures answer for each form is toncenter's (its C++ server's spec: BlockSignatures, BlockSignaturesSimplex)", (t) => {
    const ordinaryBytes = capture(t, 'one-link-ordinary');
    const simplexBytes = capture(t, 'one-link-simplex');
    if (!ordinaryBytes || !simplexBytes) return;
    const ordinary = forwardLinks(decode(ordinaryBytes))[0];
    const plain = blockSignaturesJson({ block: fromTlBlockId(ordinary.to), signatures: ordinary.signatures.signatures });
    assert.equal(plain['@type'], 'blocks.blockSignatures');
    assert.deepEqual(validateComponent('cpp', 'BlockSignatures', plain), []);
    const simplex = simplexLink(simplexBytes);
    const set = simplex.signatures;
    const answer = blockSignaturesJson({
      block: fromTlBlockId(simplex.to),
      signatures: set.signatures,
      simplex: { sessionId: set.sessionId, slot: set.slot, candidate: set.candidate },
    });
    assert.deepEqual(Object.keys(answer), ['@type', 'id', 'signatures', 'session_id', 'slot', 'candidate']);
    assert.equal(answer['@type'], 'blocks.blockSignatures.simplex');
    assert.deepEqual(validateComponent('cpp', 'BlockSignaturesSimplex', answer), []);
    assert.deepEqual(validateComponent('cpp', 'MasterchainBlockSignatures', answer), []);
    // What a client needs to check them itself: the candidate as the validators hashed it.
    assert.equal(answer.slot, set.slot);
    assert.ok(Buffer.from(answer.candidate as string, 'base64').equals(set.candidate));
    assert.ok(Buffer.from(answer.session_id as string, 'base64').equals(set.sessionId));
  });
});
