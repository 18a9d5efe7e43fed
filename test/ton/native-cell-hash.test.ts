import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import { nativeCellHashInstalled } from '../../src/ton/native-cell-hash.js';

const require = createRequire(import.meta.url);

test('@ton/core hashes cells through node:crypto once native-cell-hash is imported', () => {
  assert.equal(nativeCellHashInstalled, true, '@ton/crypto moved sha256_sync: cells are hashed by jsSHA again');
  const primitives = require('@ton/crypto/dist/primitives/sha256.js') as { sha256_sync: (s: Buffer) => Buffer };
  assert.match(primitives.sha256_sync.toString(), /createHash/);
});

test('cell hashes are the ones of the TON specification (known vectors)', () => {
  // The empty cell's representation hash, and a cell with data and a reference, as every TON implementation computes them.
  assert.equal(Cell.EMPTY.hash().toString('hex'), '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7');
  const wallet = Cell.fromBase64(
    'te6cckEBAQEAcQAA3v8AIN0gggFMl7ohggEznLqxn3Gw7UTQ0x/THzHXC//jBOCk8mCDCNcYINMf0x/TH/gjE7vyY+1E0NMf0x/T/9FRMrryoVFEuvKiBPkBVBBV+RDyo/gAkyDXSpbTB9QC+wDo0QGkyMsfyx/L/8ntVBC9ba0=',
  );
  assert.equal(wallet.hash().toString('base64'), 'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=');
  // Built cells and parsed cells agree (both paths hash).
  const built = beginCell().storeUint(0xdeadbeef, 32).storeRef(wallet).endCell();
  assert.ok(Cell.fromBoc(built.toBoc())[0].hash().equals(built.hash()));
});
