import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { bocBase64, parseBoc } from '../../src/ton/boc.js';
import { BocParseError } from '../../src/ton/errors.js';

test('bocBase64 writes the te6cck form toncenter writes (CRC32C, no index)', () => {
  assert.equal(bocBase64(beginCell().endCell()), 'te6cckEBAQEAAgAAAEysuc0=');
});

test('parseBoc reads standard, url-safe and line-wrapped base64', () => {
  const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
  const std = cell.toBoc().toString('base64');
  for (const form of [std, cell.toBoc().toString('base64url'), std.replace(/(.{10})/g, '$1\n'), cell.toBoc({ idx: true, crc32: false }).toString('base64')]) {
    assert.ok(parseBoc(form).equals(cell), form);
  }
});

test('bad BoCs raise BocParseError naming the parameter', () => {
  const truncated = beginCell().storeUint(1, 8).endCell().toBoc().subarray(0, 8).toString('base64');
  const cases: [unknown, RegExp][] = [
    ['', /empty boc/],
    ['!!!', /not base64/],
    ['aGVsbG8=', /not a valid bag of cells/],
    [truncated, /not a valid bag of cells/],
    [17, /must be a base64 string/],
  ];
  for (const [input, reason] of cases) {
    assert.throws(
      () => parseBoc(input, 'body'),
      (error: unknown) => error instanceof BocParseError && reason.test(error.reason) && error.message.startsWith('Failed to parse body:'),
      String(input),
    );
  }
});
