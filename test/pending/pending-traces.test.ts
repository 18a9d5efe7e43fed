/**
 * /api/v3/pendingTraces carries each pending trace's actions, as toncenter's (ton-index-go's QueryPendingTraces):
 * a jetton transfer of tongate's own TEP-74 jetton, sent through a real gateway with the v3 index attached and not
 * sealed yet, shows its `jetton_transfer` in the trace (finality `pending`, `trace_mc_seqno_end` 0, its accounts),
 * the very action /pendingActions answers (one classification); the version filter applies; once sealed the
 * trace is gone and /api/v3/actions has the same action (its id included). A transfer to a receiver without a jetton
 * wallet, whose wallet the transfer itself deploys (a contract the index does not know yet), is a `jetton_transfer`
 * too, in /pendingActions and in the stream's `pending` notification: its wallet is detected on the state the trace
 * left, and the action is the one the index gives the sealed trace.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Address, contractAddress, internal, toNano } from '@ton/core';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { openStore } from '../index/support/stores.js';
import { sealBlocks, sealUntilQuiet, sendFromWallet, serveIndex, type V3Server } from '../api/v3/support/server.js';
import { toncenterV3 } from '../api/v3/support/spec.js';
import { until } from '../support/poll.js';
import { subscribe, wsClient } from '../stream/support/clients.js';

const raw = (address: Address) => formatRawUpper(address);

/**
 * A gateway on a local chain with its v3 index attached, tongate's own TEP-74 jetton minted to Alice (1,000 tokens:
 * her jetton wallet deployed, sealed and indexed), and the transfer of Alice's tokens to `to`.
 */
async function aliceJettons(t: TestContext) {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return undefined;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const [admin, alice] = [171, 172].map((seed) => testWallet(seed));
  for (const wallet of [admin, alice]) await Promise.all([server.chain.fund(wallet.wallet.address, toNano('10')), sealBlocks(server)]);
  const jettonInit = jettonMasterInit({
    admin: admin.wallet.address,
    content: onchainContent({ name: 'Pending', symbol: 'PND', decimals: '9' }),
  });
  const master = contractAddress(0, jettonInit);
  const mint = mintBody({ to: alice.wallet.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
  await sendFromWallet(server, admin, 0, [internal({ to: master, value: toNano('0.2'), body: mint, init: jettonInit })], true);
  await sealUntilQuiet(server);
  const aliceJetton = jettonWalletAddress(alice.wallet.address, master);
  const transfer = (to: Address, amount: bigint, queryId: bigint) =>
    internal({
      to: aliceJetton,
      value: toNano('0.2'),
      body: jettonTransferBody({ to, amount, response: alice.wallet.address, forwardTonAmount: toNano('0.01'), queryId }),
    });
  return { server, alice, master, aliceJetton, transfer };
}

/** The pending trace of a message sent, once nothing of it is left to execute in the open block. */
async function ranInOpenBlock(server: V3Server, norm: string) {
  return until(
    'the trace to have run in the open block',
    async () => {
      const r = await server.get(`/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(norm)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.traces[0]?.trace_info.pending_messages === 0 ? r : undefined;
    },
    60_000,
  );
}

test('pendingTraces: a jetton transfer not sealed yet shows its jetton_transfer action, the one /pendingActions answers; gone once sealed', async (t) => {
  const setup = await aliceJettons(t);
  if (!setup) return;
  const { server, alice, master, transfer } = setup;
  const bob = testWallet(173);
  const bobJetton = jettonWalletAddress(bob.wallet.address, master);
  // A first transfer, sealed: bob's jetton wallet is deployed and known to the index.
  await sendFromWallet(server, alice, 0, [transfer(bob.wallet.address, 100n, 1n)], true);
  await sealUntilQuiet(server);
  // The pending layer follows the chain from its first ask on.
  assert.equal((await server.get(`/api/v3/pendingTraces?account=${raw(bob.wallet.address)}`)).body.traces.length, 0);

  const sent = await sendFromWallet(server, alice, 1, [transfer(bob.wallet.address, 250n, 2n)]);
  const norm = encodeURIComponent(sent.message_hash_norm);
  const reply = await ranInOpenBlock(server, sent.message_hash_norm);
  const [trace] = reply.body.traces;
  assert.equal(reply.body.traces.length, 1);
  assert.equal(trace.trace_info.trace_state, 'pending');
  assert.equal(trace.trace_info.classification_state, 'ok', 'its actions were classified');
  assert.deepEqual([trace.mc_seqno_start, trace.mc_seqno_end], ['0', '0']);
  assert.ok(Object.values(trace.transactions).every((tx: any) => tx.emulated === true && tx.finality === 'pending'));
  const jetton = trace.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(jetton, `a jetton_transfer among ${trace.actions.map((a: any) => a.type)}`);
  assert.equal(jetton.finality, 'pending');
  assert.equal(jetton.trace_mc_seqno_end, 0);
  assert.equal(jetton.trace_id, trace.trace_id);
  assert.equal(jetton.success, true);
  assert.deepEqual(
    [jetton.details.amount, jetton.details.sender, jetton.details.receiver, jetton.details.asset, jetton.details.receiver_jetton_wallet],
    ['250', raw(alice.wallet.address), raw(bob.wallet.address), raw(master), raw(bobJetton)],
  );
  assert.ok(jetton.accounts.includes(raw(bob.wallet.address)) && jetton.accounts.includes(raw(alice.wallet.address)));
  for (const hash of jetton.transactions) assert.ok(trace.transactions_order.includes(hash), 'its transactions are the trace');
  assert.ok(reply.body.address_book[raw(bob.wallet.address)], "the actions' accounts in the address book");
  assert.ok(reply.body.address_book[raw(master)], "the jetton named in the action's details too");
  assert.ok(reply.body.metadata[raw(master)], 'the jetton in the metadata');
  assert.deepEqual(toncenterV3().errors('/api/v3/pendingTraces', reply.body), []);

  // The very actions /pendingActions answers for the trace, by account or by external message.
  const pendingActions = await server.get(`/api/v3/pendingActions?ext_msg_hash=${norm}`);
  assert.deepEqual(trace.actions, pendingActions.body.actions);
  const byAccount = await server.get(`/api/v3/pendingTraces?account=${raw(bob.wallet.address)}`);
  assert.deepEqual(byAccount.body.traces[0].actions, trace.actions);
  // The version filter: a client of the call_contract type only still sees v1's types, jetton_transfer among them.
  const narrow = await server.get(`/api/v3/pendingTraces?ext_msg_hash=${norm}&supported_action_types=call_contract`);
  assert.deepEqual(narrow.body.traces[0].actions, trace.actions);

  // Sealed: pending no more, and the index classifies it alike (the same action id).
  await sealUntilQuiet(server);
  assert.equal((await server.get(`/api/v3/pendingTraces?ext_msg_hash=${norm}`)).body.traces.length, 0);
  const indexed = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(trace.trace_id)}&action_type=jetton_transfer`);
  assert.equal(indexed.body.actions.length, 1);
  assert.equal(indexed.body.actions[0].action_id, jetton.action_id);
  assert.deepEqual(indexed.body.actions[0].details, jetton.details);
});

test("pendingActions: a jetton transfer to a receiver whose jetton wallet it deploys is a jetton_transfer before it is sealed, the index's action once it is", async (t) => {
  const setup = await aliceJettons(t);
  if (!setup) return;
  const { server, alice, master, aliceJetton, transfer } = setup;
  const carol = testWallet(174);
  const carolJetton = jettonWalletAddress(carol.wallet.address, master);
  // The premise: Carol has no jetton wallet (the index knows none), Alice's is known to the index.
  assert.equal(server.chain.getAccount(carolJetton).state, 'nonexist');
  assert.equal((await server.get(`/api/v3/jetton/wallets?address=${raw(carolJetton)}`)).body.jetton_wallets.length, 0);
  assert.equal((await server.get(`/api/v3/jetton/wallets?address=${raw(aliceJetton)}`)).body.jetton_wallets.length, 1);
  // The pending layer follows the chain from its first ask on; a stream client hears the receiver's actions.
  assert.equal((await server.get(`/api/v3/pendingActions?account=${raw(carol.wallet.address)}`)).body.actions.length, 0);
  const client = wsClient(t, `${server.base.replace('http', 'ws')}/api/streaming/v2/ws`);
  await subscribe(client, { types: ['actions'], addresses: [raw(carol.wallet.address)], min_finality: 'pending' });

  const sent = await sendFromWallet(server, alice, 0, [transfer(carol.wallet.address, 300n, 7n)], true);
  await ranInOpenBlock(server, sent.message_hash_norm);
  const pending = await server.get(`/api/v3/pendingActions?ext_msg_hash=${encodeURIComponent(sent.message_hash_norm)}`);
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  assert.deepEqual(toncenterV3().errors('/api/v3/pendingActions', pending.body), []);
  const types = pending.body.actions.map((a: any) => a.type);
  const jetton = pending.body.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(jetton, `a jetton_transfer among ${types}`);
  assert.ok(!types.includes('call_contract'), `no call_contract: ${types}`);
  assert.equal(jetton.finality, 'pending');
  assert.deepEqual(
    [
      jetton.details.amount,
      jetton.details.sender,
      jetton.details.receiver,
      jetton.details.asset,
      jetton.details.sender_jetton_wallet,
      jetton.details.receiver_jetton_wallet,
    ],
    ['300', raw(alice.wallet.address), raw(carol.wallet.address), raw(master), raw(aliceJetton), raw(carolJetton)],
  );
  assert.ok(jetton.accounts.includes(raw(carol.wallet.address)), 'the receiver among its accounts');
  // The stream's `pending` notification carries the same action.
  const streamed = (await client.next((r) => r.message?.type === 'actions', 'the pending actions')).message;
  assert.equal(streamed.finality, 'pending');
  assert.deepEqual(
    streamed.actions.find((a: any) => a.type === 'jetton_transfer'),
    jetton,
    `the streamed jetton_transfer among ${streamed.actions.map((a: any) => a.type)}`,
  );
  // Looked up by the receiver too (its wallet got the notification).
  const byReceiver = await server.get(`/api/v3/pendingActions?account=${raw(carol.wallet.address)}`);
  assert.deepEqual(byReceiver.body.actions, pending.body.actions);

  // Sealed: the index gives the trace the same actions, the jetton_transfer with the same id, details and accounts.
  await sealUntilQuiet(server);
  const indexed = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(jetton.trace_id)}`);
  assert.deepEqual(indexed.body.actions.map((a: any) => a.type).sort(), [...types].sort());
  const sealed = indexed.body.actions.find((a: any) => a.type === 'jetton_transfer');
  const { finality: _a, trace_mc_seqno_end: _b, accounts: pendingAccounts, ...pendingRest } = jetton;
  const { finality: _c, trace_mc_seqno_end: _d, accounts: sealedAccounts, ...sealedRest } = sealed;
  assert.deepEqual(sealedRest, pendingRest, 'the same action, only its block new');
  assert.deepEqual([...(sealedAccounts ?? pendingAccounts)].sort(), [...pendingAccounts].sort());
});
