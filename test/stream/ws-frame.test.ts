/**
 * A notification shared by many clients goes out as one ready WebSocket frame written to each client's socket
 * (src/stream/ws-frame.ts, ws.ts `wsTransport`). A real `ws` client must receive it exactly as ws's own `send` of
 * the same text arrives (short, 16-bit and 64-bit lengths, non-ASCII), in the order it was sent among ws's own
 * frames; a connection that negotiated compression takes ws's way (a raw frame would overtake a message ws is still
 * deflating); a client that leaves too much unread is still closed with the reason.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, test } from 'node:test';
import * as wsModule from 'ws';
import WebSocket, { WebSocketServer } from 'ws';
import { StreamConnection } from '../../src/stream/connection.js';
import { wsTransport } from '../../src/stream/ws.js';
import { FramedText } from '../../src/stream/ws-frame.js';

interface Pair {
  server: WebSocket;
  raw: Socket;
  client: WebSocket;
  /** Every message the client received, as its bytes. */
  received: Buffer[];
  /** How many messages went through ws's own `send` on the server. */
  wsSends: () => number;
}

const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** A ws server socket and a real ws client connected to it over loopback, compression offered or not. */
async function connect(perMessageDeflate: boolean): Promise<Pair> {
  const http = createServer();
  servers.push(http);
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: perMessageDeflate ? { threshold: 0 } : false });
  const accepted = new Promise<{ server: WebSocket; raw: Socket }>((resolve) =>
    http.on('upgrade', (request, socket, head) =>
      wss.handleUpgrade(request, socket, head, (server) => resolve({ server, raw: request.socket })),
    ),
  );
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`, { perMessageDeflate });
  const received: Buffer[] = [];
  client.on('message', (data) => received.push(data as Buffer));
  const [{ server, raw }] = await Promise.all([accepted, once(client, 'open')]);
  let sends = 0;
  const send = server.send.bind(server);
  server.send = ((...args: Parameters<WebSocket['send']>) => {
    sends += 1;
    send(...args);
  }) as WebSocket['send'];
  return { server, raw, client, received, wsSends: () => sends };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
};

const texts = [
  '{"type":"transactions","finality":"confirmed","comment":"é"}',
  `{"type":"transactions","finality":"confirmed","transactions":["${'x'.repeat(300)}","ünïcode"]}`,
  `{"type":"transactions","finality":"confirmed","transactions":["${'y'.repeat(70_000)}"]}`,
];

/** ws's own framing of a server's text message (its Sender, which @types/ws does not declare). */
const wsFramed = (text: string) =>
  Buffer.concat(
    (wsModule as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender.frame(Buffer.from(text), {
      fin: true,
      opcode: 1,
      mask: false,
      readOnly: false,
      rsv1: false,
    }),
  );

test('a shared frame is the frame ws makes of the text', () => {
  for (const text of texts) assert.deepEqual(new FramedText(text).frame, wsFramed(text));
});

test("a shared frame arrives at a ws client byte for byte as ws's own send of the text, in the order sent", async () => {
  const pair = await connect(false);
  const connection = new StreamConnection('c', wsTransport(pair.server, pair.raw), 1 << 20, 0, undefined, () => undefined);
  for (const text of texts) {
    connection.send(text); // ws's way
    connection.send(new FramedText(text)); // the shared frame
  }
  await until(() => pair.received.length === 2 * texts.length);
  assert.equal(pair.wsSends(), texts.length, 'the shared frames did not go through ws');
  for (const [i, text] of texts.entries()) {
    assert.deepEqual(pair.received[2 * i], Buffer.from(text), 'ws frames the text');
    assert.deepEqual(pair.received[2 * i + 1], pair.received[2 * i], 'the shared frame carries the same bytes');
  }
  const frame = new FramedText(texts[1]);
  assert.deepEqual(frame.bytes, Buffer.from(texts[1]), 'its payload is the text');
  assert.equal(frame.bytes.buffer, frame.frame.buffer, 'a view of the frame, not a copy');
  pair.client.close();
});

test('a connection that negotiated compression takes ws’s way, so a shared frame never overtakes a message being deflated', async () => {
  const pair = await connect(true);
  assert.equal(pair.server.extensions, 'permessage-deflate');
  const connection = new StreamConnection('c', wsTransport(pair.server, pair.raw), 1 << 20, 0, undefined, () => undefined);
  const big = JSON.stringify({ type: 'transactions', filler: 'z'.repeat(100_000) });
  connection.send(big);
  connection.send(new FramedText(texts[0]));
  await until(() => pair.received.length === 2);
  assert.equal(pair.wsSends(), 2);
  assert.deepEqual(
    pair.received.map((b) => b.toString()),
    [big, texts[0]],
  );
  pair.client.close();
});

test('a client that leaves too much unread is closed with the reason, shared frames counted', async () => {
  const pair = await connect(false);
  const closedWith = once(pair.client, 'close');
  const released: string[] = [];
  const connection = new StreamConnection('slow', wsTransport(pair.server, pair.raw), 1000, 0, undefined, (c) => released.push(c.id));
  const frame = new FramedText(`{"type":"transactions","filler":"${'w'.repeat(400)}"}`);
  // One turn: the socket is corked until its ticks, so every frame written stays in its buffer meanwhile.
  for (let i = 0; i < 5; i++) connection.send(frame);
  assert.equal(connection.closeReason, 'slow consumer: more than 1000 bytes waiting to be read');
  assert.deepEqual(released, ['slow']);
  const [code, reason] = (await closedWith) as [number, Buffer];
  assert.equal(code, 1008);
  assert.equal(reason.toString(), 'slow consumer: more than 1000 bytes waiting to be read');
  assert.equal(pair.received.length, 2, 'two frames fit under 1,000 bytes; the third would not');
  assert.equal(pair.wsSends(), 0);
});
