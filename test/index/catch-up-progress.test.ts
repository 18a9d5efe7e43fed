/**
 * An index catching up with its chain (a lite back-fill, a rebuilt index) says how far it is: records with done,
 * total, rate and ETA through the index's logger, a last "done" record once at the head, nothing for a catch-up of
 * a block; the bar only on the stream given. Time from an injected clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { catchUpProgress } from '../../src/index/catch-up-progress.js';
import { runIndex } from '../../src/index/run-index.js';
import { openChain } from '../chain/local/support/local-chain.js';

function recorder() {
  const records: { fields: any; message: string }[] = [];
  return { records, log: { info: (fields: object, message: string) => records.push({ fields, message }) } };
}

test('a back-fill from block 101 to a head that moves: records per interval, total following the head, one "done"', () => {
  const clock = new ManualClock(0);
  const { records, log } = recorder();
  let head = 200;
  const bar: string[] = [];
  const onIndexed = catchUpProgress({
    network: 'mainnet',
    from: 100,
    head: () => head,
    log,
    clock,
    intervalMs: 5000,
    bar: { write: (s: string) => bar.push(s) },
  })!;
  for (let seqno = 101; seqno <= 150; seqno++) {
    clock.advance(500);
    onIndexed(seqno);
  }
  // 25 s: a record at 5, 10, 15, 20, 25 s.
  assert.equal(records.length, 5);
  assert.deepEqual(records[4]!.fields.progress, { job: 'mainnet index back-fill', done: 50, total: 100, rate: 2, eta_s: 25 });
  assert.match(records[4]!.message, /^mainnet index back-fill: 50 of 100 masterchain blocks \(2\/s, about 25 s left\)$/);
  head = 210; // the network made blocks meanwhile
  for (let seqno = 151; seqno <= 210; seqno++) {
    clock.advance(500);
    onIndexed(seqno);
  }
  const last = records.at(-1)!;
  assert.match(last.message, /^mainnet index back-fill: done, 110 of 110 masterchain blocks/);
  const count = records.length;
  onIndexed(211);
  assert.equal(records.length, count, 'silent once caught up: the live index is not long work');
  assert.match(bar.at(-2)!, /^\r\[#{24}\] mainnet index back-fill/);
  assert.equal(bar.at(-1), '\n', 'the bar line is closed');
});

test('a catch-up of one block reports nothing', () => {
  const { records, log } = recorder();
  assert.equal(catchUpProgress({ network: 'testnet', from: 9, head: () => 10, log }), undefined);
  assert.equal(records.length, 0);
});

test('runIndex: an index built on a chain of many blocks logs its progress and a final "done" with every block', async (t) => {
  const { chain } = await openChain(t);
  for (let i = 0; i < 24; i++) await chain.produceBlock();
  const head = chain.masterchainInfo().last.id.seqno;
  const { records, log } = recorder();
  // Every reading of this clock is a second later: records come by the clock, not by how fast the machine is.
  let now = 0;
  const clock = { now: () => (now += 1000) };
  const running = await runIndex({
    network: 'testnet',
    chain,
    logger: { error() {}, info: log.info },
    progress: { clock, intervalMs: 3000 },
  });
  t.after(() => running.close());
  await running.attachment.synced(head);
  const progress = records.filter((r) => r.fields.progress);
  assert.ok(progress.length >= 2, `records while indexing, then done (got ${progress.length})`);
  assert.ok(progress.every((r) => r.fields.progress.job === 'testnet index back-fill'));
  const done = progress.at(-1)!;
  assert.match(done.message, /: done, /);
  assert.equal(done.fields.progress.done, head + 1, 'blocks 0..head');
  assert.equal(done.fields.progress.total, head + 1);
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.fields.progress.done >= progress[i - 1]!.fields.progress.done);
});
