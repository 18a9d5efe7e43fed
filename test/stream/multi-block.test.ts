/**
 * A trace spread over blocks (a local chain holding one transaction per block: --max-block-transactions 1): each
 * block's transactions are streamed with that block, at `confirmed` from what the open block executed and at
 * `finalized` from the index, each transaction once per finality; a later block never tells an earlier block's
 * transaction again. A `trace` client gets the trace once per finality, complete (toncenter sends a trace at the
 * finality all of it reached), with or without another client following the block that completes it; so does an
 * `actions` client, whichever block holds its account's transaction (the actions the index stored with the block
 * that completes the trace, what /api/v3/actions answers).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Cell, loadMessage, parseTuple, toNano, TupleReader, type Address } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { startTestTongate, type TestTongate } from '../support/tongate.js';
import { wsClient, type ChildClient } from './support/clients.js';

let tongate: TestTongate;
let chain: LocalChain;
const owner = testWallet(93);
const to = testWallet(293).wallet.address;

before(async () => {
  tongate = await startTestTongate({ maxBlockTransactions: 1 });
  chain = tongate.chain('testnet');
  // One transaction per block: the faucet's transfer takes a block for each of its transactions.
  const funded = chain.fund(owner.wallet.address, toNano('10'));
  for (let i = 0; i < 4; i++) await chain.produceBlock();
  await funded;
  await chain.sendExternal(v4Transfer(owner, await seqnoOf(owner.wallet.address), to, toNano('0.1'), { deploy: true }));
  // The deploying transfer's two transactions, one block each (and whatever else waits).
  for (let i = 0; i < 4; i++) await chain.produceBlock();
});
after(() => tongate.stop());

/** A wallet's seqno as the chain holds it now (what its next transfer is signed with); 0 before it is deployed. */
async function seqnoOf(address: Address): Promise<number> {
  const { exitCode, stackBoc } = await chain.runGetMethod(address, 'seqno', []);
  if (exitCode === -13) return 0;
  assert.equal(exitCode, 0, `seqno: exit code ${exitCode}`);
  return new TupleReader(parseTuple(stackBoc)).readNumber();
}

test('a trace over two blocks: each transaction confirmed and finalized once, with its own block', async (t) => {
  const client = wsClient(t, `${tongate.url('testnet').replace('http', 'ws')}/api/streaming/v2/ws`);
  await client.next((r) => r.open, 'open');
  client.send({
    operation: 'subscribe',
    id: 's',
    types: ['transactions'],
    addresses: [owner.wallet.address.toString(), to.toString()],
    min_finality: 'confirmed',
  });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');

  await chain.sendExternal(v4Transfer(owner, await seqnoOf(owner.wallet.address), to, toNano('0.2')));
  const first = await chain.produceBlock();
  const second = await chain.produceBlock();
  const seqnos = [first, second].map((b) => b.id.seqno);

  const told: { finality: string; account: string; hash: string; seqno: number; balanceAfter: unknown }[] = [];
  while (told.length < 4) {
    const m = (await client.next((r) => r.message?.type === 'transactions', 'a transactions notification')).message;
    for (const tx of m.transactions)
      told.push({
        finality: m.finality,
        account: tx.account,
        hash: tx.hash,
        seqno: tx.mc_block_seqno,
        balanceAfter: tx.account_state_after.balance,
      });
  }
  // A block more, then a ping: whatever the stream still had to say of these blocks comes before the pong.
  await chain.produceBlock();
  await tongate.networks.find((n) => n.name === 'testnet')!.indexed?.(seqnos[1] + 1);
  client.send({ operation: 'ping', id: 'p' });
  const next = await client.next((r) => r.message?.type === 'transactions' || r.message?.status === 'pong', 'pong');
  assert.equal(next.message.status, 'pong', `nothing more: ${JSON.stringify(next.message)}`);

  const wallet = formatRawUpper(owner.wallet.address);
  const dest = formatRawUpper(to);
  const named = told.map(
    (x) => `${x.finality}:${x.account === wallet ? 'wallet' : x.account === dest ? 'destination' : x.account}:${x.seqno}`,
  );
  // Each finality in block order, and each block confirmed before it is final (a later block's confirmed may come
  // before an earlier one's finalized, which waits for the index).
  assert.deepEqual(
    named.filter((n) => n.startsWith('confirmed')),
    [`confirmed:wallet:${seqnos[0]}`, `confirmed:destination:${seqnos[1]}`],
  );
  assert.deepEqual(
    named.filter((n) => n.startsWith('finalized')),
    [`finalized:wallet:${seqnos[0]}`, `finalized:destination:${seqnos[1]}`],
  );
  for (const seqno of seqnos) {
    const first = named.find((n) => n.endsWith(`:${seqno}`));
    assert.ok(first?.startsWith('confirmed'), `block ${seqno} confirmed first: ${named.join(', ')}`);
  }

  // Confirmed came from what the open block executed (toncenter's emulated shape: states by hash only), also in the
  // second block; finalized from the index (full states).
  for (const x of told) assert.equal(x.balanceAfter === null, x.finality === 'confirmed', `${x.finality} ${x.account}`);
  assert.equal(new Set(told.map((x) => `${x.finality}:${x.hash}`)).size, 4, 'each transaction once per finality');
});

async function subscribed(client: ChildClient, subscription: Record<string, unknown>): Promise<void> {
  await client.next((r) => r.open, 'open');
  client.send({ operation: 'subscribe', id: 's', ...subscription });
  await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
}

const normOf = (boc: Buffer): string => {
  const message = loadMessage(Cell.fromBoc(boc)[0].beginParse());
  if (message.info.type !== 'external-in') throw new Error('not an external message');
  return normalizedExternalHash(message.info.dest, message.body).toString('base64');
};

async function getJson(path: string): Promise<any> {
  const res = await fetch(`${tongate.url('testnet')}${path}`);
  assert.equal(res.status, 200, path);
  return res.json();
}

for (const follower of [false, true]) {
  test(`a trace over two blocks: a trace client gets it once per finality, complete (${follower ? 'a client follows its second block' : 'nobody else connected'})`, async (t) => {
    const wsUrl = `${tongate.url('testnet').replace('http', 'ws')}/api/streaming/v2/ws`;
    const boc = v4Transfer(owner, await seqnoOf(owner.wallet.address), to, toNano('0.2'));
    const norm = normOf(boc);
    const traced = wsClient(t, wsUrl);
    await subscribed(traced, { types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'confirmed' });
    if (follower) {
      // Follows the receiver, whose transaction is in the second block only.
      await subscribed(wsClient(t, wsUrl), { types: ['transactions'], addresses: [to.toString()], min_finality: 'confirmed' });
    }

    await chain.sendExternal(boc);
    const first = await chain.produceBlock();
    const second = await chain.produceBlock();
    const seqnos = [first, second].map((b) => b.id.seqno);
    const confirmed = (await traced.next((r) => r.message?.type === 'trace', 'the confirmed trace')).message;
    const finalized = (await traced.next((r) => r.message?.type === 'trace', 'the finalized trace')).message;
    // A block more: whatever the stream still had to say of these blocks comes before the pong.
    await chain.produceBlock();
    await tongate.networks.find((n) => n.name === 'testnet')!.indexed?.(seqnos[1] + 1);
    traced.send({ operation: 'ping', id: 'p' });
    const next = await traced.next((r) => r.message?.type === 'trace' || r.message?.status === 'pong', 'pong');
    assert.equal(next.message.status, 'pong', `nothing more: ${JSON.stringify(next.message).slice(0, 300)}`);

    assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
    const rest = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
    assert.equal(rest.is_incomplete, false);
    assert.equal(rest.mc_seqno_end, String(seqnos[1]), 'the trace ends in the second block');
    const blocks = Object.values(rest.transactions).map((tx: any) => tx.mc_block_seqno);
    assert.deepEqual(blocks.sort(), [...seqnos].sort(), 'one transaction in each block');
    for (const notification of [confirmed, finalized]) {
      assert.equal(notification.trace_external_hash_norm, norm);
      assert.deepEqual(notification.trace, rest.trace, `${notification.finality}: the whole tree`);
      assert.deepEqual(Object.keys(notification.transactions).sort(), Object.keys(rest.transactions).sort(), notification.finality);
    }
    assert.deepEqual(finalized.transactions, rest.transactions, 'finalized: what /api/v3/traces answers');
    // Confirmed from what the open blocks executed: each transaction with its own block.
    for (const [hash, tx] of Object.entries<any>(confirmed.transactions)) {
      assert.equal(tx.mc_block_seqno, rest.transactions[hash].mc_block_seqno, `the block of ${hash}`);
      assert.deepEqual(tx.block_ref, rest.transactions[hash].block_ref, `the block of ${hash}`);
    }
  });
}

test('a trace over two blocks: its actions are told once per finality, with the block that completes it, to the followers of their accounts', async (t) => {
  const wsUrl = `${tongate.url('testnet').replace('http', 'ws')}/api/streaming/v2/ws`;
  // The wallet's transaction is in the first block, the receiver's in the second.
  const ofWallet = wsClient(t, wsUrl);
  const ofReceiver = wsClient(t, wsUrl);
  await subscribed(ofWallet, { types: ['actions'], addresses: [owner.wallet.address.toString()], min_finality: 'confirmed' });
  await subscribed(ofReceiver, { types: ['actions'], addresses: [to.toString()], min_finality: 'confirmed' });

  const boc = v4Transfer(owner, await seqnoOf(owner.wallet.address), to, toNano('0.2'));
  const norm = normOf(boc);
  await chain.sendExternal(boc);
  const first = await chain.produceBlock();
  const second = await chain.produceBlock();
  // A block more, then a ping: whatever the stream still had to say of these blocks comes before the pong.
  await chain.produceBlock();
  await tongate.networks.find((n) => n.name === 'testnet')!.indexed?.(second.id.seqno + 1);

  const rest = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
  assert.equal(rest.mc_seqno_end, String(second.id.seqno), 'the trace ends in the second block');
  assert.notEqual(first.id.seqno, second.id.seqno);
  const indexed = (await getJson(`/api/v3/actions?trace_id=${encodeURIComponent(rest.trace_id)}&include_accounts=true`)).actions;
  assert.equal(indexed.length, 1);
  for (const client of [ofWallet, ofReceiver]) {
    const confirmed = (await client.next((r) => r.message?.type === 'actions', 'the confirmed actions')).message;
    const finalized = (await client.next((r) => r.message?.type === 'actions', 'the finalized actions')).message;
    assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
    assert.deepEqual(finalized.actions, indexed, 'finalized: what /api/v3/actions answers');
    assert.deepEqual(
      confirmed.actions,
      indexed.map((a: any) => ({ ...a, finality: 'confirmed' })),
      'confirmed: the same action, once all of the trace is sealed',
    );
    client.send({ operation: 'ping', id: 'p' });
    const next = await client.next((r) => r.message?.type === 'actions' || r.message?.status === 'pong', 'pong');
    assert.equal(next.message.status, 'pong', `nothing more: ${JSON.stringify(next.message).slice(0, 300)}`);
  }
});
