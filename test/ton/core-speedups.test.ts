import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createHash, randomBytes } from 'node:crypto';
import { BitBuilder, BitReader, BitString, beginCell, Cell } from '@ton/core';
import {
  cellWithKnownHash,
  coreSpeedups,
  originalDeserializeBoc,
  originalSerializeBoc,
  serializeBocBytes,
} from '../../src/ton/core-speedups.js';
import { readBocBytes } from '../../src/ton/boc-reader.js';
import { crc32cTable } from '../../src/ton/crc32c.js';

const require = createRequire(import.meta.url);

test('every replacement is installed (a @ton/core or @ton/crypto release that moved them fails here)', () => {
  assert.deepEqual(coreSpeedups, {
    nativeSha256: true,
    alignedWriteBits: true,
    byteReads: true,
    ordinaryWonders: true,
    tableCrc32c: true,
    fastSerializeBoc: true,
    fastDeserializeBoc: true,
  });
  const primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync: (s: Buffer) => Buffer };
  assert.match(primitives.sha256_sync.toString(), /crypto\.(hash|createHash)\(/, 'node:crypto (one-shot where Node has it)');
  const input = randomBytes(100);
  assert.ok(primitives.sha256_sync(input).equals(createHash('sha256').update(input).digest()));
});

test('cell hashes are the ones of the TON specification (known vectors)', () => {
  assert.equal(Cell.EMPTY.hash().toString('hex'), '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7');
  // wallet v3r2's code, whose hash every TON implementation knows
  const wallet = Cell.fromBase64(
    'te6cckEBAQEAcQAA3v8AIN0gggFMl7ohggEznLqxn3Gw7UTQ0x/THzHXC//jBOCk8mCDCNcYINMf0x/TH/gjE7vyY+1E0NMf0x/T/9FRMrryoVFEuvKiBPkBVBBV+RDyo/gAkyDXSpbTB9QC+wDo0QGkyMsfyx/L/8ntVBC9ba0=',
  );
  assert.equal(wallet.hash().toString('base64'), 'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=');
  const built = beginCell().storeUint(0xdeadbeef, 32).storeRef(wallet).endCell();
  assert.ok(Cell.fromBoc(built.toBoc())[0].hash().equals(built.hash()));
});

test('writeBits copies exactly what the bit-by-bit loop copies, for every alignment of source and destination', () => {
  const data = randomBytes(130);
  for (let destOffset = 0; destOffset < 10; destOffset++) {
    for (const srcOffset of [0, 1, 3, 7, 8, 16, 17]) {
      for (const length of [0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 500, 1000 - destOffset]) {
        const src = new BitString(data, srcOffset, length);
        const fast = new BitBuilder(1023);
        const slow = new BitBuilder(1023);
        for (let i = 0; i < destOffset; i++) {
          fast.writeBit(i % 2);
          slow.writeBit(i % 2);
        }
        fast.writeBits(src);
        for (let i = 0; i < length; i++) slow.writeBit(src.at(i));
        assert.ok(fast.build().equals(slow.build()), `dest +${destOffset}, src +${srcOffset}, ${length} bits`);
      }
    }
  }
  // and it still refuses to overflow a cell
  assert.throws(() => new BitBuilder(8).writeBits(new BitString(data, 0, 16)), /overflow/);
});

test('integer reads give what the bit-by-bit reads give, signed and unsigned, at every offset and width', () => {
  const data = randomBytes(80);
  const bits = new BitString(data, 5, 600);
  const slow = (offset: number, width: number, signed: boolean): bigint => {
    let value = 0n;
    for (let i = 0; i < width; i++) value = (value << 1n) | (bits.at(offset + i) ? 1n : 0n);
    return signed && width > 0 && bits.at(offset) ? value - (1n << BigInt(width)) : value;
  };
  for (const offset of [0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 31, 100]) {
    for (const width of [1, 2, 7, 8, 9, 16, 31, 32, 33, 47, 48, 49, 52, 53, 63, 64, 65, 96, 120, 255, 256, 257]) {
      const reader = new BitReader(bits);
      reader.skip(offset);
      assert.equal(reader.preloadUintBig(width), slow(offset, width, false), `uint ${width} bits at +${offset}`);
      if (width <= 52) {
        assert.equal(reader.preloadUint(width), Number(slow(offset, width, false)), `uint ${width} bits at +${offset} as a number`);
        const loading = new BitReader(bits);
        loading.skip(offset);
        assert.equal(loading.loadUint(width), Number(slow(offset, width, false)));
        assert.equal(loading.offset, offset + width, 'loadUint moves past what it read');
      }
      assert.equal(reader.preloadIntBig(width), slow(offset, width, true), `int ${width} bits at +${offset}`);
    }
  }
  // Reads past the end still fail as @ton/core's do; zero bits still read 0.
  const short = new BitReader(new BitString(data, 0, 10));
  assert.throws(() => short.loadUintBig(11), /out of bounds/);
  assert.throws(() => short.loadUint(11), /out of bounds/);
  assert.equal(short.preloadUint(0), 0);
  assert.equal(short.preloadUintBig(0), 0n);
  // Real structures read back: coins, addresses, a 256-bit hash.
  const hash = randomBytes(32);
  const cell = beginCell().storeBit(1).storeCoins(123456789012345678901234n).storeBuffer(hash).storeInt(-5n, 64).endCell();
  const slice = cell.beginParse();
  assert.equal(slice.loadBit(), true);
  assert.equal(slice.loadCoins(), 123456789012345678901234n);
  assert.ok(slice.loadBuffer(32).equals(hash));
  assert.equal(slice.loadIntBig(64), -5n);
  // Byte reads off a byte boundary give the bytes the bits spell, at every shift; past the end they still fail.
  for (const offset of [1, 2, 3, 4, 5, 6, 7, 9, 13, 100]) {
    for (const bytes of [1, 2, 31, 32, 60]) {
      const reader = new BitReader(bits);
      reader.skip(offset);
      const expected = Buffer.from(Array.from({ length: bytes }, (_, i) => Number(slow(offset + i * 8, 8, false))));
      assert.ok(reader.loadBuffer(bytes).equals(expected), `${bytes} bytes at +${offset}`);
    }
  }
  assert.throws(() => new BitReader(new BitString(data, 3, 20)).loadBuffer(3));
});

/** The TON representation hash of an ordinary level-0 cell, computed here bit by bit from the specification. */
function specHash(cell: Cell): Buffer {
  const length = cell.bits.length;
  const bytes = Buffer.alloc(Math.ceil(length / 8));
  for (let i = 0; i < length; i++) if (cell.bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
  if (length % 8 !== 0) bytes[length >> 3] |= 0x80 >> (length % 8);
  const depths = cell.refs.map((ref) => Buffer.from([ref.depth() >> 8, ref.depth() & 0xff]));
  const repr = Buffer.concat([
    Buffer.from([cell.refs.length, Math.floor(length / 8) + Math.ceil(length / 8)]),
    bytes,
    ...depths,
    ...cell.refs.map(specHash),
  ]);
  return createHash('sha256').update(repr).digest();
}

test("cell hashes and depths are the specification's, for every data length and alignment", () => {
  const data = randomBytes(200);
  const leaves = [0, 1, 7, 8, 9, 255, 256, 1023].map((bits, i) =>
    beginCell()
      .storeBits(new BitString(data, i, bits))
      .endCell(),
  );
  const middle = beginCell().storeUint(0b101, 3).storeRef(leaves[1]).storeRef(leaves[7]).endCell();
  const root = beginCell()
    .storeBits(new BitString(data, 3, 517))
    .storeRef(middle)
    .storeRef(leaves[0])
    .storeRef(middle)
    .storeRef(leaves[4])
    .endCell();
  for (const cell of [...leaves, middle, root]) {
    assert.ok(cell.hash().equals(specHash(cell)), `${cell.bits.length} bits, ${cell.refs.length} refs`);
    assert.equal(cell.level(), 0);
  }
  assert.equal(root.depth(), 2);
  assert.equal(leaves[0].depth(), 0);
  // Through a BoC and back: the same hashes.
  assert.ok(Cell.fromBoc(root.toBoc())[0].hash().equals(root.hash()));
});

test('exotic cells and cells above them keep the original computation (a pruned branch of level 1)', () => {
  const inner = beginCell().storeUint(7, 8).endCell();
  // pruned_branch: type 1, level mask 1, the pruned cell's hash and depth.
  const pruned = new Cell({
    exotic: true,
    bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(inner.hash()).storeUint(inner.depth(), 16).endCell().bits,
  });
  assert.equal(pruned.level(), 1);
  assert.ok(pruned.hash(0).equals(inner.hash()), 'a pruned branch hashes as the cell it stands for at level 0');
  const above = beginCell().storeRef(pruned).endCell();
  assert.equal(above.level(), 1);
  assert.ok(!above.hash(0).equals(above.hash(1)));
});

test('cellWithKnownHash: the cell carries the hash it is given, built without hashing', () => {
  const real = beginCell().storeUint(12345, 20).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
  const rebuilt = cellWithKnownHash(real.bits, [...real.refs], real.hash());
  assert.ok(rebuilt.hash().equals(real.hash()));
  assert.equal(rebuilt.depth(), real.depth());
  assert.ok(rebuilt.toBoc().equals(real.toBoc()));
  // The hint is for one cell only: the next cell is hashed as usual.
  const next = beginCell().storeUint(5, 8).endCell();
  assert.ok(next.hash().equals(specHash(next)));
});

test("CRC-32C by table is the bit loop's, for every length; a BoC with a checksum still reads, a damaged one is refused", () => {
  // The bit-by-bit definition @ton/core ships (reflected 0x82f63b78), written out here.
  const bitLoop = (source: Uint8Array) => {
    let crc = -1;
    for (const byte of source) {
      crc ^= byte;
      for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    }
    const out = Buffer.alloc(4);
    out.writeInt32LE(crc ^ -1);
    return out;
  };
  assert.equal(crc32cTable(Buffer.from('123456789')).readUInt32LE(0), 0xe3069283, 'the CRC-32C check value');
  for (let length = 0; length < 300; length++) {
    const bytes = randomBytes(length);
    assert.deepEqual(crc32cTable(bytes), bitLoop(bytes), `length ${length}`);
  }
  const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8).endCell()).endCell();
  const boc = cell.toBoc({ idx: false, crc32: true });
  assert.ok(Cell.fromBoc(boc)[0].equals(cell));
  const damaged = Buffer.from(boc);
  damaged[damaged.length - 6] ^= 1;
  assert.throws(() => Cell.fromBoc(damaged), /crc32/i);
});

/** Random cell trees with shared subtrees (each new cell refers to up to 4 of the 8 before it). */
function randomTrees(count: number, seed: number): Cell[] {
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const trees: Cell[] = [];
  for (let t = 0; t < count; t++) {
    const pool: Cell[] = [];
    const size = 1 + random(t < count - 2 ? 40 : 700);
    for (let i = 0; i < size; i++) {
      const b = beginCell();
      const bits = random(4) === 0 ? random(1024) : random(64);
      for (let k = 0; k < bits; k++) b.storeBit(random(2));
      const refs = pool.length === 0 ? 0 : random(5);
      for (let r = 0; r < refs; r++) b.storeRef(pool[pool.length - 1 - random(Math.min(pool.length, 8))]);
      pool.push(b.endCell());
    }
    trees.push(pool[pool.length - 1]);
  }
  return trees;
}

/** What @ton/core's own reader makes of `boc`: its cells' hashes at every level, or its error. */
function readBoth(boc: Buffer): { ours: string; theirs: string } {
  const describe = (read: () => Cell[]) => {
    try {
      return read()
        .map((c) => `${c.type}:${c.depth()}:${[0, 1, 2, 3].map((l) => c.hash(l).toString('hex')).join('/')}`)
        .join(' ');
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };
  return { ours: describe(() => Cell.fromBoc(boc)), theirs: describe(() => originalDeserializeBoc!(boc)) };
}

test("Cell.fromBoc reads what @ton/core's deserializeBoc reads: random trees, every option, exotic cells, stored hashes, several roots", () => {
  const inner = beginCell().storeUint(7, 8).endCell();
  const pruned = new Cell({
    exotic: true,
    bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(inner.hash()).storeUint(inner.depth(), 16).endCell().bits,
  });
  const trees = [
    new Cell(),
    beginCell().storeUint(1, 1).endCell(),
    beginCell().storeRef(pruned).storeRef(pruned).endCell(),
    ...randomTrees(30, 11),
  ];
  let read = 0;
  for (const root of trees) {
    for (const opts of [
      { idx: false, crc32: false },
      { idx: false, crc32: true },
      { idx: true, crc32: false },
      { idx: true, crc32: true },
    ]) {
      const boc = originalSerializeBoc!(root, opts);
      const cells = readBocBytes(boc);
      assert.ok(cells, `the fast reader takes a well-formed BoC (${JSON.stringify(opts)})`);
      read++;
      const { ours, theirs } = readBoth(boc);
      assert.equal(ours, theirs);
      assert.ok(cells[0].equals(root) && cells[0].depth() === root.depth());
      // The data bits themselves, not only the hash: the last cell of a tree is its root.
      assert.equal(cells[0].bits.toString(), root.bits.toString());
    }
  }
  assert.equal(read, trees.length * 4);

  // Written by hand, as TON's C++ may write them: two roots, and a cell that carries its hash and depth.
  const leaf = beginCell().storeUint(0xabc, 12).endCell(); // 12 bits: padded data
  const top = beginCell().storeUint(5, 8).storeRef(leaf).endCell();
  const leafData = Buffer.from([0xab, 0xc8]);
  const withHashes = Buffer.concat([
    Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 2, 2, 0]), // magic, size 1, off 1, 2 cells, 2 roots, 0 absent
    Buffer.from([4 + 38]), // total cell bytes: the top 2 + 1 + 1, the leaf 2 + 34 + 2
    Buffer.from([0, 1]), // roots: the top cell and the leaf
    Buffer.from([0x01, 0x02, 0x05, 0x01]), // top: 1 ref, 1 data byte (5), ref -> cell 1
    Buffer.from([0x10, 0x03]), // leaf: no refs, hashes stored, 1.5 data bytes
    leaf.hash(),
    Buffer.from([0, 0]),
    leafData,
  ]);
  assert.ok(readBocBytes(withHashes), 'the fast reader takes it');
  const both = readBoth(withHashes);
  assert.equal(both.ours, both.theirs);
  const roots = Cell.fromBoc(withHashes);
  assert.equal(roots.length, 2);
  assert.ok(roots[0].equals(top) && roots[1].equals(leaf));
});

test('a damaged BoC reads (or is refused) exactly as @ton/core reads it: every truncation, flipped bits, bad references', () => {
  const root = randomTrees(3, 5)[2];
  let seed = 3;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (const opts of [
    { idx: false, crc32: false },
    { idx: true, crc32: true },
  ]) {
    const boc = originalSerializeBoc!(root, opts);
    for (let length = 0; length < boc.length; length += 1 + Math.floor(length / 40)) {
      const { ours, theirs } = readBoth(boc.subarray(0, length));
      assert.equal(ours, theirs, `truncated to ${length} of ${boc.length} bytes`);
    }
    for (let k = 0; k < 400; k++) {
      const damaged = Buffer.from(boc);
      damaged[random(damaged.length)] ^= 1 << random(8);
      const { ours, theirs } = readBoth(damaged);
      assert.equal(ours, theirs, `flip ${k}`);
    }
  }
  // A reference back to an earlier cell (a cycle), and padding that is all zeros.
  const backRef = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 2, 1, 0, 6, 0, 0x01, 0x00, 0x01, 0x01, 0x00, 0x00]);
  const zeroPadding = Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, 1, 1, 0, 3, 0, 0x00, 0x01, 0x00]);
  for (const boc of [backRef, zeroPadding]) {
    assert.equal(readBocBytes(boc), undefined, 'left to @ton/core');
    const { ours, theirs } = readBoth(boc);
    assert.equal(ours, theirs);
  }
});

test("toBoc writes what @ton/core's serializeBoc writes, byte for byte: random trees with shared cells, every option, an exotic cell", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const leaf = (bits: number) => {
    const b = beginCell();
    for (let i = 0; i < bits; i++) b.storeBit(random(2));
    return b.endCell();
  };
  const inner = beginCell().storeUint(7, 8).endCell();
  const pruned = new Cell({
    exotic: true,
    bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(inner.hash()).storeUint(inner.depth(), 16).endCell().bits,
  });
  // Random trees with shared subtrees and repeated references, two of them of up to 700 cells.
  const trees: Cell[] = [new Cell(), leaf(1023), beginCell().storeRef(pruned).storeRef(pruned).endCell(), ...randomTrees(40, 7)];
  // A wide tree: 1,024 distinct leaves, four to a node, up to one root (1,365 cells: two-byte indexes).
  let level = Array.from({ length: 1024 }, () => leaf(16 + random(200)));
  while (level.length > 1) {
    const up: Cell[] = [];
    for (let i = 0; i < level.length; i += 4)
      up.push(
        beginCell()
          .storeUint(i, 16)
          .storeRef(level[i])
          .storeRef(level[i + 1])
          .storeRef(level[i + 2])
          .storeRef(level[i + 3])
          .endCell(),
      );
    level = up;
  }
  trees.push(level[0]);
  let sawTwoByteIndexes = false;
  for (const root of trees) {
    for (const opts of [
      { idx: false, crc32: false },
      { idx: false, crc32: true },
      { idx: true, crc32: false },
      { idx: true, crc32: true },
    ]) {
      const ours = serializeBocBytes(root, opts);
      assert.ok(ours.equals(originalSerializeBoc!(root, opts)), `tree of ${root.depth()} levels, ${JSON.stringify(opts)}`);
      assert.ok(Cell.fromBoc(ours)[0].equals(root));
      if ((ours[4] & 7) >= 2) sawTwoByteIndexes = true;
    }
  }
  assert.ok(sawTwoByteIndexes, 'a tree of more than 255 cells was among them');
  assert.ok(trees[3].toBoc().equals(originalSerializeBoc!(trees[3], { idx: false, crc32: true })), 'toBoc() goes through it');
});
