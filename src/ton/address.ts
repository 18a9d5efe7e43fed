/**
 * TON account addresses: every form clients send, and every form toncenter writes.
 *
 * Forms accepted on input:
 *   raw       `wc:hex64` (hex in either case), workchain -128..127 (what a friendly form can carry)
 *   friendly  48 chars of standard or url-safe base64: tag byte (0x11 bounceable, 0x51 non-bounceable,
 *             |0x80 test-only), signed workchain byte, 32-byte account id, CRC16 of the first 34 bytes.
 *
 * The test-only flag on output. toncenter writes user-friendly addresses the way tonlib does, and tonlib
 * sets the test-only flag when it runs against testnet. So a network decides it: mainnet false, testnet
 * true. Every formatter here takes that choice as `testOnly: boolean`; the API layer passes its
 * network's value. Where a client gave a friendly address and we echo a friendly form of that same
 * input (detectAddress, packAddress), the flag the client wrote wins, because it is part of what the
 * client asked about.
 */
import type { Address } from '@ton/core';
import { tonCore } from './core-module.js';
import { AddressParseError } from './errors.js';

const TAG_BOUNCEABLE = 0x11;
const TAG_NON_BOUNCEABLE = 0x51;
const FLAG_TEST_ONLY = 0x80;

const RAW_FORM = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/;
const FRIENDLY_FORM = /^[A-Za-z0-9+/_-]{48}$/;

export interface ParsedAddress {
  address: Address;
  form: 'raw' | 'friendly';
  /** Friendly input only: the flags the client encoded (null for raw input). */
  bounceable: boolean | null;
  testOnly: boolean | null;
}

/** Parses any accepted address form; throws AddressParseError naming the input otherwise. */
export function parseAddress(input: unknown): ParsedAddress {
  if (typeof input !== 'string') throw new AddressParseError(input, 'an address must be a string');
  if (input.length === 0) throw new AddressParseError(input, 'empty address');
  const raw = RAW_FORM.exec(input);
  if (raw) return parseRaw(input, raw[1], raw[2]);
  // An unencoded '+' in a query string arrives as ' '; the checksum still guards the result.
  const friendly = input.length === 48 ? input.replace(/ /g, '+') : input;
  if (FRIENDLY_FORM.test(friendly)) return parseFriendly(input, friendly);
  throw new AddressParseError(input, 'expected raw form wc:hex64 or a 48-character user-friendly form');
}

function parseRaw(input: string, wcText: string, hex: string): ParsedAddress {
  const workchain = Number(wcText);
  if (workchain < -128 || workchain > 127) throw new AddressParseError(input, `workchain ${workchain} is out of range -128..127`);
  return { address: new (tonCore().Address)(workchain, Buffer.from(hex, 'hex')), form: 'raw', bounceable: null, testOnly: null };
}

function parseFriendly(input: string, text: string): ParsedAddress {
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) throw new AddressParseError(input, 'user-friendly form must decode to 36 bytes');
  const expected = tonCore().crc16(bytes.subarray(0, 34));
  if (!expected.equals(bytes.subarray(34, 36))) throw new AddressParseError(input, 'checksum mismatch');
  const tag = bytes[0];
  const testOnly = (tag & FLAG_TEST_ONLY) !== 0;
  const baseTag = tag & ~FLAG_TEST_ONLY;
  if (baseTag !== TAG_BOUNCEABLE && baseTag !== TAG_NON_BOUNCEABLE) {
    throw new AddressParseError(input, `unknown tag byte 0x${tag.toString(16)}`);
  }
  const workchain = bytes.readInt8(1);
  return {
    address: new (tonCore().Address)(workchain, Buffer.from(bytes.subarray(2, 34))),
    form: 'friendly',
    bounceable: baseTag === TAG_BOUNCEABLE,
    testOnly,
  };
}

export interface FriendlyOptions {
  bounceable: boolean;
  testOnly: boolean;
  /** Default true: toncenter writes the url-safe alphabet. */
  urlSafe?: boolean;
}

/** The 48-character user-friendly form. */
export function formatFriendly(address: Address, options: FriendlyOptions): string {
  return address.toString({ bounceable: options.bounceable, testOnly: options.testOnly, urlSafe: options.urlSafe ?? true });
}

/**
 * How tonlib (and so every v2 result) writes an address: bounceable, url-safe, the network's
 * test-only flag. Used for accountAddress objects and message source/destination.
 */
export function formatV2Address(address: Address, testOnly: boolean): string {
  return formatFriendly(address, { bounceable: true, testOnly });
}

/** v3 and C++ v2 raw form: `0:83DFD552...` (uppercase hex). */
export function formatRawUpper(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

/** detectAddress raw_form: `0:83dfd552...` (lowercase hex). */
export function formatRawLower(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex')}`;
}

/** The test-only flag to write when echoing an input: the client's own flag, else the network's. */
function echoTestOnly(parsed: ParsedAddress, networkTestOnly: boolean): boolean {
  return parsed.testOnly ?? networkTestOnly;
}

export interface DetectedAddressVariant {
  '@type': 'ext.utils.detectedAddressVariant';
  b64: string;
  b64url: string;
}

export interface DetectedAddress {
  '@type': 'ext.utils.detectedAddress';
  raw_form: string;
  bounceable: DetectedAddressVariant;
  non_bounceable: DetectedAddressVariant;
  given_type: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
  test_only: boolean;
}

/** v2 detectAddress result. */
export function detectAddress(input: unknown, networkTestOnly: boolean): DetectedAddress {
  const parsed = parseAddress(input);
  const testOnly = echoTestOnly(parsed, networkTestOnly);
  const variant = (bounceable: boolean): DetectedAddressVariant => ({
    '@type': 'ext.utils.detectedAddressVariant',
    b64: formatFriendly(parsed.address, { bounceable, testOnly, urlSafe: false }),
    b64url: formatFriendly(parsed.address, { bounceable, testOnly, urlSafe: true }),
  });
  let givenType: DetectedAddress['given_type'] = 'raw_form';
  if (parsed.form === 'friendly') givenType = parsed.bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable';
  return {
    '@type': 'ext.utils.detectedAddress',
    raw_form: formatRawLower(parsed.address),
    bounceable: variant(true),
    non_bounceable: variant(false),
    given_type: givenType,
    test_only: testOnly,
  };
}

/** v2 packAddress result: the bounceable url-safe form (as toncenter's C++ server writes it). */
export function packAddress(input: unknown, networkTestOnly: boolean): string {
  const parsed = parseAddress(input);
  return formatFriendly(parsed.address, { bounceable: true, testOnly: echoTestOnly(parsed, networkTestOnly) });
}

/** v2 unpackAddress result: `wc:HEX` uppercase (as toncenter's C++ server writes it). */
export function unpackAddress(input: unknown): string {
  return formatRawUpper(parseAddress(input).address);
}
