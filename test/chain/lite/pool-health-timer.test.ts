/**
 * The lite pool's health check runs on the injected clock's timers (src/util/scheduler.ts): against a liteserver of
 * the tests' own (test/support/adnl-server.ts, answering getMasterchainInfo with a head one block newer each time),
 * a manual clock moved past `healthIntervalMs` runs the next check, and not a millisecond before; close() stops it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { Codecs, Functions } from 'ton-lite-client/dist/schema.js';
import { LitePool } from '../../../src/chain/lite/index.js';
import { startAdnlServer } from '../../support/adnl-server.js';
import { ManualTimers } from '../../support/manual-timers.js';

const GET_MASTERCHAIN_INFO = Buffer.from(
  (() => {
    const w = new TLWriteBuffer();
    Functions.liteServer_getMasterchainInfo.encodeRequest({ kind: 'liteServer.getMasterchainInfo' }, w);
    return w.build();
  })(),
);

/** A liteserver that answers getMasterchainInfo only (head seqno = how many it was asked); `asked` counts them. */
async function headServer() {
  const hash = randomBytes(32);
  const served = { asked: 0 };
  const server = await startAdnlServer((peer) => (payload) => {
    let message;
    try {
      message = Codecs.adnl_Message.decode(new TLReadBuffer(Buffer.from(payload)));
    } catch {
      return; // not a query
    }
    if (message.kind !== 'adnl.message.query') return;
    const r = new TLReadBuffer(Buffer.from(message.query));
    r.readInt32(); // liteServer.query
    if (!r.readBuffer().equals(GET_MASTERCHAIN_INFO)) return;
    served.asked++;
    const info = new TLWriteBuffer();
    Codecs.liteServer_MasterchainInfo.encode(
      {
        kind: 'liteServer.masterchainInfo',
        last: {
          kind: 'tonNode.blockIdExt',
          workchain: -1,
          shard: '-9223372036854775808',
          seqno: served.asked,
          rootHash: hash,
          fileHash: hash,
        },
        stateRootHash: hash,
        init: { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: hash, fileHash: hash },
      },
      info,
    );
    const answer = new TLWriteBuffer();
    Codecs.adnl_Message.encode({ kind: 'adnl.message.answer', queryId: message.queryId, answer: info.build() }, answer);
    peer.send(answer.build());
  });
  return { server, served };
}

test('lite pool health check: on connect, then each time the clock passes the interval, none after close', async (t) => {
  const { server, served } = await headServer();
  t.after(() => server.close());
  const clock = new ManualTimers();
  const interval = 1000;
  const pool = new LitePool({
    servers: [{ host: '127.0.0.1', port: server.port, publicKey: server.publicKey }],
    clock,
    healthIntervalMs: interval,
    watchHeads: false,
  });
  t.after(() => pool.close());
  assert.equal(clock.scheduled, 2, "the health timer and the connection's handshake deadline are on the injected clock");
  // The first check runs when the connection is up (not on the timer); its head is announced ('head').
  await once(pool, 'head');
  await new Promise((resolve) => setImmediate(resolve)); // the check's own ending (its finally) runs
  assert.equal(served.asked, 1);
  assert.equal(clock.scheduled, 1, 'the handshake deadline is gone once connected');

  clock.advance(interval - 1);
  await clock.settled();
  assert.equal(served.asked, 1, 'not before the interval');

  clock.advance(1);
  await clock.settled();
  assert.equal(served.asked, 2, 'checked when the interval has passed');
  assert.equal(pool.status()[0].mcSeqno, 2, "the check's answer is taken");

  clock.advance(interval);
  await clock.settled();
  assert.equal(served.asked, 3);

  pool.close();
  assert.equal(clock.scheduled, 0, 'close() stops the timer');
  clock.advance(interval * 3);
  await clock.settled();
  assert.equal(served.asked, 3, 'no check after close');
});
