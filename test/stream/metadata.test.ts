/**
 * `include_address_book` and `include_metadata` through the stream, on tongate's own jetton (src/contracts,
 * deployed by the shared scenario: its master's onchain content has the symbol SCN, which the index detects): a real
 * tongate whose local chain mines when asked, real WebSocket clients in their own processes. A client following a
 * jetton wallet with both asked for gets, with the finalized `transactions` of a jetton transfer, the address book
 * and the metadata REST answers for the same addresses (/api/v3/transactions?hash=.. its address book,
 * /api/v3/metadata: the wallets' entries and the master's token_info they bring along), the same already at
 * `pending`, and with its `jettons_change` those of the wallet, its owner and its master; a client without them
 * gets neither key. A client of the sender's `actions` gets, with the finalized `jetton_transfer`, the address book
 * of the actions' accounts (toncenter's ActionAddresses), the receiver among them, whom no transaction of the sender
 * or of its jetton wallet names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '@ton/core';
import { toNano } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { jettonTransferBody } from '../../src/contracts/jetton/jetton.js';
import { startContractsChain } from '../contracts/support/contracts-chain.js';
import { deployTokenScenario } from '../contracts/support/scenario.js';
import { indexedUpTo } from '../devnet/support/manual-tongate.js';
import { getJson } from '../support/tongate.js';
import { subscribe, wsClient } from './support/clients.js';

const raw = (address: Address) => formatRawUpper(address);

test('a jetton transfer streams, to a client that asked, the address book and the token metadata REST answers', async (t) => {
  const env = await startContractsChain(t);
  const s = await deployTokenScenario(env);
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  const rest = async (path: string) => {
    const reply = await getJson(`${env.url}${path}`);
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const { alice, bob } = s.actors;
  const master = raw(s.jetton.master);
  const aliceWallet = s.jetton.wallets.find((w) => w.owner.equals(alice.address))!.wallet;
  assert.equal((await rest(`/api/v3/metadata?address=${master}`))[master].token_info[0].symbol, 'SCN', 'the index knows the master');

  const wsUrl = `${env.url.replace('http', 'ws')}/api/streaming/v2/ws`;
  const withExtras = wsClient(t, wsUrl);
  const without = wsClient(t, wsUrl);
  const ofActions = wsClient(t, wsUrl);
  const subscription = { types: ['transactions', 'jettons_change'], addresses: [raw(aliceWallet)], min_finality: 'pending' };
  await subscribe(withExtras, { ...subscription, include_address_book: true, include_metadata: true });
  await subscribe(without, subscription);
  await subscribe(ofActions, {
    types: ['actions'],
    addresses: [raw(alice.address)],
    min_finality: 'finalized',
    include_address_book: true,
  });

  await alice.send(aliceWallet, toNano('0.1'), jettonTransferBody({ to: bob.address, amount: 10n, response: alice.address }));

  const finalized = (r: any, type: string) => r.message?.type === type && r.message.finality === 'finalized';
  const pending = (await withExtras.next((r) => r.message?.type === 'transactions', 'the pending transactions')).message;
  assert.equal(pending.finality, 'pending');
  const notified = (await withExtras.next((r) => finalized(r, 'transactions'), 'the finalized transactions')).message;
  assert.deepEqual(
    notified.transactions.map((tx: any) => tx.account),
    [raw(aliceWallet)],
  );
  const [tx] = notified.transactions;
  const answered = await rest(`/api/v3/transactions?hash=${encodeURIComponent(tx.hash)}`);
  assert.deepEqual(notified.address_book, answered.address_book, 'the address book /api/v3/transactions answers');
  const addresses = Object.keys(answered.address_book);
  assert.ok(addresses.includes(raw(aliceWallet)) && addresses.includes(raw(alice.address)));
  const metadata = await rest(`/api/v3/metadata?${addresses.map((a) => `address=${a}`).join('&')}`);
  assert.equal(metadata[master].token_info[0].symbol, 'SCN', "a jetton wallet's metadata brings its master's along");
  assert.equal(metadata[raw(aliceWallet)].token_info[0].type, 'jetton_wallets');
  assert.deepEqual(notified.metadata, metadata, 'the metadata /api/v3/metadata answers for the same addresses');

  // At pending, what the index knew then: the same entries (the wallets' balances may already be the block's).
  const unbalanced = (entries: Record<string, any>) =>
    JSON.parse(JSON.stringify(entries, (key, value) => (key === 'balance' ? undefined : value)));
  assert.deepEqual(pending.address_book, notified.address_book);
  assert.deepEqual(unbalanced(pending.metadata), unbalanced(metadata), 'the pending transaction carries the same metadata');

  const jetton = (await withExtras.next((r) => finalized(r, 'jettons_change'), 'the finalized jettons_change')).message;
  assert.equal(jetton.jetton.address, raw(aliceWallet));
  assert.equal(jetton.jetton.jetton, master);
  const mentioned = [raw(aliceWallet), raw(alice.address), master];
  assert.deepEqual(Object.keys(jetton.address_book).sort(), [...mentioned].sort());
  assert.deepEqual(
    jetton.metadata,
    await rest(`/api/v3/metadata?${mentioned.map((a) => `address=${a}`).join('&')}`),
    "the jetton wallet's and its master's metadata",
  );

  // The client that did not ask gets the same transaction, without either key.
  const plainPending = (await without.next((r) => r.message?.type === 'transactions', 'the pending transactions')).message;
  assert.equal(plainPending.finality, 'pending');
  assert.ok(!('address_book' in plainPending) && !('metadata' in plainPending), Object.keys(plainPending).join());
  const plain = (await without.next((r) => finalized(r, 'transactions'), 'the finalized transactions')).message;
  assert.deepEqual(plain.transactions, notified.transactions);
  assert.ok(!('address_book' in plain) && !('metadata' in plain), Object.keys(plain).join());
  const plainJetton = (await without.next((r) => finalized(r, 'jettons_change'), 'the finalized jettons_change')).message;
  assert.deepEqual(plainJetton.jetton, jetton.jetton);
  assert.ok(!('address_book' in plainJetton) && !('metadata' in plainJetton), Object.keys(plainJetton).join());

  // The sender's actions: their address book is their accounts' (the receiver's too), read with the block.
  const actions = (await ofActions.next((r) => finalized(r, 'actions'), 'the finalized actions')).message;
  const transfer = actions.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(transfer, `a jetton_transfer among ${actions.actions.map((a: any) => a.type).join()}`);
  assert.ok(transfer.accounts.includes(raw(bob.address)), `the receiver is among its accounts: ${transfer.accounts.join()}`);
  const accounts = [...new Set<string>(actions.actions.flatMap((a: any) => a.accounts))].sort();
  assert.deepEqual(Object.keys(actions.address_book).sort(), accounts, "the address book of the actions' accounts");
  const book = await rest(`/api/v3/addressBook?${accounts.map((a) => `address=${a}`).join('&')}`);
  assert.deepEqual(actions.address_book, book, 'what /api/v3/addressBook answers for them');
  // No transaction a client asked extras for names the receiver: only the actions bring it into the book.
  const trace = await rest(`/api/v3/traces?trace_id=${encodeURIComponent(transfer.trace_id)}`);
  const followed = Object.values<any>(trace.traces[0].transactions).filter((tx) =>
    [raw(alice.address), raw(aliceWallet)].includes(tx.account),
  );
  const named = followed.flatMap((tx) => [tx.account, tx.in_msg?.source, ...tx.out_msgs.map((m: any) => m.destination)]);
  assert.ok(!named.includes(raw(bob.address)), `no followed transaction names the receiver: ${named.join()}`);
});
