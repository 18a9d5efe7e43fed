/**
 * `actions` through the stream and the pending layer: a real tongate (local chain, its index, the access layer
 * off), real clients in their own processes. A transfer's `ton_transfer` action streams at pending, confirmed and
 * finalized; the finalized one is the action /api/v3/actions answers for the trace (with its accounts), the pending
 * one the action /api/v3/pendingActions answers while the block is open, and the same action (only its block is
 * new) once sealed, when /pendingActions no longer has it. `action_types` and `supported_action_types` filter;
 * a `trace` notification carries its actions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toNano, type Address } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { startTestTongate, type TestTongate } from '../support/tongate.js';
import { sseClient, subscribe, wsClient } from './support/clients.js';

let tongate: TestTongate;
let base: string;
let chain: LocalChain;
const owner = testWallet(92);
let seqno = 0;

const wsUrl = () => `${base.replace('http', 'ws')}/api/streaming/v2/ws`;
const destination = (n: number) => testWallet(300 + n).wallet.address;
const raw = (address: Address) => formatRawUpper(address);

async function getJson(path: string): Promise<any> {
  const res = await fetch(`${base}${path}`);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return res.json();
}

async function transfer(to: Address, value = toNano('0.1')): Promise<{ norm: string; hash: string }> {
  const boc = v4Transfer(owner, seqno++, to, value);
  const res = await fetch(`${base}/api/v3/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  const body = (await res.json()) as { message_hash: string; message_hash_norm: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return { norm: body.message_hash_norm, hash: body.message_hash };
}

before(async () => {
  tongate = await startTestTongate({ access: 'off' });
  base = tongate.url('testnet');
  chain = tongate.chain('testnet');
  await Promise.all([chain.fund(owner.wallet.address, toNano('100')), chain.produceBlock()]);
  await chain.sendExternal(v4Transfer(owner, seqno++, destination(0), toNano('0.1'), { deploy: true }));
  await chain.produceBlock();
});
after(() => tongate.stop());

test('a transfer streams its actions at pending, confirmed, finalized: the REST answers of the same trace', async (t) => {
  const to = destination(1);
  const client = wsClient(t, wsUrl());
  const onlyJettons = wsClient(t, wsUrl());
  const v1Only = wsClient(t, wsUrl());
  await subscribe(client, { types: ['actions'], addresses: [raw(to)], min_finality: 'pending' });
  await subscribe(onlyJettons, {
    types: ['actions', 'account_state_change'],
    addresses: [raw(to)],
    min_finality: 'pending',
    action_types: ['jetton_transfer'],
  });
  await subscribe(v1Only, { types: ['actions'], addresses: [raw(to)], min_finality: 'pending', supported_action_types: ['v1'] });
  const { norm } = await transfer(to);

  const pending = (await client.next((r) => r.message?.type === 'actions', 'pending actions')).message;
  assert.equal(pending.finality, 'pending');
  assert.equal(pending.trace_external_hash_norm, norm);
  assert.equal(pending.actions.length, 1);
  const [action] = pending.actions;
  assert.equal(action.type, 'ton_transfer');
  assert.equal(action.finality, 'pending');
  assert.equal(action.trace_mc_seqno_end, 0);
  assert.equal(action.details.destination, raw(to));
  assert.ok(action.accounts.includes(raw(to)) && action.accounts.includes(raw(owner.wallet.address)));
  // The pending layer answers the same action over REST while the block is open.
  const rest = await getJson(`/api/v3/pendingActions?account=${encodeURIComponent(to.toString())}&include_transactions=true`);
  assert.equal(rest.actions.length, 1);
  const { transactions_full: full, ...restAction } = rest.actions[0];
  assert.deepEqual(restAction, action);
  assert.deepEqual(full.map((tx: { hash: string }) => tx.hash).sort(), [...action.transactions].sort());
  assert.ok(full.every((tx: { emulated: boolean }) => tx.emulated));
  assert.ok(rest.address_book[raw(to)], 'the address book of its accounts');
  assert.deepEqual(
    (await getJson(`/api/v3/pendingActions?ext_msg_hash=${encodeURIComponent(norm)}`)).actions,
    rest.actions.map(() => restAction),
  );

  await chain.produceBlock();
  const sealedIn = chain.masterchainInfo().last.id.seqno;
  const confirmed = (await client.next((r) => r.message?.type === 'actions', 'confirmed actions')).message;
  const finalized = (await client.next((r) => r.message?.type === 'actions', 'finalized actions')).message;
  assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
  const indexed = await getJson(`/api/v3/actions?trace_id=${encodeURIComponent(action.trace_id)}&include_accounts=true`);
  assert.deepEqual(finalized.actions, indexed.actions, 'the streamed action is the one /api/v3/actions answers');
  assert.deepEqual(
    confirmed.actions,
    indexed.actions.map((a: object) => ({ ...a, finality: 'confirmed' })),
  );
  assert.equal(finalized.actions[0].trace_mc_seqno_end, sealedIn);
  assert.deepEqual(
    { ...action, trace_mc_seqno_end: sealedIn, finality: 'finalized' },
    finalized.actions[0],
    'classified alike before and after the seal',
  );
  assert.equal(
    (await getJson(`/api/v3/pendingActions?account=${encodeURIComponent(to.toString())}`)).actions.length,
    0,
    'sealed: pending no more',
  );

  // The filters: a client asking for jetton transfers only hears the block's state change, no action.
  await onlyJettons.next((r) => r.message?.type === 'account_state_change' && r.message.finality === 'finalized', 'the state change');
  assert.deepEqual(
    onlyJettons.all((r) => r.message?.type === 'actions'),
    [],
  );
  // ton_transfer is a v1 type: a v1 client sees it too.
  assert.equal(
    (await v1Only.next((r) => r.message?.type === 'actions' && r.message.finality === 'finalized', 'v1 actions')).message.actions[0].type,
    'ton_transfer',
  );
});

test('a trace notification carries its actions at every finality (SSE)', async (t) => {
  const to = destination(2);
  const boc = v4Transfer(owner, seqno, to, toNano('0.3'));
  const { normalizedExternalHash } = await import('../../src/ton/normalized-external-hash.js');
  const { Cell, loadMessage } = await import('@ton/core');
  const message = loadMessage(Cell.fromBoc(boc)[0].beginParse());
  assert.equal(message.info.type, 'external-in');
  const norm = normalizedExternalHash(message.info.dest, message.body).toString('base64');
  const client = sseClient(t, `${base}/api/streaming/v2/sse`, {
    types: ['trace'],
    trace_external_hash_norms: [norm],
    min_finality: 'pending',
  });
  await client.next((r) => r.event === 'connected', 'connected');
  const res = await fetch(`${base}/api/v3/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  assert.equal(res.status, 200);
  seqno++;
  const pending = (await client.next((r) => r.event === 'event', 'the pending trace')).data;
  await chain.produceBlock();
  const confirmed = (await client.next((r) => r.event === 'event', 'the confirmed trace')).data;
  const finalized = (await client.next((r) => r.event === 'event', 'the finalized trace')).data;
  assert.deepEqual([pending.finality, confirmed.finality, finalized.finality], ['pending', 'confirmed', 'finalized']);
  for (const notification of [pending, confirmed, finalized]) {
    assert.equal(notification.actions.length, 1, notification.finality);
    assert.equal(notification.actions[0].type, 'ton_transfer');
    assert.equal(notification.actions[0].finality, notification.finality);
  }
  assert.equal(pending.actions[0].action_id, finalized.actions[0].action_id);
});

test("pendingActions refuses in toncenter's words what names nothing", async () => {
  const res = await fetch(`${base}/api/v3/pendingActions`);
  assert.equal(res.status, 422);
  assert.deepEqual(await res.json(), { error: 'account or ext_msg_hash should be specified' });
});
