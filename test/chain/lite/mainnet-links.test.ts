// Real mainnet key-block links (../shared/reference/mainnet-captures) checked as a start-up on mainnet checks them.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { test } from 'node:test';
import { checkForwardLink, ValidatorSetCache } from '../../../src/chain/lite/block-proofs/links.js';
import { verifyEd25519 } from '../../../src/chain/lite/block-proofs/ed25519.js';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import { CAPTURES_DIR, ordinaryForwardLinks } from '../../support/mainnet-captures.js';

const links = ordinaryForwardLinks();
const skip = links.length === 0 ? `no mainnet captures at ${CAPTURES_DIR}` : false;

test('every real ordinary-form key-block link checks out, signed by more than two thirds', { skip }, () => {
  for (const link of links) {
    const checked = checkForwardLink(link, new ValidatorSetCache());
    assert.equal(checked.to.seqno, link.to.seqno);
    assert.ok(checked.signedWeight > 0n);
  }
  // chain.hex crosses a validator rotation: its links are from three different key blocks.
  assert.ok(new Set(links.map((l) => l.from.seqno)).size >= 3);
});

test('a real link with one signature altered is refused', { skip }, () => {
  const link = links[0];
  const signatures = link.signatures.signatures.map((s, i) =>
    i === 7 ? { ...s, signature: Buffer.from(s.signature.map((b, j) => (j === 0 ? b ^ 1 : b))) } : s,
  );
  assert.throws(
    () => checkForwardLink({ ...link, signatures: { ...link.signatures, signatures } }, new ValidatorSetCache()),
    (err: Error) => err instanceof LiteDataError && /does not verify/.test(err.message),
  );
});

test('a real link whose validators are read once answers the next block from the cache the same way', { skip }, () => {
  const cache = new ValidatorSetCache();
  const first = checkForwardLink(links[0], cache);
  const again = checkForwardLink(links[0], cache);
  assert.equal(again.signedWeight, first.signedWeight);
});

test('verifyEd25519: a good signature, another message, and malformed keys and signatures', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const message = Buffer.from('ton.blockId');
  const signature = sign(null, message, privateKey);
  assert.equal(verifyEd25519(raw, message, signature), true);
  assert.equal(verifyEd25519(raw, message, signature), true, 'the kept key answers the same');
  assert.equal(verifyEd25519(raw, Buffer.from('another'), signature), false);
  assert.equal(verifyEd25519(raw.subarray(1), message, signature), false);
  assert.equal(verifyEd25519(raw, message, signature.subarray(1)), false);
  assert.equal(verifyEd25519(Buffer.alloc(32, 0xff), message, signature), false);
});
