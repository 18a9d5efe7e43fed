import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { BitBuilder, BitString, beginCell, Cell } from '@ton/core';
import { coreSpeedups } from '../../src/ton/core-speedups.js';

const require = createRequire(import.meta.url);

test('both replacements are installed (a @ton/core or @ton/crypto release that moved them fails here)', () => {
  assert.deepEqual(coreSpeedups, { nativeSha256: true, alignedWriteBits: true });
  const primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync: (s: Buffer) => Buffer };
  assert.match(primitives.sha256_sync.toString(), /createHash/);
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
