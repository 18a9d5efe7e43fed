/**
 * The render thread's way (render.ts's renderPending on cells hashed on demand, core-speedups.ts): the hashes of the
 * messages' references handed over by the chain (messageRefHashes) and bodies and state inits written without
 * hashing their cells give the text the codecs write from cells hashed as they are built. Real transactions of a
 * wallet v4 (its deploy with a StateInit, comments inline and in references, bounces, an internal deploy, a
 * tick-tock). The switch to hashing on demand holds for the whole process: this file runs in one of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cell } from '@ton/core';
import type { OpenBlockTransaction } from '../../src/chain/types.js';
import { hashCellsOnDemand } from '../../src/ton/core-speedups.js';
import { formatHash } from '../../src/ton/hash.js';
import { transactionMessageCells } from '../../src/ton/message-cells.js';
import { v3Transaction, type KnownHashes } from '../../src/ton/transaction-v3-json.js';
import { WHOLE_SHARD } from '../../src/ton/workchain.js';
import { messageRefHashes, renderPending } from '../../src/pending/render.js';
import { scenario } from '../ton/support/scenario.js';

const TRACE = formatHash(Buffer.alloc(32, 26));

test("texts rendered with the chain's hashes of the messages' references, on cells hashed on demand, are the codecs' texts", async () => {
  const s = await scenario();
  const cases = s.all.map((tx) => {
    const { inMessage, outMessages } = transactionMessageCells(tx);
    const hashes: KnownHashes = {
      transaction: formatHash(tx.hash()),
      inMessage: inMessage ? formatHash(inMessage.hash()) : null,
      outMessages: outMessages.map((cell) => formatHash(cell.hash())),
    };
    // What the chain hands over: its cells were hashed as they were read.
    const source = { inMsg: inMessage ? { cell: inMessage } : null, outMsgs: outMessages.map((cell) => ({ cell })) };
    const messageRefs = messageRefHashes(source as unknown as OpenBlockTransaction);
    const json = v3Transaction(tx, {
      block: { workchain: 0, shard: WHOLE_SHARD, seqno: 0 },
      mcBlockSeqno: 0,
      traceId: TRACE,
      emulated: true,
      hashes,
    });
    const expected = JSON.stringify({ ...json, finality: 'pending' });
    return { boc: tx.raw.toBoc(), hashes, messageRefs, expected, deploy: json.in_msg?.init_state !== null };
  });
  assert.ok(
    cases.some((c) => c.deploy && c.messageRefs),
    'a message with a StateInit, its references handed over',
  );
  hashCellsOnDemand();
  for (const c of cases) {
    const read = () => Cell.fromBoc(c.boc)[0];
    assert.equal(renderPending(read(), 0, TRACE, { ...c.hashes, messageRefs: c.messageRefs }), c.expected);
    assert.equal(renderPending(read(), 0, TRACE, c.hashes), c.expected);
  }
  // The hashes handed over are the ones written: not one of them computed again from the cells.
  for (const c of cases.filter((c) => c.messageRefs)) {
    const marks = new Uint8Array(c.messageRefs!.length).map((_, i) => 1 + (i >> 5));
    assert.notEqual(renderPending(Cell.fromBoc(c.boc)[0], 0, TRACE, { ...c.hashes, messageRefs: marks }), c.expected);
  }
  // As many hashes as references, else none taken.
  const withRefs = cases.find((c) => c.messageRefs)!;
  const short = new Uint8Array(withRefs.messageRefs!.length - 32).fill(1);
  assert.equal(renderPending(Cell.fromBoc(withRefs.boc)[0], 0, TRACE, { ...withRefs.hashes, messageRefs: short }), withRefs.expected);
});
