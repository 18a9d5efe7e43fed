import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openIndex } from '../../src/index/open-index.js';
import { currentBoot, guardSqliteFile } from '../../src/index/sql/power-loss-guard.js';
import { syntheticBlocks } from '../../scripts/seed-index.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-guard-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const blocks = () => [...syntheticBlocks(2, { accounts: 10, transactionsPerBlock: 4 })];

test('guard: a file left open by another boot is discarded; by this boot (a process crash) it is kept', (t) => {
  const file = join(tempDir(t), 'index.sqlite');
  writeFileSync(file, 'data');
  const first = guardSqliteFile(file, () => 'boot-a');
  assert.equal(first.synchronous, 'off');
  assert.equal(first.discarded, false);
  // The process dies without closing: the same boot opens it again, the file stays.
  const again = guardSqliteFile(file, () => 'boot-a');
  assert.equal(again.discarded, false);
  assert.equal(readFileSync(file, 'utf8'), 'data');
  // The machine went down meanwhile: another boot finds the marker and discards the file.
  writeFileSync(`${file}-wal`, 'frames');
  const afterPowerLoss = guardSqliteFile(file, () => 'boot-b');
  assert.equal(afterPowerLoss.discarded, true);
  assert.ok(!existsSync(file) && !existsSync(`${file}-wal`));
  // A clean close removes the marker: a later boot keeps the file.
  writeFileSync(file, 'rebuilt');
  afterPowerLoss.closed();
  assert.equal(guardSqliteFile(file, () => 'boot-c').discarded, false);
  assert.equal(readFileSync(file, 'utf8'), 'rebuilt');
});

test('guard: where the system names no boot, fsync stays on and no marker is written', (t) => {
  const file = join(tempDir(t), 'index.sqlite');
  const guard = guardSqliteFile(file, () => undefined);
  assert.equal(guard.synchronous, 'normal');
  assert.ok(!existsSync(`${file}.open-in-boot`));
});

test('openIndex: a data-dir index is marked open in this boot; left open by another boot it starts empty', async (t) => {
  const dir = tempDir(t);
  const index = await openIndex({ network: 'testnet', dataDir: dir });
  const file = join(dir, 'testnet', 'index.sqlite');
  const marker = `${file}.open-in-boot`;
  const boot = currentBoot();
  assert.equal(index.location.kind === 'sqlite' && index.location.synchronous, boot ? 'off' : 'normal');
  for (const block of blocks()) await index.writer.write(block);
  assert.equal(await index.reader.lastMasterchainSeqno(), 2);
  if (boot) assert.equal(readFileSync(marker, 'utf8').trim(), boot);
  await index.close();
  assert.ok(!existsSync(marker), 'a clean close removes the marker');

  const reopened = await openIndex({ network: 'testnet', dataDir: dir });
  assert.equal(reopened.discarded, false);
  assert.equal(await reopened.reader.lastMasterchainSeqno(), 2, 'kept across a clean restart');
  await reopened.close();
  if (!boot) return t.skip('this system names no boot: no guard to test');
  writeFileSync(marker, 'a boot before this one\n');
  const afterPowerLoss = await openIndex({ network: 'testnet', dataDir: dir });
  t.after(() => afterPowerLoss.close());
  assert.equal(afterPowerLoss.discarded, true);
  assert.equal(await afterPowerLoss.reader.lastMasterchainSeqno(), -1, 'empty: the catch-up rebuilds it from the chain');
});
