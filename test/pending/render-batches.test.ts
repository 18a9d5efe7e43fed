/**
 * The pending layer's render thread is asked in batches (src/pending/renderer.ts): requests made in several turns
 * of the event loop leave in one message once the batch's time has passed on the renderer's clock, and `hurry` (a
 * block sealed) sends what is gathered at the end of the turn. Real wallet transactions, rendered by the real
 * thread; the messages it is sent are counted at the Worker's postMessage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import type { Transaction } from '@ton/core';
import type { OpenBlockTransaction } from '../../src/chain/types.js';
import type { PendingTrace, PendingTx } from '../../src/pending/pending-traces.js';
import { PendingRenderer, RENDER_BATCH_MS } from '../../src/pending/renderer.js';
import { pendingHashes, renderPending } from '../../src/pending/render.js';
import { formatHash } from '../../src/ton/hash.js';
import { transactionMessageCells } from '../../src/ton/message-cells.js';
import { ManualTimers } from '../support/manual-timers.js';
import { scenario } from '../ton/support/scenario.js';

const trace = { traceId: formatHash(Buffer.alloc(32, 7)) } as PendingTrace;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A real transaction as the pending layer holds it (what the renderer reads of it). */
function pendingTx(tx: Transaction): PendingTx {
  const cell = tx.raw;
  const { inMessage, outMessages } = transactionMessageCells(tx);
  const source = {
    cell,
    boc: cell.toBoc(),
    account: { workChain: 0 },
    inMsg: inMessage ? { cell: inMessage } : null,
    outMsgs: outMessages.map((message) => ({ cell: message })),
  } as unknown as OpenBlockTransaction;
  return {
    source,
    hash: formatHash(cell.hash()),
    account: '',
    lt: tx.lt,
    now: tx.now,
    openBlock: 0,
    inMsg: inMessage ? formatHash(inMessage.hash()) : null,
    outMsgs: outMessages.map((message) => formatHash(message.hash())),
  };
}

test('render requests of several turns leave in one message when the batch time passes; hurry sends at once', async () => {
  const s = await scenario();
  const txs = s.all.slice(0, 3).map(pendingTx);
  const expected = txs.map((tx) => renderPending(tx.source.cell, 0, trace.traceId, pendingHashes(tx)));

  const sent: number[] = []; // renders per message to the thread
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
    const renders = (message as { render?: unknown[] }).render;
    if (renders) sent.push(renders.length);
    return post.call(this, message, ...rest);
  };
  const timers = new ManualTimers();
  const renderer = new PendingRenderer(timers);
  try {
    // Two requests in two turns: nothing leaves before the batch's time.
    const first = renderer.render(txs[0], trace);
    await nextTurn();
    const second = renderer.render(txs[1], trace);
    await nextTurn();
    await nextTurn();
    assert.deepEqual(sent, [], 'no message before the batch time');
    timers.advance(RENDER_BATCH_MS - 1);
    assert.deepEqual(sent, [], 'nor a millisecond before it');
    timers.advance(1);
    assert.deepEqual(sent, [2], 'both requests in one message');
    assert.deepEqual(await Promise.all([first, second]), expected.slice(0, 2));

    // A block sealed: what is gathered leaves at the end of the turn, the clock not moved.
    const third = renderer.render(txs[2], trace);
    renderer.hurry();
    assert.deepEqual(sent, [2], 'hurry sends at the end of the turn, not inside it');
    await nextTurn();
    assert.deepEqual(sent, [2, 1]);
    assert.equal(await third, expected[2]);
    // The batch timer of the hurried request was cancelled: moving the clock sends nothing more.
    timers.advance(RENDER_BATCH_MS);
    assert.deepEqual(sent, [2, 1]);
    assert.equal(timers.scheduled, 0);
  } finally {
    Worker.prototype.postMessage = post;
    await renderer.stop();
  }
});
