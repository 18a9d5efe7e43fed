import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { BOC_MAX_BYTES, BOC_MAX_DEPTH, bocBase64, parseBoc } from '../../src/ton/boc.js';
import { inspectBoc } from '../../src/ton/boc-shape.js';
import { BocParseError } from '../../src/ton/errors.js';

test('bocBase64 writes the te6cck form toncenter writes (CRC32C, no index)', () => {
  assert.equal(bocBase64(beginCell().endCell()), 'te6cckEBAQEAAgAAAEysuc0=');
});

test('parseBoc reads standard, url-safe and line-wrapped base64', () => {
  const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
  const std = cell.toBoc().toString('base64');
  for (const form of [
    std,
    cell.toBoc().toString('base64url'),
    std.replace(/(.{10})/g, '$1\n'),
    cell.toBoc({ idx: true, crc32: false }).toString('base64'),
  ]) {
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

test('every BoC form @ton/core and tonlib write still parses (generic with and without index/CRC, exotic cells)', () => {
  const library = beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell({ exotic: true });
  const shared = beginCell().storeUint(5, 8).endCell();
  const dag = beginCell().storeRef(shared).storeRef(beginCell().storeRef(shared)).storeRef(library).endCell();
  for (const cell of [beginCell().endCell(), dag, library]) {
    for (const opts of [
      { idx: false, crc32: false },
      { idx: true, crc32: false },
      { idx: false, crc32: true },
      { idx: true, crc32: true },
    ]) {
      assert.ok(parseBoc(cell.toBoc(opts).toString('base64')).equals(cell), JSON.stringify(opts));
      assert.deepEqual(inspectBoc(cell.toBoc(opts)), { cells: cell === dag ? 4 : 1, roots: 1 });
    }
  }
});

/** A generic BoC (no index, no CRC, 1-byte sizes) written by hand: `cells` are [d1, d2, ...data, ...refs]. */
function handBoc(cells: number[][], { declared = cells.length, root = 0 } = {}): Buffer {
  const data = Buffer.from(cells.flat());
  return Buffer.concat([Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, declared, 1, 0, data.length, root]), data]);
}

test('malformed bags are refused in our words before a cell is built: indexes out of range, counts that lie', () => {
  const ok = handBoc([
    [1, 0, 1],
    [0, 0],
  ]); // cell 0 refers to cell 1
  assert.ok(parseBoc(ok.toString('base64')));
  const cases: [Buffer, RegExp][] = [
    [
      handBoc([
        [1, 0, 5],
        [0, 0],
      ]),
      /cell 0 refers to cell 5/,
    ],
    [
      handBoc([
        [1, 0, 0],
        [0, 0],
      ]),
      /cell 0 refers to cell 0/,
    ],
    [
      handBoc([
        [0, 0],
        [1, 0, 0],
      ]),
      /cell 1 refers to cell 0/,
    ],
    [handBoc([[0, 0]], { root: 3 }), /root index 3 is beyond its 1 cells/],
    [handBoc([[0, 0]], { declared: 200 }), /declares 200 cells, its data ends at cell 1/],
    [handBoc([[7, 0]]), /declares 7 references/],
    [handBoc([[0, 8, 1, 2]]), /cut short/],
    [Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 0x01, 0x01]), /header is cut short/],
    [Buffer.from('hello world'), /unknown magic/],
  ];
  for (const [bytes, reason] of cases) {
    assert.throws(
      () => parseBoc(bytes.toString('base64'), 'body'),
      (error: unknown) =>
        error instanceof BocParseError &&
        reason.test(error.reason) &&
        !/Cannot read|undefined/.test(error.message) &&
        error.message.startsWith('Failed to parse body:'),
      String(reason),
    );
  }
});

test('size limits: 65,535 bytes and depth 512 (TON config param 43 for external messages), 1,024 cells (ours)', () => {
  const chainOf = (n: number, bits = 8) => {
    let cell = beginCell().storeUint(0, bits).endCell();
    for (let i = 1; i < n; i++)
      cell = beginCell()
        .storeUint(i % 256, bits)
        .storeRef(cell)
        .endCell();
    return cell;
  };
  const wide = (n: number, dataBytes = 0) => {
    // n distinct leaves under a tree of 4-ref nodes: many cells, little depth.
    let level = Array.from({ length: n }, (_, i) =>
      beginCell()
        .storeUint(i, 16)
        .storeBuffer(Buffer.alloc(dataBytes, i % 256))
        .endCell(),
    );
    while (level.length > 1) {
      const next = [];
      for (let i = 0; i < level.length; i += 4) {
        const b = beginCell();
        for (const c of level.slice(i, i + 4)) b.storeRef(c);
        next.push(b.endCell());
      }
      level = next;
    }
    return level[0];
  };
  assert.ok(
    parseBoc(
      chainOf(BOC_MAX_DEPTH + 1)
        .toBoc()
        .toString('base64'),
    ),
  );
  assert.throws(
    () =>
      parseBoc(
        chainOf(BOC_MAX_DEPTH + 2)
          .toBoc()
          .toString('base64'),
      ),
    (e: unknown) => e instanceof BocParseError && /deeper than 512/.test(e.reason),
  );
  const many = wide(800); // 800 leaves and the 4-ref nodes above them: 1,068 cells
  const bytes = many.toBoc();
  assert.ok(bytes.length <= BOC_MAX_BYTES, `${bytes.length} bytes`);
  assert.ok(parseBoc(wide(760).toBoc().toString('base64')), '1,016 cells fit');
  assert.throws(
    () => parseBoc(bytes.toString('base64')),
    (e: unknown) => e instanceof BocParseError && /more than 1024 cells \(this one holds 1068\)/.test(e.reason),
  );
  // A header that claims a million cells is refused from the header alone.
  const claims = handBoc([[0, 0]]);
  claims[6] = 0xff;
  assert.throws(
    () => parseBoc(claims.toString('base64')),
    (e: unknown) => e instanceof BocParseError && /not a valid bag of cells/.test(e.reason),
  );
  const big = wide(600, 120).toBoc({ idx: true, crc32: true });
  assert.ok(big.length > BOC_MAX_BYTES, `${big.length} bytes`);
  assert.throws(
    () => parseBoc(big.toString('base64')),
    (e: unknown) => e instanceof BocParseError && /larger than 65535 bytes/.test(e.reason),
  );
  assert.throws(
    () => parseBoc('A'.repeat(1_000_000)),
    (e: unknown) => e instanceof BocParseError && /larger than 65535 bytes/.test(e.reason),
  );
});
