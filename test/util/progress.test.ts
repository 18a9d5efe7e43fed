/**
 * The progress reporter: a record per interval of the injected clock (never more often), done / total /
 * rate / ETA computed from that clock, a final record on finish, and a bar only on the stream it is given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/util/clock.js';
import { ProgressReporter } from '../../src/util/progress.js';

function recorder() {
  const records: { fields: any; message: string }[] = [];
  return { records, log: { info: (fields: object, message: string) => records.push({ fields, message }) } };
}

test('one record per interval, with rate and ETA from the clock', () => {
  const clock = new ManualClock(0);
  const { records, log } = recorder();
  const progress = new ProgressReporter({ job: 'key-block proofs', unit: 'links', total: 100, log, clock, intervalMs: 5000 });
  for (let i = 0; i < 10; i++) {
    clock.advance(1000);
    progress.advance(2);
  }
  // 10 s passed: two records (at 5 s and at 10 s), not ten.
  assert.equal(records.length, 2);
  const last = records[1]!.fields.progress;
  assert.deepEqual(last, { job: 'key-block proofs', done: 20, total: 100, rate: 2, eta_s: 40 });
  assert.match(records[1]!.message, /20 of 100 links \(2\/s, about 40 s left\)/);
  progress.finish();
  progress.finish();
  assert.equal(records.length, 3, 'finish writes one record, once');
  assert.match(records[2]!.message, /done, 20 of 100 links \(2\/s\)$/, 'the done line tells no time left');
});

test('without a total: no ETA; a bar is drawn only on the stream given', () => {
  const clock = new ManualClock(0);
  const { log } = recorder();
  const written: string[] = [];
  const progress = new ProgressReporter({
    job: 'back-fill',
    unit: 'blocks',
    log,
    clock,
    bar: { write: (s: string) => written.push(s) },
  });
  clock.advance(2000);
  progress.advance(10);
  assert.equal(progress.snapshot().eta_s, null);
  assert.equal(progress.snapshot().rate, 5);
  assert.equal(written.length, 1);
  assert.match(written[0]!, /^\rback-fill: 10 blocks \(5\/s\)/);
  progress.setTotal(20);
  progress.advance(0);
  assert.match(written[1]!, /\[#{12}\.{12}\]/);
  assert.equal(progress.snapshot().eta_s, 2);
});
