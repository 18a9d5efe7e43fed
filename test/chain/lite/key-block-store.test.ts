/** The newest proven key block kept across restarts (chain/lite/block-proofs/key-block-store.ts); no network needed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { keyBlockFile } from '../../../src/chain/lite/block-proofs/key-block-store.js';
import { MasterchainTrust } from '../../../src/chain/lite/block-proofs/masterchain-trust.js';
import { LitePool } from '../../../src/chain/lite/pool.js';
import { ManualClock } from '../../../src/util/clock.js';

const id = (seqno: number) => ({ workchain: -1, shard: 0x8000000000000000n, seqno, rootHash: randomBytes(32), fileHash: randomBytes(32) });

test('the proven key block is kept for the init block it was proven from, and a restart starts from it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-keyblock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = keyBlockFile(join(dir, 'mainnet'));
  const init = id(100);
  const key = id(5000);
  assert.equal(store.load(init), undefined, 'nothing kept yet');
  store.save(init, key);
  assert.deepEqual(store.load(init), key);
  assert.equal(store.load(id(100)), undefined, 'another init block (another config or network): ignored');
  store.save(init, id(50));
  assert.equal(store.load(init), undefined, 'a key block older than the init block is not taken');
  writeFileSync(join(dir, 'mainnet', 'proven-key-block.json'), '{not json');
  assert.equal(store.load(init), undefined, 'an unreadable file: proven from the init block again');

  store.save(init, key);
  const pool = new LitePool({ servers: [{ host: '127.0.0.1', port: 1, publicKey: randomBytes(32) }], clock: new ManualClock() });
  try {
    const trust = new MasterchainTrust(pool, init, store);
    assert.deepEqual(trust.lastKeyBlock(), key);
    assert.ok(trust.isProven(key) && trust.isProven(init));
    assert.deepEqual(new MasterchainTrust(pool, init).lastKeyBlock(), init, 'without a store: from the init block');
  } finally {
    pool.close();
  }
});
