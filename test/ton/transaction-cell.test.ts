import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, loadTransaction, storeMessage, storeTransactionDescription, type Message } from '@ton/core';
import { loadTransactionCell } from '../../src/ton/transaction-cell.js';
import { story } from '../index/support/sandbox-blocks.js';

const messageHash = (message: Message | null | undefined) =>
  message ? beginCell().store(storeMessage(message)).endCell().hash().toString('hex') : null;

test("loadTransactionCell reads what @ton/core's loadTransaction reads, from real emulated transactions", async () => {
  const transactions = (await story()).blocks.flatMap((b) => b.transactions.map((t) => t.transaction.raw));
  assert.ok(transactions.length >= 8);
  let withOutMessages = 0;
  for (const raw of transactions) {
    const ours = loadTransactionCell(raw);
    const theirs = loadTransaction(raw.beginParse());
    assert.equal(ours.raw, raw, 'raw is the cell itself, not a copy');
    assert.ok(ours.hash().equals(theirs.hash()));
    for (const key of [
      'address',
      'lt',
      'prevTransactionHash',
      'prevTransactionLt',
      'now',
      'outMessagesCount',
      'oldStatus',
      'endStatus',
      'totalFees',
      'stateUpdate',
    ] as const) {
      assert.deepEqual(ours[key], theirs[key], key);
    }
    const description = (d: typeof ours.description) => beginCell().store(storeTransactionDescription(d)).endCell().hash().toString('hex');
    assert.equal(description(ours.description), description(theirs.description));
    assert.equal(messageHash(ours.inMessage), messageHash(theirs.inMessage));
    assert.deepEqual(ours.outMessages.keys(), theirs.outMessages.keys());
    for (const k of theirs.outMessages.keys()) assert.equal(messageHash(ours.outMessages.get(k)), messageHash(theirs.outMessages.get(k)));
    if (theirs.outMessages.size > 0) withOutMessages++;
  }
  assert.ok(withOutMessages > 0, 'the story has transactions with out messages');
});

test('loadTransactionCell refuses a cell that is not a transaction', () => {
  assert.throws(() => loadTransactionCell(beginCell().storeUint(0b0110, 4).endCell()), /not a transaction/);
});
