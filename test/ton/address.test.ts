import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address } from '@ton/core';
import {
  detectAddress,
  formatFriendly,
  formatRawLower,
  formatRawUpper,
  formatV2Address,
  packAddress,
  parseAddress,
  unpackAddress,
} from '../../src/ton/address.js';
import { AddressParseError, TonInputError } from '../../src/ton/errors.js';

// Known vector (toncenter-api.md §1.6, observed detectAddress answer of toncenter.com).
const BOUNCEABLE = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const NON_BOUNCEABLE = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI';
const RAW = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';

test('friendly and raw forms of the known vector parse to the same account', () => {
  const a = parseAddress(BOUNCEABLE);
  const b = parseAddress(NON_BOUNCEABLE);
  const c = parseAddress(RAW);
  const d = parseAddress(RAW.toUpperCase());
  for (const parsed of [a, b, c, d]) {
    assert.equal(parsed.address.workChain, 0);
    assert.equal(parsed.address.hash.toString('hex'), RAW.slice(2));
  }
  assert.deepEqual([a.form, a.bounceable, a.testOnly], ['friendly', true, false]);
  assert.deepEqual([b.form, b.bounceable, b.testOnly], ['friendly', false, false]);
  assert.deepEqual([c.form, c.bounceable, c.testOnly], ['raw', null, null]);
});

test('detectAddress reproduces toncenter.com answer for the known vector', () => {
  assert.deepEqual(detectAddress(BOUNCEABLE, false), {
    '@type': 'ext.utils.detectedAddress',
    raw_form: RAW,
    bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: BOUNCEABLE, b64url: BOUNCEABLE },
    non_bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: NON_BOUNCEABLE, b64url: NON_BOUNCEABLE },
    given_type: 'friendly_bounceable',
    test_only: false,
  });
  assert.equal(detectAddress(NON_BOUNCEABLE, false).given_type, 'friendly_non_bounceable');
  assert.equal(detectAddress(RAW, false).given_type, 'raw_form');
});

test('the network decides the test-only flag of forms written for a raw input', () => {
  const reference = Address.parseRaw(RAW);
  const testnet = detectAddress(RAW, true);
  assert.equal(testnet.test_only, true);
  assert.equal(testnet.bounceable.b64url, reference.toString({ bounceable: true, testOnly: true }));
  assert.equal(testnet.non_bounceable.b64url, reference.toString({ bounceable: false, testOnly: true }));
  assert.match(testnet.bounceable.b64url, /^kQ/);
  assert.match(testnet.non_bounceable.b64url, /^0Q/);
  assert.equal(formatV2Address(reference, true), testnet.bounceable.b64url);
  assert.equal(formatV2Address(reference, false), BOUNCEABLE);
  assert.equal(packAddress(RAW, true), testnet.bounceable.b64url);
  assert.equal(packAddress(RAW, false), BOUNCEABLE);
});

test("a client's own test-only flag wins over the network's when its input is echoed", () => {
  const testOnlyInput = Address.parseRaw(RAW).toString({ bounceable: false, testOnly: true });
  const parsed = parseAddress(testOnlyInput);
  assert.equal(parsed.testOnly, true);
  const detected = detectAddress(testOnlyInput, false);
  assert.equal(detected.test_only, true);
  assert.equal(detected.given_type, 'friendly_non_bounceable');
  assert.match(detected.bounceable.b64, /^kQ/);
  assert.equal(packAddress(BOUNCEABLE, true), BOUNCEABLE, 'a mainnet-form input stays mainnet-form on testnet');
});

test('standard and url-safe base64 both parse; an unencoded + arriving as a space still parses', () => {
  // Find an account whose friendly form uses the characters that differ between the alphabets.
  let address: Address | undefined;
  for (let i = 0; i < 256 && !address; i++) {
    const candidate = new Address(0, Buffer.alloc(32, i));
    const std = candidate.toString({ urlSafe: false });
    if (std.includes('+') && std.includes('/')) address = candidate;
  }
  assert.ok(address, 'test setup: an address with + and / in its standard form');
  const std = address.toString({ urlSafe: false });
  const url = address.toString({ urlSafe: true });
  assert.notEqual(std, url);
  for (const form of [std, url, std.replace(/\+/g, ' ')]) assert.ok(parseAddress(form).address.equals(address), form);
  const detected = detectAddress(std, false);
  assert.equal(detected.bounceable.b64, std);
  assert.equal(detected.bounceable.b64url, url);
});

test('masterchain addresses: raw -1, friendly workchain byte 0xff', () => {
  const raw = `-1:${'33'.repeat(32)}`;
  const parsed = parseAddress(raw);
  assert.equal(parsed.address.workChain, -1);
  const friendly = formatFriendly(parsed.address, { bounceable: true, testOnly: false });
  assert.equal(friendly, 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF');
  assert.equal(parseAddress(friendly).address.workChain, -1);
  assert.equal(formatRawUpper(parsed.address), `-1:${'33'.repeat(32)}`);
  assert.equal(unpackAddress(friendly), `-1:${'33'.repeat(32)}`);
});

test('raw output: uppercase for v3 and unpackAddress, lowercase for detectAddress', () => {
  const address = parseAddress(BOUNCEABLE).address;
  assert.equal(formatRawUpper(address), RAW.toUpperCase());
  assert.equal(formatRawLower(address), RAW);
  assert.equal(unpackAddress(BOUNCEABLE), RAW.toUpperCase());
});

test('bad addresses raise AddressParseError naming the input', () => {
  const flippedChecksum = BOUNCEABLE.slice(0, -1) + (BOUNCEABLE.endsWith('N') ? 'M' : 'N');
  const badTag = Buffer.from(BOUNCEABLE, 'base64url');
  badTag[0] = 0x22;
  const cases: [unknown, RegExp][] = [
    ['NOT_A_VALID_ADDR', /expected raw form/],
    ['', /empty address/],
    [flippedChecksum, /checksum/],
    [BOUNCEABLE.slice(1), /expected raw form/],
    [`0:${'a'.repeat(63)}`, /expected raw form/],
    [`0:${'g'.repeat(64)}`, /expected raw form/],
    [`128:${'a'.repeat(64)}`, /out of range/],
    [`0x:${'a'.repeat(64)}`, /expected raw form/],
    [badTag.toString('base64url'), /checksum|tag/],
    [42, /must be a string/],
    [null, /must be a string/],
  ];
  for (const [input, reason] of cases) {
    assert.throws(
      () => parseAddress(input),
      (error: unknown) => {
        assert.ok(error instanceof AddressParseError && error instanceof TonInputError, `typed error for ${String(input)}`);
        assert.match(error.reason, reason);
        assert.ok(error.message.includes(`ton_addr: '${typeof input === 'string' ? input : JSON.stringify(input)}'`), error.message);
        return true;
      },
    );
  }
});

test('a bad tag with a valid checksum is refused for its tag', () => {
  const bytes = Buffer.from(BOUNCEABLE, 'base64url');
  bytes[0] = 0x22;
  // Recompute the CRC16 so only the tag is wrong.
  crc16Of(bytes.subarray(0, 34)).copy(bytes, 34);
  assert.throws(() => parseAddress(bytes.toString('base64url')), /unknown tag byte 0x22/);
});

function crc16Of(data: Buffer): Buffer {
  // XMODEM CRC16 (poly 0x1021), as TON's user-friendly addresses use; computed independently here.
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return Buffer.from([crc >> 8, crc & 0xff]);
}

test('a huge input is echoed only as a bounded excerpt', () => {
  const huge = 'x'.repeat(10_000);
  assert.throws(
    () => parseAddress(huge),
    (error: unknown) => error instanceof AddressParseError && error.message.length < 300,
  );
});
