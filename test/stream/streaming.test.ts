/**
 * Streaming v2 end to end: a real tongate (local chain, its index, the access layer on), real clients in their own
 * processes (`ws`, `eventsource`), wallet transfers sent through POST /api/v3/message. Checked: the access rules at
 * connect (401/403, the per-key cap, the address cap), WS operations (ping, subscribe, unsubscribe, errors), the
 * order pending -> confirmed -> finalized, a streamed trace equal to what /api/v3/traces answers for it, the
 * keepalive and the idle close (the clock is moved, nothing sleeps), and trace_invalidated.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Address, beginCell, Cell, external, loadMessage, storeMessage, toNano } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';
import { pendingOf } from '../../src/pending/registry.js';
import { pendingRenderer } from '../../src/pending/renderer.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { postJson, startTestTongate, type TestTongate } from '../support/tongate.js';
import { sseClient, wsClient } from './support/clients.js';
import { ManualTimers } from '../support/manual-timers.js';

const ADMIN = 'stream-test-admin';
const timers = new ManualTimers();
let tongate: TestTongate;
let base: string;
let chain: LocalChain;
const owner = testWallet(91);
let seqno = 0;
let keyOfTests: string;

async function createKey(network: string, rps = 1000): Promise<string> {
  const created = await postJson(`${tongate.url(network)}/admin/keys`, { network, rps }, { authorization: `Bearer ${ADMIN}` });
  assert.equal(created.status, 201);
  return created.body.result.key;
}

const wsUrl = () => `${base.replace('http', 'ws')}/api/streaming/v2/ws`;
const sseUrl = () => `${base}/api/streaming/v2/sse`;

/** A transfer from the test wallet through POST /api/v3/message; its normalized hash as the API answers it. */
async function transfer(to: Address, value = toNano('0.1'), signed?: Buffer): Promise<{ norm: string; hash: string }> {
  const boc = signed ?? v4Transfer(owner, seqno, to, value);
  seqno++;
  const res = await fetch(`${base}/api/v3/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': keyOfTests },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  const body = (await res.json()) as { message_hash: string; message_hash_norm: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return { norm: body.message_hash_norm, hash: body.message_hash };
}

/** The normalized hash a transfer will have, before it is sent. */
function normOf(boc: Buffer): string {
  const message = loadMessage(Cell.fromBoc(boc)[0].beginParse());
  if (message.info.type !== 'external-in') throw new Error('not an external message');
  return normalizedExternalHash(message.info.dest, message.body).toString('base64');
}

async function getJson(path: string): Promise<any> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': keyOfTests } });
  assert.equal(res.status, 200, path);
  return res.json();
}

const destination = (n: number) => testWallet(200 + n).wallet.address;
const raw = (address: Address) => formatRawUpper(address);

before(async () => {
  tongate = await startTestTongate({ access: 'on', adminToken: ADMIN }, {}, { clock: timers });
  base = tongate.url('testnet');
  chain = tongate.chain('testnet');
  keyOfTests = await createKey('testnet');
  await Promise.all([chain.fund(owner.wallet.address, toNano('100')), chain.produceBlock()]);
  const deploy = v4Transfer(owner, seqno++, destination(0), toNano('0.1'), { deploy: true });
  await chain.sendExternal(deploy);
  await chain.produceBlock();
});
after(() => tongate.stop());

test("a key is required at connect: none or unknown is 401, another network's 403, as on every route", async (t) => {
  const none = wsClient(t, wsUrl());
  assert.deepEqual((await none.next((r) => 'unexpected' in r, 'the refused upgrade')).unexpected, 401);
  const unknown = wsClient(t, wsUrl(), 'tg_no_such_key');
  const refused = await unknown.next((r) => 'unexpected' in r, 'the refused upgrade');
  assert.equal(refused.unexpected, 401);
  assert.equal(JSON.parse(refused.body).error, 'API key does not exist');
  const mainnetKey = await createKey('mainnet');
  const wrong = wsClient(t, wsUrl(), mainnetKey);
  assert.equal((await wrong.next((r) => 'unexpected' in r, 'the refused upgrade')).unexpected, 403);
  const sse = sseClient(t, sseUrl(), { types: ['transactions'], addresses: [raw(destination(1))] });
  const sseRefused = await sse.next((r) => 'refused' in r, 'the refused stream');
  assert.equal(sseRefused.refused, 401);
  assert.equal(sseRefused.body.error, 'API key is required for streaming');
});

test("WS operations: ping -> pong, unknown operation, bad subscriptions in toncenter's words, the address cap", async (t) => {
  const client = wsClient(t, wsUrl(), await createKey('testnet'));
  await client.next((r) => r.open, 'open');
  client.send({ operation: 'ping', id: 'ping-42' });
  assert.deepEqual((await client.next((r) => r.message, 'pong')).message, { id: 'ping-42', status: 'pong' });
  client.send({ operation: 'dance', id: '7' });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, { id: '7', error: 'unknown operation: dance' });
  client.send({ operation: 'subscribe', id: '8', types: ['blocks'], addresses: [raw(destination(1))] });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, { id: '8', error: 'invalid event type: blocks' });
  client.send({ operation: 'subscribe', id: '9', types: ['transactions'] });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, { id: '9', error: 'addresses are required' });
  client.send({ operation: 'subscribe', id: '10', types: ['trace'] });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, {
    id: '10',
    error: 'trace_external_hash_norms are required for trace subscription',
  });
  client.send({ operation: 'subscribe', id: '11', types: ['transactions'], addresses: ['not-an-address'] });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, { id: '11', error: 'invalid address: not-an-address' });
  const many = Array.from({ length: 1001 }, (_, i) => `0:${i.toString(16).padStart(64, '0')}`);
  client.send({ operation: 'subscribe', id: '12', types: ['transactions'], addresses: many });
  assert.deepEqual((await client.next((r) => r.message, 'an error')).message, {
    id: '12',
    error: 'address limit exceeded: current 0 + new 1001 > max 1000',
  });
  // trace_invalidated is listed by the docs as a type: accepted and ignored; `accounts` is the docs' spelling of `addresses`.
  client.send({
    operation: 'subscribe',
    id: '13',
    types: ['transactions', 'trace_invalidated'],
    accounts: [destination(1).toString({ testOnly: true })],
  });
  assert.deepEqual((await client.next((r) => r.message, 'subscribed')).message, { id: '13', status: 'subscribed' });
});

test("a transfer streams pending, then confirmed and finalized, in toncenter's order; unsubscribe stops it", async (t) => {
  const key = await createKey('testnet');
  const to = destination(2);
  const client = wsClient(t, wsUrl(), key);
  const control = wsClient(t, wsUrl(), key);
  for (const c of [client, control]) {
    await c.next((r) => r.open, 'open');
    c.send({
      operation: 'subscribe',
      id: 's',
      types: ['transactions', 'account_state_change'],
      addresses: [to.toString()],
      min_finality: 'pending',
    });
    await c.next((r) => r.message?.status === 'subscribed', 'subscribed');
  }
  const { norm } = await transfer(to);
  const pending = (await client.next((r) => r.message?.type === 'transactions', 'pending transactions')).message;
  assert.equal(pending.finality, 'pending');
  assert.equal(pending.trace_external_hash_norm, norm);
  assert.equal(pending.transactions.length, 1);
  assert.equal(pending.transactions[0].account, raw(to));
  assert.equal(pending.transactions[0].emulated, true);
  // The pending layer answers the same over REST while the block is open.
  const rest = await getJson(`/api/v3/pendingTransactions?account=${encodeURIComponent(to.toString())}`);
  assert.deepEqual(rest.transactions, pending.transactions);
  const traces = await getJson(`/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(norm)}`);
  assert.equal(traces.traces.length, 1);
  assert.equal(traces.traces[0].trace_info.trace_state, 'pending');
  assert.equal(traces.traces[0].transactions_order.length, 2);

  await chain.produceBlock();
  const order: string[] = [];
  for (;;) {
    const m = (await client.next((r) => r.message?.type, 'a notification')).message;
    order.push(`${m.type}:${m.finality}`);
    if (m.type === 'account_state_change' && m.finality === 'finalized') break;
  }
  assert.deepEqual(order, [
    'transactions:confirmed',
    'account_state_change:confirmed',
    'transactions:finalized',
    'account_state_change:finalized',
  ]);
  const finalized = client.all((r) => r.message?.type === 'transactions' && r.message.finality === 'finalized')[0].message;
  const indexed = await getJson(`/api/v3/transactions?hash=${encodeURIComponent(finalized.transactions[0].hash)}`);
  assert.deepEqual(finalized.transactions, indexed.transactions, 'the streamed transaction is the one /api/v3/transactions answers');
  // Confirmed came from what the open block executed (toncenter's emulated shape: states by hash only), in its block.
  const confirmed = client.all((r) => r.message?.type === 'transactions' && r.message.finality === 'confirmed')[0].message;
  const [c, f] = [confirmed.transactions[0], finalized.transactions[0]];
  assert.deepEqual(
    [c.hash, c.mc_block_seqno, c.block_ref, c.emulated, c.in_msg, c.out_msgs],
    [f.hash, f.mc_block_seqno, f.block_ref, false, f.in_msg, f.out_msgs],
  );
  assert.equal(
    (await getJson(`/api/v3/pendingTransactions?account=${encodeURIComponent(to.toString())}`)).transactions.length,
    0,
    'sealed: pending no more',
  );

  client.send({ operation: 'unsubscribe', id: 'u', addresses: [raw(to)] });
  assert.deepEqual((await client.next((r) => r.message?.status === 'unsubscribed', 'unsubscribed')).message, {
    id: 'u',
    status: 'unsubscribed',
  });
  const before = client.records.length;
  await transfer(to);
  await chain.produceBlock();
  // The client still subscribed gets the block's last notification: by then the other one would have had its own.
  await control.next(
    (r) => r.message?.type === 'account_state_change' && r.message.finality === 'finalized' && r.message.account === raw(to),
    "the control client's notification",
  );
  await control.next((r) => r.message?.type === 'account_state_change' && r.message.finality === 'finalized', 'the second block');
  client.send({ operation: 'ping', id: 'after' });
  await client.next((r) => r.message?.status === 'pong', 'pong');
  assert.deepEqual(
    client.records.slice(before).filter((r) => r.message?.type),
    [],
    'nothing streamed after unsubscribe',
  );
});

test('SSE: a trace subscription streams the trace, equal to /api/v3/traces for the same id', async (t) => {
  const key = await createKey('testnet');
  const to = destination(3);
  const boc = v4Transfer(owner, seqno, to, toNano('0.2'));
  const norm = normOf(boc);
  const client = sseClient(
    t,
    sseUrl(),
    { id: 'sub-1', types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'pending', include_address_book: true },
    key,
  );
  assert.deepEqual((await client.next((r) => r.event === 'connected', 'connected')).data, { id: 'sub-1', status: 'subscribed' });
  const { norm: sent } = await transfer(to, toNano('0.2'), boc);
  assert.equal(sent, norm);
  const pending = (await client.next((r) => r.event === 'event', 'the pending trace')).data;
  assert.equal(pending.type, 'trace');
  assert.equal(pending.finality, 'pending');
  await chain.produceBlock();
  const confirmed = (await client.next((r) => r.event === 'event', 'the confirmed trace')).data;
  const finalized = (await client.next((r) => r.event === 'event', 'the finalized trace')).data;
  assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
  const rest = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
  assert.equal(finalized.trace_external_hash_norm, norm);
  assert.deepEqual(finalized.trace, rest.trace);
  assert.deepEqual(finalized.transactions, rest.transactions);
  assert.deepEqual(
    Object.keys(pending.transactions).sort(),
    Object.keys(rest.transactions).sort(),
    'the pending trace had the same transactions',
  );
  assert.ok(finalized.address_book[raw(to)], 'the address book of its accounts');
});

test('finalized transactions read alone (no trace followed) and with the trace pages are the text /api/v3/transactions answers', async (t) => {
  const key = await createKey('testnet');
  const to = destination(8);
  const client = wsClient(t, wsUrl(), key);
  await client.next((r) => r.open, 'open');
  client.send({
    operation: 'subscribe',
    id: 's',
    types: ['transactions'],
    addresses: [to.toString()],
    min_finality: 'finalized',
    include_address_book: true,
  });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
  const finalizedOf = async () => {
    const m = (await client.next((r) => r.message?.type === 'transactions', 'finalized transactions')).message;
    assert.equal(m.finality, 'finalized');
    const rest = await getJson(`/api/v3/transactions?hash=${encodeURIComponent(m.transactions[0].hash)}`);
    // Key order too: the streamed text is the REST answer's, not an equal object written anew.
    assert.equal(JSON.stringify(m.transactions), JSON.stringify(rest.transactions));
    assert.deepEqual(m.address_book, rest.address_book);
    return m;
  };
  // Nobody follows a trace: the block's followed transaction is read alone.
  const first = await transfer(to);
  await chain.produceBlock();
  assert.equal((await finalizedOf()).trace_external_hash_norm, first.norm);

  // A trace follower connected: the block is read by its trace pages; the transactions client sees the same.
  const boc = v4Transfer(owner, seqno, to, toNano('0.1'));
  const norm = normOf(boc);
  const follower = wsClient(t, wsUrl(), key);
  await follower.next((r) => r.open, 'open');
  follower.send({ operation: 'subscribe', id: 't', types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'finalized' });
  await follower.next((r) => r.message?.status === 'subscribed', 'subscribed');
  await transfer(to, toNano('0.1'), boc);
  await chain.produceBlock();
  const m = await finalizedOf();
  assert.equal(m.trace_external_hash_norm, norm);
  const trace = (await follower.next((r) => r.message?.type === 'trace', 'the finalized trace')).message;
  assert.equal(JSON.stringify(trace.transactions[m.transactions[0].hash]), JSON.stringify(m.transactions[0]));
});

test('a trace client and a transactions client of one block: each the REST answer, a trace page read only for the followed trace', async (t) => {
  const key = await createKey('testnet');
  const to = destination(10);
  const traced = destination(11);
  // Two transfers sealed in one block: the transactions client follows the first's receiver, the trace client the second.
  const plain = v4Transfer(owner, seqno, to, toNano('0.1'));
  const followed = v4Transfer(owner, seqno + 1, traced, toNano('0.3'));
  const norm = normOf(followed);
  const txClient = wsClient(t, wsUrl(), key);
  const traceClient = wsClient(t, wsUrl(), key);
  for (const [client, subscription] of [
    [txClient, { types: ['transactions'], addresses: [to.toString()] }],
    [traceClient, { types: ['trace'], trace_external_hash_norms: [norm] }],
  ] as const) {
    await client.next((r) => r.open, 'open');
    client.send({ operation: 'subscribe', id: 's', ...subscription, min_finality: 'finalized', include_address_book: true });
    await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
  }
  // A spy on the index's trace pages: which traces the stream reads whole.
  const index = tongate.networks.find((n) => n.name === 'testnet')!.index!;
  const tracePage = index.tracePage;
  const paged: string[] = [];
  index.tracePage = async (...args) => {
    const page = await tracePage.apply(index, args);
    paged.push(...page.traces.map((trace) => trace.externalHashNorm ?? trace.traceId));
    return page;
  };
  t.after(() => {
    index.tracePage = tracePage;
  });
  const first = await transfer(to, toNano('0.1'), plain);
  assert.equal((await transfer(traced, toNano('0.3'), followed)).norm, norm);
  await chain.produceBlock();
  const transactions = (await txClient.next((r) => r.message?.type, 'the finalized transactions')).message;
  const trace = (await traceClient.next((r) => r.message?.type, 'the finalized trace')).message;
  index.tracePage = tracePage;
  assert.deepEqual(paged, [norm], "the stream read one trace page: the trace client's");

  assert.deepEqual(
    [transactions.type, transactions.finality, transactions.trace_external_hash_norm],
    ['transactions', 'finalized', first.norm],
  );
  const hashes = transactions.transactions.map((tx: any) => tx.hash);
  const restTransactions = await getJson(`/api/v3/transactions?${hashes.map((h: string) => `hash=${encodeURIComponent(h)}`).join('&')}`);
  assert.equal(JSON.stringify(transactions.transactions), JSON.stringify(restTransactions.transactions));
  assert.deepEqual(transactions.address_book, restTransactions.address_book);

  assert.deepEqual([trace.type, trace.finality, trace.trace_external_hash_norm], ['trace', 'finalized', norm]);
  const restTrace = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
  assert.equal(JSON.stringify(trace.trace), JSON.stringify(restTrace.trace));
  assert.equal(JSON.stringify(trace.transactions), JSON.stringify(restTrace.transactions));
  assert.equal(Object.keys(trace.transactions).length, 2, 'the whole trace: the wallet and the receiver');
  assert.ok(trace.address_book[raw(traced)], 'the address book of its accounts');
  // Nothing else of that block for either.
  for (const client of [txClient, traceClient]) {
    client.send({ operation: 'ping', id: 'p' });
    assert.equal((await client.next((r) => r.message?.type || r.message?.status, 'pong')).message.status, 'pong');
  }
});

test("a trace whose text is still rendering at the seal holds back its own confirmed only, not the block's other traces", async (t) => {
  const key = await createKey('testnet');
  const slow = destination(12);
  const quick = destination(13);
  const slowClient = wsClient(t, wsUrl(), key);
  const quickClient = wsClient(t, wsUrl(), key);
  for (const [client, to] of [
    [slowClient, slow],
    [quickClient, quick],
  ] as const) {
    await client.next((r) => r.open, 'open');
    client.send({ operation: 'subscribe', id: 's', types: ['transactions'], addresses: [to.toString()], min_finality: 'confirmed' });
    await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
  }
  // The slow receiver's transaction stays on the render thread until released: its trace, sealed first, is not
  // ready at the seal.
  const render = pendingRenderer.render;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  pendingRenderer.render = (tx, trace) =>
    tx.account === raw(slow) ? held.then(() => render.call(pendingRenderer, tx, trace)) : render.call(pendingRenderer, tx, trace);
  t.after(() => {
    pendingRenderer.render = render;
    release();
  });
  const first = await transfer(slow);
  const second = await transfer(quick);
  await chain.produceBlock();
  const quickConfirmed = (await quickClient.next((r) => r.message?.type === 'transactions', 'the quick confirmed')).message;
  assert.deepEqual([quickConfirmed.finality, quickConfirmed.trace_external_hash_norm], ['confirmed', second.norm]);
  assert.equal(slowClient.all((r) => r.message?.type === 'transactions').length, 0, 'the slow trace is still held');
  release();
  const slowConfirmed = (await slowClient.next((r) => r.message?.type === 'transactions', 'the slow confirmed')).message;
  assert.deepEqual([slowConfirmed.finality, slowConfirmed.trace_external_hash_norm], ['confirmed', first.norm]);
  const slowFinalized = (await slowClient.next((r) => r.message?.type === 'transactions', 'the slow finalized')).message;
  assert.equal(slowFinalized.finality, 'finalized', "a trace's finalized still after its confirmed");
});

test('finalized of traces confirmed at the seal is the text /api/v3/transactions answers: states kept in full, a mid-block state by hash', async (t) => {
  const key = await createKey('testnet');
  const to = destination(9);
  const client = wsClient(t, wsUrl(), key);
  await client.next((r) => r.open, 'open');
  // min_finality confirmed: both transfers are confirmed from the pending layer, and their finalized told from that.
  client.send({
    operation: 'subscribe',
    id: 's',
    types: ['transactions'],
    addresses: [to.toString(), owner.wallet.address.toString()],
    min_finality: 'confirmed',
  });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
  // Two transfers in one block: the wallet and the receiver each end their first transaction mid-block.
  const first = await transfer(to);
  const second = await transfer(to);
  await chain.produceBlock();
  const finalized: any[] = [];
  while (finalized.length < 2) {
    const m = (await client.next((r) => r.message?.type === 'transactions', 'transactions')).message;
    if (m.finality === 'finalized') finalized.push(m);
  }
  // A /traces page's order: the first transfer's trace ends first.
  assert.deepEqual(
    finalized.map((m) => m.trace_external_hash_norm),
    [first.norm, second.norm],
  );
  const streamed = finalized.flatMap((m) => m.transactions);
  assert.equal(streamed.length, 4, 'each trace: the wallet and the receiver');
  for (const tx of streamed) {
    const rest = await getJson(`/api/v3/transactions?hash=${encodeURIComponent(tx.hash)}`);
    assert.equal(JSON.stringify(tx), JSON.stringify(rest.transactions[0]), `transaction ${tx.hash}`);
  }
  const after = (tx: any) => tx.account_state_after.balance;
  // Each account's first transaction of the block ends in a state the index does not keep; its second, in a kept one.
  const byLt = [...streamed].sort((x, y) => (BigInt(x.lt) < BigInt(y.lt) ? -1 : 1));
  const ofAccount = (account: string) => byLt.filter((tx) => tx.account === account);
  for (const account of [raw(to), raw(owner.wallet.address)]) {
    const [one, two] = ofAccount(account);
    assert.equal(after(one), null, 'a mid-block state: its hash only');
    assert.notEqual(after(two), null, "the block's last state: the index's document");
  }
});

test("the per-key cap: a third stream of a key is refused (WS: toncenter's error then close; SSE: 429), a closed one frees its place", async (t) => {
  const key = await createKey('testnet');
  const subscription = { types: ['transactions'], addresses: [raw(destination(4))] };
  const first = wsClient(t, wsUrl(), key);
  const second = wsClient(t, wsUrl(), key);
  await first.next((r) => r.open, 'open');
  await second.next((r) => r.open, 'open');
  const third = wsClient(t, wsUrl(), key);
  assert.deepEqual((await third.next((r) => r.message, 'the refusal')).message, {
    error: 'connection limit reached: 2 active connections',
  });
  assert.equal((await third.next((r) => 'close' in r, 'the close')).close, 1008);
  const sse = sseClient(t, sseUrl(), subscription, key);
  const refused = await sse.next((r) => 'refused' in r, 'the refused stream');
  assert.equal(refused.refused, 429);
  assert.equal(refused.body.error, 'connection limit reached: 2 active connections');
  first.kill();
  await first.next(() => false, 'nothing').catch(() => undefined);
  // The server hears the socket close a moment after the process is gone: a refused attempt is tried again.
  let connected = false;
  for (let attempt = 0; attempt < 50 && !connected; attempt++) {
    const again = sseClient(t, sseUrl(), subscription, key);
    const first = await again.next((r) => r.event === 'connected' || 'refused' in r, 'connected or refused');
    connected = first.event === 'connected';
    if (!connected) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(connected, 'connected once a place was freed');
  const tooMany = sseClient(
    t,
    sseUrl(),
    { types: ['transactions'], addresses: Array.from({ length: 1001 }, (_, i) => `0:${i.toString(16).padStart(64, '0')}`) },
    await createKey('testnet'),
  );
  assert.deepEqual((await tooMany.next((r) => 'refused' in r, 'the refused stream')).body, {
    error: 'too many addresses: 1001 > max 1000',
  });
});

test('a pending trace that never lands is invalidated, and a client told of it hears trace_invalidated', async (t) => {
  const key = await createKey('testnet');
  const client = wsClient(t, wsUrl(), key);
  await client.next((r) => r.open, 'open');
  client.send({ operation: 'subscribe', types: ['transactions'], addresses: [owner.wallet.address.toString()], min_finality: 'pending' });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
  // A transfer emulated but never sent: as a message accepted by a network that then drops it.
  // No messages: nothing of it is left to execute, so it is announced at once.
  const body = owner.wallet.createTransfer({ seqno, secretKey: owner.keys.secretKey, messages: [] });
  const boc = beginCell()
    .store(storeMessage(external({ to: owner.wallet.address, body })))
    .endCell()
    .toBoc();
  const emulated = await chain.emulateTrace(boc);
  assert.equal(emulated.transactions.length, 1);
  pendingOf(chain)!.executed(emulated.transactions[0]);
  const told = (await client.next((r) => r.message?.type === 'transactions', 'the pending transaction')).message;
  assert.equal(told.finality, 'pending');
  for (let i = 0; i < 30; i++) await chain.produceBlock();
  assert.deepEqual((await client.next((r) => r.message?.type === 'trace_invalidated', 'trace_invalidated')).message, {
    type: 'trace_invalidated',
    trace_external_hash_norm: normOf(boc),
  });
});

test('SSE keepalive every 15 s and the idle WS close after 30 s, on the clock', async (t) => {
  const key = await createKey('testnet');
  const controller = new AbortController();
  t.after(() => controller.abort());
  const res = await fetch(sseUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ types: ['transactions'], addresses: [raw(destination(6))] }),
    signal: controller.signal,
  });
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const reader = res.body!.getReader();
  let text = '';
  const readUntil = async (what: string) => {
    while (!text.includes(what)) text += new TextDecoder().decode((await reader.read()).value);
  };
  await readUntil('event: connected');
  assert.ok(!text.includes(': keepalive'));
  const idle = wsClient(t, wsUrl(), await createKey('testnet'));
  await idle.next((r) => r.open, 'open');
  timers.advance(15_000);
  await readUntil(': keepalive\n\n');
  timers.advance(15_000);
  const closed = await idle.next((r) => 'close' in r, 'the idle close');
  assert.equal(closed.close, 1001);
  assert.match(closed.reason, /^idle/);
});

/** A transaction emulated outside any block, as the open block would have reported it. */
test("pending endpoints refuse in toncenter's words what names nothing", async () => {
  const ask = (path: string) => fetch(`${base}${path}`, { headers: { 'x-api-key': keyOfTests } });
  const transactions = await ask('/api/v3/pendingTransactions');
  assert.equal(transactions.status, 422);
  assert.deepEqual(await transactions.json(), { error: 'at least 1 account address required' });
  const traces = await ask('/api/v3/pendingTraces');
  assert.equal(traces.status, 422);
  assert.deepEqual(await traces.json(), { error: 'account or ext_msg_hash should be specified' });
  const bad = await ask('/api/v3/pendingTraces?ext_msg_hash=nothash');
  assert.equal(bad.status, 422);
});

test("the cap is settable per key and per account (stream_connections), the key's own first", async (t) => {
  const admin = { authorization: `Bearer ${ADMIN}` };
  const own = await postJson(`${base}/admin/keys`, { network: 'testnet', rps: 1000, stream_connections: 1 }, admin);
  assert.equal(own.status, 201);
  assert.equal(own.body.result.streamConnections, 1);
  const set = await fetch(`${base}/admin/accounts/acme`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ network: 'testnet', rps: 1000, stream_connections: 3 }),
  });
  assert.equal(set.status, 200);
  const ofAccount = (await postJson(`${base}/admin/keys`, { network: 'testnet', account: 'acme' }, admin)).body.result.key;
  const refusedOf = async (key: string, allowed: number) => {
    const open = Array.from({ length: allowed }, () => wsClient(t, wsUrl(), key));
    for (const c of open) await c.next((r) => r.open, 'open');
    const extra = wsClient(t, wsUrl(), key);
    return (await extra.next((r) => r.message, 'the refusal')).message;
  };
  assert.deepEqual(await refusedOf(own.body.result.key, 1), { error: 'connection limit reached: 1 active connections' });
  assert.deepEqual(await refusedOf(ofAccount, 3), { error: 'connection limit reached: 3 active connections' });
  const bad = await postJson(`${base}/admin/keys`, { network: 'testnet', stream_connections: -1 }, admin);
  assert.equal(bad.status, 422);
});

test("the address cap is settable per key and per account (stream_addresses), in toncenter's words when exceeded", async (t) => {
  const admin = { authorization: `Bearer ${ADMIN}` };
  const own = await postJson(`${base}/admin/keys`, { network: 'testnet', rps: 1000, stream_addresses: 2 }, admin);
  assert.equal(own.status, 201);
  assert.equal(own.body.result.streamAddresses, 2);
  const set = await fetch(`${base}/admin/accounts/wide`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ network: 'testnet', rps: 1000, stream_addresses: 1500 }),
  });
  assert.equal(set.status, 200);
  const ofAccount = (await postJson(`${base}/admin/keys`, { network: 'testnet', account: 'wide' }, admin)).body.result.key;
  const addresses = (n: number) => Array.from({ length: n }, (_, i) => `0:b${i.toString(16).padStart(63, '0')}`);
  const ws = wsClient(t, wsUrl(), own.body.result.key);
  await ws.next((r) => r.open, 'open');
  ws.send({ operation: 'subscribe', id: 'a', types: ['transactions'], addresses: addresses(3) });
  assert.deepEqual((await ws.next((r) => r.message, 'the refusal')).message, {
    id: 'a',
    error: 'address limit exceeded: current 0 + new 3 > max 2',
  });
  ws.send({ operation: 'subscribe', id: 'b', types: ['transactions'], addresses: addresses(2) });
  assert.deepEqual((await ws.next((r) => r.message, 'subscribed')).message, { id: 'b', status: 'subscribed' });
  const sse = sseClient(t, sseUrl(), { types: ['transactions'], addresses: addresses(3) }, own.body.result.key);
  assert.deepEqual((await sse.next((r) => 'refused' in r, 'the refused stream')).body, { error: 'too many addresses: 3 > max 2' });
  // The account's cap, above the default: 1,200 addresses pass, 1,501 do not.
  const wide = wsClient(t, wsUrl(), ofAccount);
  await wide.next((r) => r.open, 'open');
  wide.send({ operation: 'subscribe', id: 'c', types: ['transactions'], addresses: addresses(1200) });
  assert.deepEqual((await wide.next((r) => r.message, 'subscribed')).message, { id: 'c', status: 'subscribed' });
  wide.send({ operation: 'subscribe', id: 'd', types: ['transactions'], addresses: addresses(1501) });
  assert.deepEqual((await wide.next((r) => r.message, 'the refusal')).message, {
    id: 'd',
    error: 'address limit exceeded: current 0 + new 1501 > max 1500',
  });
  const bad = await postJson(`${base}/admin/keys`, { network: 'testnet', stream_addresses: 'many' }, admin);
  assert.equal(bad.status, 422);
  assert.match(bad.body.error, /^stream_addresses: must be an integer/);
});
