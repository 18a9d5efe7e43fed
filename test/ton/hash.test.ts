import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectHash, formatHash, hashFromBigInt, parseHash, ZERO_HASH } from '../../src/ton/hash.js';
import { HashParseError } from '../../src/ton/errors.js';

// A block root hash seen in toncenter output (toncenter-api.md §1.6); it has both + and /.
const B64 = '7/j0Uag1MI+IaBJ44Nd3G6eCrG3s9DFK9fw3AOmU65c=';
const BYTES = Buffer.from(B64, 'base64');
const HEX = BYTES.toString('hex');
const B64URL = BYTES.toString('base64url'); // unpadded, with - and _

test('hex, 0x-hex, base64, base64url (padded or not) all parse to the same 32 bytes', () => {
  assert.ok(B64.includes('+') && B64.includes('/'), 'test vector exercises the alphabet difference');
  for (const form of [HEX, HEX.toUpperCase(), `0x${HEX}`, B64, B64.replace(/=$/, ''), B64URL, `${B64URL}=`]) {
    assert.ok(parseHash(form).equals(BYTES), form);
  }
});

test('output is standard padded base64 (44 characters), what TonClient compares against', () => {
  const formatted = formatHash(parseHash(HEX));
  assert.equal(formatted, B64);
  assert.equal(formatted.length, 44);
  assert.equal(formatHash(ZERO_HASH), 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
});

test('detectHash gives b64, b64url (padded) and lowercase hex', () => {
  assert.deepEqual(detectHash(HEX.toUpperCase()), {
    '@type': 'ext.utils.detectedHash',
    b64: B64,
    b64url: `${B64URL}=`,
    hex: HEX,
  });
});

test('hashFromBigInt keeps leading zero bytes', () => {
  assert.equal(hashFromBigInt(1n).toString('hex'), `${'0'.repeat(63)}1`);
  assert.ok(hashFromBigInt(BigInt(`0x${HEX}`)).equals(BYTES));
});

test('bad hashes raise HashParseError naming the input', () => {
  const nonCanonical = `${B64.slice(0, 42)}B=`; // last character with stray low bits
  assert.notEqual(Buffer.from(nonCanonical, 'base64').toString('base64'), nonCanonical, 'test setup: not canonical');
  const cases: [unknown, RegExp][] = [
    ['', /expected 64 hex/],
    [HEX.slice(2), /expected 64 hex/],
    [`${HEX}00`, /expected 64 hex/],
    ['z'.repeat(64), /expected 64 hex/],
    [`${B64.slice(0, 10)}+_${B64.slice(12)}`, /expected 64 hex/],
    [nonCanonical, /canonical/],
    [123, /must be a string/],
  ];
  for (const [input, reason] of cases) {
    assert.throws(
      () => parseHash(input),
      (error: unknown) => error instanceof HashParseError && reason.test(error.reason) && error.message.includes('hash'),
      String(input),
    );
  }
});
