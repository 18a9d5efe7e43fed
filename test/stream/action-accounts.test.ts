/**
 * Who an action reaches: toncenter's rule (ton-streaming-go v2) is that an action is a client's when one of its
 * `accounts` is subscribed, whether or not the client's address has a transaction in the trace. A jetton transfer
 * without forward amount on tongate's own jetton (src/contracts, deployed by the shared scenario): the receiver's
 * own address has no transaction in the trace (only his jetton wallet has one), yet the `jetton_transfer` names
 * him among its accounts. A real tongate whose local chain mines when asked, real WebSocket clients in their own
 * processes: the receiver's `actions` client gets the action at pending, confirmed and finalized (the finalized one
 * what /api/v3/actions answers for the trace), his `transactions` client nothing of that trace.
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

test("a jetton transfer's receiver, with no transaction of his own in it, gets its actions by their accounts, not its transactions", async (t) => {
  const env = await startContractsChain(t);
  const s = await deployTokenScenario(env);
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  const rest = async (path: string) => {
    const reply = await getJson(`${env.url}${path}`);
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const { alice, bob } = s.actors;
  const aliceWallet = s.jetton.wallets.find((w) => w.owner.equals(alice.address))!.wallet;
  const bobWallet = s.jetton.wallets.find((w) => w.owner.equals(bob.address))!.wallet;

  const wsUrl = `${env.url.replace('http', 'ws')}/api/streaming/v2/ws`;
  const ofActions = wsClient(t, wsUrl);
  const ofTransactions = wsClient(t, wsUrl);
  await subscribe(ofActions, { types: ['actions'], addresses: [raw(bob.address)], min_finality: 'pending' });
  await subscribe(ofTransactions, { types: ['transactions'], addresses: [raw(bob.address)], min_finality: 'pending' });

  // No forward amount: Bob's jetton wallet sends him no transfer_notification.
  await alice.send(aliceWallet, toNano('0.1'), jettonTransferBody({ to: bob.address, amount: 7n, response: alice.address }));

  const actionsAt = async (finality: string) =>
    (await ofActions.next((r) => r.message?.type === 'actions', `the ${finality} actions`)).message;
  const pending = await actionsAt('pending');
  const confirmed = await actionsAt('confirmed');
  const finalized = await actionsAt('finalized');
  assert.deepEqual(
    [pending, confirmed, finalized].map((m) => m.finality),
    ['pending', 'confirmed', 'finalized'],
  );
  const norm = finalized.trace_external_hash_norm;
  assert.ok(
    [pending, confirmed].every((m) => m.trace_external_hash_norm === norm),
    'one trace',
  );
  const transfer = finalized.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(transfer, `a jetton_transfer among ${finalized.actions.map((a: any) => a.type).join()}`);
  assert.ok(transfer.accounts.includes(raw(bob.address)), transfer.accounts.join());

  // The premise: Bob's own address has no transaction in the trace, his jetton wallet has one.
  const trace = (await rest(`/api/v3/traces?trace_id=${encodeURIComponent(transfer.trace_id)}`)).traces[0];
  const accounts = Object.values<any>(trace.transactions).map((tx) => tx.account);
  assert.ok(!accounts.includes(raw(bob.address)) && accounts.includes(raw(bobWallet)), accounts.join());

  // What /api/v3/actions answers for the trace (those naming Bob: a client gets the actions of its accounts).
  const indexed = await rest(`/api/v3/actions?trace_id=${encodeURIComponent(transfer.trace_id)}&include_accounts=true`);
  const his = indexed.actions.filter((a: any) => a.accounts.includes(raw(bob.address)));
  assert.ok(his.length > 0);
  assert.deepEqual(finalized.actions, his, 'the finalized actions are the ones /api/v3/actions answers');
  assert.deepEqual(
    confirmed.actions,
    his.map((a: any) => ({ ...a, finality: 'confirmed' })),
  );
  assert.deepEqual(
    pending.actions.map((a: any) => ({ ...a, trace_mc_seqno_end: transfer.trace_mc_seqno_end, finality: 'finalized' })),
    his,
    'classified alike before the seal',
  );

  // His `transactions` client: nothing of that trace. A later transfer to Bob's own address is the first it hears.
  await alice.send(bob.address, toNano('0.01'));
  const later = (await ofTransactions.next((r) => r.message?.type === 'transactions', 'the later transfer')).message;
  assert.notEqual(later.trace_external_hash_norm, norm);
  assert.deepEqual(
    later.transactions.map((tx: any) => tx.account),
    [raw(bob.address)],
  );
  assert.deepEqual(
    ofTransactions.all((r) => r.message?.trace_external_hash_norm === norm),
    [],
    'no notification of the jetton transfer',
  );
});
