/**
 * Which ed25519 signatures a block's signature set may carry: exactly those TON's own nodes accept, or a proof TON
 * believes is refused here (the thinnest real link, test/chain/lite/mainnet-captures, has 0.05 points of weight above
 * 2/3: one good signature refused stalls the chain). TON checks block signatures with td::Ed25519 (crypto/Ed25519.cpp:
 * OpenSSL's EVP ed25519 verify, not libsodium, which TON links only for TVM), so tongate uses node's crypto.verify,
 * also OpenSSL's. The edge cases below were run through TON's own code (fift's `ed25519_chksign` of the v2026.06
 * build in ../shared/ton-node-simplex, OpenSSL 3.5.7 inside), node 20 (OpenSSL 3.0), OpenSSL 4.0 and libsodium
 * 1.0.18: the three OpenSSL agree on every case; libsodium refuses six that TON accepts (small-order or
 * non-canonically encoded keys, a small-order R), so its rule would be stricter than the network's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiteDataError } from '../../../src/chain/lite/errors.js';
import { checkSignatures } from '../../../src/chain/lite/block-proofs/signatures.js';
import { masterchainValidators, nodeIdShort } from '../../../src/chain/lite/block-proofs/validator-set.js';

/** key, signature, message (hex); `ton`: what TON's ed25519_chksign answered; `libsodium`: crypto_sign_verify_detached. */
const CASES = [
  {
    what: 'valid signature (control)',
    key: '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8',
    signature:
      '4ad36546a5a52a37584e0e5fff29af737fd29578009474c4d76131cd3723b0da151d476bb98387dcdb95f46753580fd85fc3fad2c82fa2d480519702f674fe01',
    message: '746f6e6761746520656432353531392065646765',
    ton: true,
    libsodium: true,
  },
  {
    what: 'S + L (non-canonical S)',
    key: '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8',
    signature:
      '4ad36546a5a52a37584e0e5fff29af737fd29578009474c4d76131cd3723b0da02f13cc8d3e69934b232ec0a3252eeec5fc3fad2c82fa2d480519702f674fe11',
    message: '746f6e6761746520656432353531392065646765',
    ton: false,
    libsodium: false,
  },
  {
    what: 'A = identity (small order), R = identity, S = 0',
    key: '0100000000000000000000000000000000000000000000000000000000000000',
    signature:
      '01000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e6761746520656432353531392065646765',
    ton: true,
    libsodium: false,
  },
  {
    what: 'A = identity encoded non-canonically (y = p+1)',
    key: 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    signature:
      '01000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e6761746520656432353531392065646765',
    ton: true,
    libsodium: false,
  },
  {
    what: 'R = identity encoded non-canonically, A = identity',
    key: '0100000000000000000000000000000000000000000000000000000000000000',
    signature:
      'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e6761746520656432353531392065646765',
    ton: false,
    libsodium: false,
  },
  {
    what: 'A of order 2 (y = -1), R = identity, S = 0, h even',
    key: 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    signature:
      '01000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e676174652065643235353139206564676502',
    ton: true,
    libsodium: false,
  },
  {
    what: 'A of order 4 (y = 0), R = identity, S = 0, h = 0 mod 4',
    key: '0000000000000000000000000000000000000000000000000000000000000000',
    signature:
      '01000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e676174652065643235353139206564676503',
    ton: true,
    libsodium: false,
  },
  {
    what: 'A of order 4 encoded non-canonically (y = p)',
    key: 'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    signature:
      '01000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
    message: '746f6e676174652065643235353139206564676505',
    ton: true,
    libsodium: false,
  },
  {
    what: 'real A, R = identity (small order), S = h*a',
    key: '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8',
    signature:
      '0100000000000000000000000000000000000000000000000000000000000000442bc4ad222df88284dee130da2c387b4d8971f134880187b0f65dbe8571f702',
    message: '746f6e676174652065643235353139206564676500',
    ton: true,
    libsodium: false,
  },
];

/** One validator with `key`: its signature alone is all the weight, so only the ed25519 rule decides. */
function verifiesAsBlockSignature(key: Buffer, signature: Buffer, message: Buffer): boolean {
  const validators = masterchainValidators(
    { total: 1, main: 1, shuffleMc: false, list: [{ publicKey: key, weight: 1n, adnlAddr: Buffer.alloc(32) }] },
    7,
  );
  const set = { catchainSeqno: 7, validatorSetHash: validators.hashShort, signatures: [{ nodeIdShort: nodeIdShort(key), signature }] };
  try {
    checkSignatures(set, validators, { seqno: 1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) }, message);
    return true;
  } catch (err) {
    assert.ok(err instanceof LiteDataError);
    assert.match(err.message, /the signature of [0-9a-f]{64} does not verify/);
    return false;
  }
}

for (const c of CASES) {
  test(`ed25519 as TON accepts it: ${c.what} -> ${c.ton ? 'accepted' : 'refused'}${c.ton !== c.libsodium ? ' (libsodium refuses)' : ''}`, () => {
    assert.equal(
      verifiesAsBlockSignature(Buffer.from(c.key, 'hex'), Buffer.from(c.signature, 'hex'), Buffer.from(c.message, 'hex')),
      c.ton,
    );
  });
}

test('ed25519: a signature of another length than 64 bytes is refused', () => {
  const valid = CASES[0];
  const signature = Buffer.from(valid.signature, 'hex');
  assert.equal(
    verifiesAsBlockSignature(Buffer.from(valid.key, 'hex'), Buffer.concat([signature, Buffer.alloc(1)]), Buffer.from(valid.message, 'hex')),
    false,
  );
  assert.equal(
    verifiesAsBlockSignature(Buffer.from(valid.key, 'hex'), signature.subarray(0, 63), Buffer.from(valid.message, 'hex')),
    false,
  );
});
