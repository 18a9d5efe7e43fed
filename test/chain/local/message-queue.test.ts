import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell } from '@ton/core';
import { MessageQueue, type QueuedMessage } from '../../../src/chain/local/message-queue.js';

const dest = new Address(0, Buffer.alloc(32, 7));

function message(n: number, onDisk = false): QueuedMessage {
  const cell = beginCell().storeUint(n, 32).endCell();
  return { cell, boc: cell.toBoc(), hash: cell.hash(), dest, createdLt: BigInt(n), onDisk };
}

const lts = (messages: (QueuedMessage | undefined)[]) => messages.map((m) => (m ? Number(m.createdLt) : undefined));

test('messages come out in the order they went in; peek leaves the head in place', () => {
  const queue = new MessageQueue([message(1, true), message(2, true)]);
  queue.enqueue(message(3));
  assert.equal(queue.length, 3);
  assert.equal(queue.peek()?.createdLt, 1n);
  assert.equal(queue.peek()?.createdLt, 1n, 'peeking twice takes nothing');
  assert.deepEqual(lts([queue.take(), queue.take()]), [1, 2]);
  queue.enqueue(message(4));
  assert.deepEqual(lts([queue.take(), queue.take()]), [3, 4]);
  assert.equal(queue.length, 0);
  assert.equal(queue.peek(), undefined);
  assert.equal(queue.take(), undefined, 'an empty queue gives nothing and stays empty');
  assert.equal(queue.length, 0);
});

test('newlyPending: the waiting messages not on disk yet, without those already taken', () => {
  const queue = new MessageQueue([message(1, true), message(2, true)]);
  queue.enqueue(message(3));
  queue.enqueue(message(4));
  queue.take();
  queue.take();
  queue.take();
  assert.deepEqual(lts(queue.newlyPending()), [4], 'a taken message is not pending, nor one already on disk');
  const stored = new MessageQueue([message(1, true)]);
  assert.deepEqual(stored.newlyPending(), [], "the store's own messages are on disk already");
});

test('taking thousands keeps the order and the length through the cuts of the array', () => {
  const queue = new MessageQueue();
  for (let i = 0; i < 5000; i++) queue.enqueue(message(i));
  const taken: number[] = [];
  for (let i = 0; i < 3000; i++) {
    taken.push(Number(queue.take()!.createdLt));
    if (i % 2 === 0) queue.enqueue(message(5000 + i / 2));
  }
  assert.deepEqual(
    taken,
    Array.from({ length: 3000 }, (_, i) => i),
  );
  assert.equal(queue.length, 5000 + 1500 - 3000);
  assert.equal(queue.peek()?.createdLt, 3000n);
  const pending = queue.newlyPending();
  assert.equal(pending.length, queue.length);
  assert.equal(pending[0].createdLt, 3000n);
  assert.equal(pending.at(-1)?.createdLt, BigInt(5000 + 1499));
});

test('replace: a restore makes the given messages the whole queue', () => {
  const queue = new MessageQueue();
  for (let i = 0; i < 3; i++) queue.enqueue(message(i));
  queue.take();
  queue.replace([message(10, true), message(11, true)]);
  assert.equal(queue.length, 2);
  assert.deepEqual(lts([queue.take(), queue.take(), queue.take()]), [10, 11, undefined]);
});
