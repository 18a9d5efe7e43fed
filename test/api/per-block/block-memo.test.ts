/** BlockMemo: one build per head and key, shared by concurrent asks, dropped at a new head, failures not kept, bounded. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockMemo } from '../../../src/api/per-block/block-memo.js';

test('an answer is built once per head and key, and again at a new head', () => {
  const memo = new BlockMemo<string>();
  const owner = {};
  let builds = 0;
  const build = () => `answer ${++builds}`;
  const head1 = {};
  assert.equal(memo.get(owner, head1, 'k', build), 'answer 1');
  assert.equal(memo.get(owner, head1, 'k', build), 'answer 1');
  assert.equal(memo.get(owner, head1, 'other', build), 'answer 2');
  const head2 = {};
  assert.equal(memo.get(owner, head2, 'k', build), 'answer 3');
  assert.equal(memo.get(owner, head2, 'k', build), 'answer 3');
  // Another network's chain keeps its own answers.
  assert.equal(memo.get({}, head2, 'k', build), 'answer 4');
});

test('concurrent first asks share one build; a failed build is not kept', async () => {
  const memo = new BlockMemo<string>();
  const owner = {};
  const head = {};
  let builds = 0;
  let fail = true;
  const build = () =>
    new Promise<string>((resolve, reject) => setImmediate(() => (++builds, fail ? reject(new Error('store down')) : resolve('ok'))));
  const [a, b] = [memo.get(owner, head, 'k', build), memo.get(owner, head, 'k', build)];
  await assert.rejects(a as Promise<string>, /store down/);
  await assert.rejects(b as Promise<string>, /store down/);
  assert.equal(builds, 1);
  fail = false;
  assert.equal(await memo.get(owner, head, 'k', build), 'ok');
  assert.equal(builds, 2);
  // Kept as the value once settled.
  assert.equal(memo.get(owner, head, 'k', build), 'ok');
  assert.equal(builds, 2);
});

test('past maxEntries keys in one block, answers are built and not kept', () => {
  const memo = new BlockMemo<number>(2);
  const owner = {};
  const head = {};
  let builds = 0;
  const build = () => ++builds;
  memo.get(owner, head, 'a', build);
  memo.get(owner, head, 'b', build);
  assert.equal(memo.get(owner, head, 'c', build), 3);
  assert.equal(memo.get(owner, head, 'c', build), 4);
  assert.equal(memo.get(owner, head, 'a', build), 1);
});

test('with a weight bound: answers are kept while the block holds less than the bound, answered and let go past it', () => {
  const memo = new BlockMemo<string>(100, (value) => value.length, 10);
  const owner = {};
  const head = {};
  let builds = 0;
  const build = (text: string) => () => (builds++, text);
  assert.equal(memo.get(owner, head, 'a', build('123456')), '123456');
  assert.equal(memo.get(owner, head, 'a', build('123456')), '123456');
  assert.equal(builds, 1, 'kept: 6 of 10');
  assert.equal(memo.get(owner, head, 'b', build('12345')), '12345');
  assert.equal(memo.get(owner, head, 'b', build('12345')), '12345');
  assert.equal(builds, 3, 'past the bound (11 > 10): built each time');
  assert.equal(memo.get(owner, head, 'c', build('1234')), '1234');
  assert.equal(memo.get(owner, head, 'c', build('1234')), '1234');
  assert.equal(builds, 4, 'what still fits is kept');
  // A new block starts from nothing.
  assert.equal(memo.get(owner, {}, 'b', build('12345')), '12345');
  assert.equal(memo.get(owner, head, 'b', build('12345')), '12345');
  assert.equal(builds, 6);
});
