import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { toNano } from '@ton/core';
import { openChain, tempDir, testWallet } from './support/local-chain.js';

test('a restore whose rowid marks no longer split the store (a store rewritten by VACUUM) deletes by seqno instead, as correctly', async (t) => {
  const dir = tempDir(t);
  const { chain } = await openChain(t, { dataDir: dir, blockIntervalMs: 0 });
  const a = testWallet(111).wallet.address;
  await chain.fund(a, toNano(3));
  await chain.mine();
  const saved = await chain.saveSnapshot('s');
  const balance = chain.getAccount(a).balance;
  await chain.fund(a, toNano(4));
  await chain.mine(2);
  assert.ok(chain.getAccount(a).balance > balance);

  // Marks of 0 in every table: the row after each mark is not after the snapshot, so the marks do not fit.
  const other = new Database(join(dir, 'chain.sqlite'));
  other
    .prepare('UPDATE snapshots SET marks = ? WHERE name = ?')
    .run(JSON.stringify({ blocks: 0, transactions: 0, messages: 0, account_states: 0 }), 's');
  other.close();

  const restored = await chain.restoreSnapshot('s');
  assert.equal(restored.seqno, saved.seqno);
  assert.equal(chain.masterchainInfo().last.id.seqno, saved.seqno);
  assert.equal(chain.getAccount(a).balance, balance, 'the state as of the snapshot');
  assert.equal(chain.getTransactions(a, { limit: 10 }).length, 1, 'the first fund only');
  // A block of a dropped seqno left in the store would collide with the new one (primary key).
  const mined = await chain.mine();
  assert.equal(mined.id.seqno, saved.seqno + 1, 'blocks go on from the snapshot');
  await chain.fund(a, toNano(1));
  assert.equal(chain.getTransactions(a, { limit: 10 }).length, 2);
});
