/**
 * Streaming on an upstream network: a front tongate (networks of kind upstream, the access layer on) before a
 * second tongate (local chains, its own access layer: it knows only the front's upstream key), real clients in
 * their own processes (`ws`, `eventsource`). Checked: tongate's rules in front (a key required, the per-key cap
 * counted by the front and freed when a relay ends), the stream passed through both ways (WS ping/subscribe
 * answered by the upstream, notifications relayed, SSE bytes as the upstream wrote them, the streamed trace equal
 * to /api/v3/traces), the upstream's key sent (the client's never is: the upstream does not know it), and a failing
 * upstream (a 500, a refused connection, one that hangs, one that dies mid-stream) answered with 502/504 or a
 * close with a reason, never a hang.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { toNano } from '@ton/core';
import { WebSocketServer } from 'ws';
import { formatRawUpper } from '../../src/ton/address.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { freePort } from '../support/ports.js';
import { postJson, startTestTongate, type TestTongate } from '../support/tongate.js';
import { sseClient, wsClient } from './support/clients.js';

const ADMIN = 'relay-test-admin';
/** The front's --upstream-timeout: long enough for a loaded 2-core machine (the bound checked is that it ends, not its speed). */
const TIMEOUT_MS = 5000;

let upstream: TestTongate;
let front: TestTongate;
let chain: LocalChain;
/** The fake upstream of testnet: what it does with the next stream. */
let mode: 'ok' | '500' | 'die' | 'hang' = 'ok';
let fake: Server;
let fakePort: number;
const held = new Set<Socket>();
const owner = testWallet(77);
let seqno = 0;

async function createKey(gate: TestTongate, network: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await postJson(`${gate.url(network)}/admin/keys`, { network, rps: 1000, ...extra }, { authorization: `Bearer ${ADMIN}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.result.key;
}

const wsUrl = (network: string) => `${front.url(network).replace('http', 'ws')}/api/streaming/v2/ws`;
const sseUrl = (network: string) => `${front.url(network)}/api/streaming/v2/sse`;

/** An SSE stream of testnet (the fake upstream) asked for with `key`, following the test wallet. */
const postSubscription = (key: string) =>
  fetch(sseUrl('testnet'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ types: ['transactions'], addresses: [formatRawUpper(owner.wallet.address)] }),
  });

/** A streaming upstream that fails as told (its health check path answers, so the front starts as usual). */
function fakeUpstream(): Server {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('/masterchainInfo')) return void res.end(JSON.stringify({ last: { seqno: 1 } }));
    if (mode === 'hang') return void held.add(req.socket);
    if (mode === '500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"streaming backend down"}');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: connected\ndata: {"status":"subscribed"}\n\n');
    setTimeout(() => req.socket.destroy(), 50);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (mode === 'hang') return void held.add(socket as Socket);
    if (mode === '500')
      return void socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ hello: 'from the fake' }));
      setTimeout(() => ws.terminate(), 50);
    });
  });
  return server;
}

before(async () => {
  upstream = await startTestTongate({ access: 'on', adminToken: ADMIN });
  chain = upstream.chain('mainnet');
  const upstreamKey = await createKey(upstream, 'mainnet', { stream_connections: 20 });
  fake = fakeUpstream();
  fakePort = await freePort();
  await new Promise<void>((resolve) => fake.listen(fakePort, '127.0.0.1', resolve));
  const base = upstream.url('mainnet');
  front = await startTestTongate({
    network: [`mainnet=http://127.0.0.1:${await freePort()}`, `testnet=http://127.0.0.1:${await freePort()}`],
    backend: ['mainnet=upstream', 'testnet=upstream'],
    upstreamV2: [`mainnet=${base}/api/v2`],
    upstreamV3: [`mainnet=${base}/api/v3`, `testnet=http://127.0.0.1:${fakePort}/api/v3`],
    upstreamKey: [`mainnet=${upstreamKey}`],
    upstreamCache: ['mainnet=0', 'testnet=0'],
    upstreamTimeout: String(TIMEOUT_MS),
    access: 'on',
    adminToken: ADMIN,
  });
  await Promise.all([chain.fund(owner.wallet.address, toNano('100')), chain.produceBlock()]);
  await chain.sendExternal(v4Transfer(owner, seqno++, testWallet(201).wallet.address, toNano('0.1'), { deploy: true }));
  await chain.produceBlock();
});
after(async () => {
  for (const socket of held) socket.destroy();
  await front?.stop();
  await upstream?.stop();
  await new Promise((resolve) => fake?.close(resolve));
});

test('a key is required before anything is opened upstream (SSE and WS: 401); the per-key cap is counted by the front', async (t) => {
  const none = await fetch(sseUrl('mainnet'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ types: ['transactions'], addresses: [formatRawUpper(owner.wallet.address)] }),
  });
  assert.equal(none.status, 401);
  assert.match(((await none.json()) as { error: string }).error, /API key is required/);
  const ws = wsClient(t, wsUrl('mainnet'));
  assert.equal((await ws.next((r) => 'unexpected' in r, 'the refusal')).unexpected, 401);

  const key = await createKey(front, 'mainnet');
  const subscription = { types: ['transactions'], addresses: [formatRawUpper(owner.wallet.address)] };
  const first = sseClient(t, sseUrl('mainnet'), subscription, key);
  const second = wsClient(t, wsUrl('mainnet'), key);
  assert.deepEqual((await first.next((r) => r.event === 'connected', 'connected')).data, { status: 'subscribed' });
  await second.next((r) => r.open, 'open');
  const third = sseClient(t, sseUrl('mainnet'), subscription, key);
  const refused = await third.next((r) => 'refused' in r, 'the refusal');
  assert.deepEqual([refused.refused, refused.body], [429, { error: 'connection limit reached: 2 active connections' }]);
  // A relay that ends frees its place (once the front has seen the client go: asked again until then).
  second.kill();
  let answer;
  for (let attempt = 0; ; attempt++) {
    const fourth = wsClient(t, wsUrl('mainnet'), key);
    await fourth.next((r) => r.open, 'open');
    fourth.send({ operation: 'ping', id: 'p' });
    answer = (await fourth.next((r) => r.message, 'pong or refusal')).message;
    if (answer.error === undefined || attempt === 20) break;
    fourth.kill();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(answer, { id: 'p', status: 'pong' });
});

test('WS and SSE are passed through: subscribe and ping answered by the upstream, notifications relayed, the trace as /api/v3/traces', async (t) => {
  const key = await createKey(front, 'mainnet');
  const to = testWallet(202).wallet.address;
  const ws = wsClient(t, wsUrl('mainnet'), key);
  await ws.next((r) => r.open, 'open');
  ws.send({
    operation: 'subscribe',
    id: 's1',
    types: ['transactions', 'account_state_change'],
    addresses: [to.toString()],
    min_finality: 'confirmed',
  });
  assert.deepEqual((await ws.next((r) => r.message, 'subscribed')).message, { id: 's1', status: 'subscribed' });
  ws.send({ operation: 'nonsense' });
  assert.deepEqual((await ws.next((r) => r.message, 'the error')).message, { error: 'unknown operation: nonsense' });

  const boc = v4Transfer(owner, seqno++, to, toNano('0.2'));
  const sent = await postJson(`${front.url('mainnet')}/api/v3/message`, { boc: boc.toString('base64') }, { 'x-api-key': key });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const norm = sent.body.message_hash_norm as string;
  const sse = sseClient(
    t,
    sseUrl('mainnet'),
    { types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'finalized', include_address_book: true },
    key,
  );
  assert.deepEqual((await sse.next((r) => r.event === 'connected', 'connected')).data, { status: 'subscribed' });
  await chain.produceBlock();

  const notes: any[] = [];
  for (let i = 0; i < 4; i++) notes.push((await ws.next((r) => r.message?.type, `notification ${i + 1}`)).message);
  assert.deepEqual(
    notes.map((n) => [n.type, n.finality]),
    [
      ['transactions', 'confirmed'],
      ['account_state_change', 'confirmed'],
      ['transactions', 'finalized'],
      ['account_state_change', 'finalized'],
    ],
  );
  assert.equal(notes[2].trace_external_hash_norm, norm);
  const trace = (await sse.next((r) => r.event === 'event', 'the trace')).data;
  assert.deepEqual([trace.type, trace.finality, trace.trace_external_hash_norm], ['trace', 'finalized', norm]);
  const rest = await fetch(`${front.url('mainnet')}/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`, { headers: { 'x-api-key': key } });
  const restTrace = ((await rest.json()) as { traces: any[] }).traces[0];
  assert.deepEqual(trace.trace, restTrace.trace);
  assert.deepEqual(trace.transactions, restTrace.transactions);
});

test('a bad subscription is refused by tongate (400) before anything is opened upstream', async () => {
  const key = await createKey(front, 'mainnet');
  const res = await fetch(sseUrl('mainnet'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ types: ['transactions'] }),
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { error: 'addresses are required for subscription' });
});

test('an upstream answering 500: SSE 502 with its message; WS an error then close 1011', async (t) => {
  mode = '500';
  const key = await createKey(front, 'testnet');
  const res = await postSubscription(key);
  assert.equal(res.status, 502);
  assert.deepEqual(await res.json(), { error: 'upstream streaming failed (500): streaming backend down' });
  const ws = wsClient(t, wsUrl('testnet'), key);
  await ws.next((r) => r.open, 'open');
  assert.match((await ws.next((r) => r.message, 'the error')).message.error, /upstream streaming failed \(500\)/);
  assert.equal((await ws.next((r) => 'close' in r, 'the close')).close, 1011);
});

test('an upstream that dies mid-stream: SSE ends with the reason, WS closes 1011; their places are freed', async (t) => {
  mode = 'die';
  const key = await createKey(front, 'testnet');
  const subscription = { types: ['transactions'], addresses: [formatRawUpper(owner.wallet.address)] };
  for (let round = 0; round < 2; round++) {
    const sse = sseClient(t, sseUrl('testnet'), subscription, key);
    assert.deepEqual((await sse.next((r) => r.event === 'connected', 'the relayed connected')).data, { status: 'subscribed' });
    await sse.next((r) => 'error' in r, 'the end of the stream');
    sse.kill();
    const ws = wsClient(t, wsUrl('testnet'), key);
    assert.deepEqual((await ws.next((r) => r.message, 'the relayed message')).message, { hello: 'from the fake' });
    const closed = await ws.next((r) => 'close' in r, 'the close');
    assert.deepEqual([closed.close, closed.reason], [1011, 'the upstream connection was lost']);
  }
});

test('an upstream that hangs: SSE 504 and WS close 1011 once --upstream-timeout passed', async (t) => {
  mode = 'hang';
  const key = await createKey(front, 'testnet');
  const res = await postSubscription(key);
  assert.equal(res.status, 504);
  assert.deepEqual(await res.json(), { error: 'upstream did not answer in time' });
  const ws = wsClient(t, wsUrl('testnet'), key);
  assert.deepEqual((await ws.next((r) => r.message, 'the error')).message, { error: 'upstream did not answer in time' });
  assert.equal((await ws.next((r) => 'close' in r, 'the close')).close, 1011);
});

test('an upstream that refuses connections: SSE 502 naming ECONNREFUSED, WS close 1011 with the reason', async (t) => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => fake.close(resolve));
  const key = await createKey(front, 'testnet');
  const res = await postSubscription(key);
  assert.equal(res.status, 502);
  assert.deepEqual(await res.json(), { error: 'upstream unreachable (ECONNREFUSED)' });
  const ws = wsClient(t, wsUrl('testnet'), key);
  const closed = await ws.next((r) => 'close' in r, 'the close');
  assert.deepEqual([closed.close, closed.reason], [1011, 'upstream unreachable (ECONNREFUSED)']);
});
