import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TxPipeline } from '../../../src/chain/local/tx-pipeline.js';

/** A promise settled from outside, as a worker's answer is. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('results are applied in send order, whatever order they settle in', async () => {
  const pipeline = new TxPipeline(8);
  const applied: string[] = [];
  const answers = ['a', 'b', 'c'].map(() => deferred<string>());
  const done = ['a', 'b', 'c'].map((account, i) =>
    pipeline.send(account, answers[i].promise, (s) => {
      applied.push(s.ok ? s.value : `error ${String(s.error)}`);
      return account;
    }),
  );
  answers[2].resolve('c done');
  answers[1].reject('b failed');
  await turns();
  assert.deepEqual(applied, [], 'nothing is applied before the first sent');
  assert.equal(pipeline.inFlight, 3);
  answers[0].resolve('a done');
  assert.deepEqual(await Promise.all(done), ['a', 'b', 'c']);
  assert.deepEqual(applied, ['a done', 'error b failed', 'c done']);
  assert.equal(pipeline.inFlight, 0);
});

test('an account waits for its transaction in flight; other accounts do not', async () => {
  const pipeline = new TxPipeline(8);
  const first = deferred<number>();
  void pipeline.send('x', first.promise, () => undefined);
  let xReady = false;
  void pipeline.ready('x').then(() => (xReady = true));
  await pipeline.ready('y'); // another account: at once
  await turns();
  assert.equal(xReady, false, 'x has a transaction in flight');
  first.resolve(1);
  await turns();
  assert.equal(xReady, true);
});

test('at most `depth` transactions are in flight', async () => {
  const pipeline = new TxPipeline(2);
  const answers = [deferred<number>(), deferred<number>()];
  void pipeline.send('a', answers[0].promise, () => undefined);
  void pipeline.send('b', answers[1].promise, () => undefined);
  let room = false;
  void pipeline.ready('c').then(() => (room = true));
  await turns();
  assert.equal(room, false);
  answers[0].resolve(0);
  await turns();
  assert.equal(room, true);
});

test('an apply that throws fails its own sender only; drain and progress wait for what is in flight', async () => {
  const pipeline = new TxPipeline(4);
  const answer = deferred<number>();
  const failing = pipeline.send('a', Promise.resolve(1), () => {
    throw new Error('refused');
  });
  const ok = pipeline.send('b', answer.promise, (s) => (s.ok ? s.value * 2 : -1));
  await assert.rejects(failing, /refused/);
  let drained = false;
  let progressed = false;
  void pipeline.drain().then(() => (drained = true));
  void pipeline.progress().then(() => (progressed = true));
  await turns();
  assert.equal(drained, false);
  assert.equal(progressed, false);
  answer.resolve(21);
  assert.equal(await ok, 42);
  await turns();
  assert.equal(drained, true);
  assert.equal(progressed, true);
  await pipeline.progress(); // nothing in flight: at once
});
