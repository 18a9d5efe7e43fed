/**
 * Streaming v2 on a lite network (../shared/ton-node: TON's validator-engine and its liteserver), real clients in
 * their own processes (`ws`, `eventsource`), the access layer on: a transfer sent through tongate is streamed at
 * `confirmed` then `finalized` (a lite network's block is final once a proven masterchain block commits it), to
 * followers of its receiver (transactions, then its account_state_change) and of its external message (trace); the
 * streamed trace is what /api/v3/traces answers for the same id. Clients of `transactions` alone cost no trace page
 * (their followed transactions are read alone, as on a local chain). A jetton transfer without forward amount (tongate's
 * own jetton, src/contracts, deployed and minted by the wallet) reaches the receiver's `actions` client by the
 * action's accounts, his own address having no transaction in it, and not his `transactions` client; with a pending
 * layer, already as a `jetton_transfer` at `pending`, his jetton wallet (which the transfer deploys) detected on the
 * emulated state. The
 * transfers leave a wallet v4 (funded by the
 * genesis wallet and deployed in `before`: the genesis wallet sits at -1:00..00, the address the index takes for
 * the system's own messages, so its transfers start no trace of their own).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  loadMessage,
  storeMessage,
  toNano,
  type StateInit,
} from '@ton/core';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../../src/contracts/jetton/jetton.js';
import { onchainContent } from '../../../src/contracts/content.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { pendingOf } from '../../../src/pending/registry.js';
import { normalizedExternalHash } from '../../../src/ton/normalized-external-hash.js';
import { genesisTransfer, requireTonNode, startTonNode, TON_NETWORK, type TonNode } from '../../support/ton-node.js';
import { postJson, startTestTongate, type TestTongate } from '../../support/tongate.js';
import { freePort } from '../../support/ports.js';
import { until } from '../../support/poll.js';
import { testWallet, v4Transfer } from '../local/support/local-chain.js';
import { sseClient, wsClient } from '../../stream/support/clients.js';

const available = requireTonNode();
const ADMIN = 'lite-stream-admin';

describe(`streaming on a lite network (${TON_NETWORK})`, { skip: !available }, () => {
  let node: TonNode;
  let gate: TestTongate;
  let base: string;
  let key: string;
  const owner = testWallet(Math.floor(Math.random() * 200) + 20);
  let walletSeqno = 0;

  const headers = () => ({ 'x-api-key': key });
  const getJson = async (path: string): Promise<any> => {
    const res = await fetch(`${base}${path}`, { headers: headers() });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return res.json();
  };

  before(async () => {
    node = await startTonNode();
    gate = await startTestTongate({
      network: [`mainnet=http://127.0.0.1:${await freePort()}`],
      backend: ['mainnet=lite'],
      liteConfig: [`mainnet=${node.globalConfigFile}`],
      access: 'on',
      adminToken: ADMIN,
    });
    base = gate.url('mainnet');
    const created = await postJson(`${base}/admin/keys`, { network: 'mainnet', rps: 1000 }, { authorization: `Bearer ${ADMIN}` });
    assert.equal(created.status, 201);
    key = created.body.result.key;
    await send(
      genesisTransfer(node, await seqnoOf(node.genesisAddress), internal({ to: owner.wallet.address, value: toNano(10), bounce: false })),
    );
    await until('the wallet to be funded', async () => ((await balanceOf(owner.wallet.address)) > 0n ? true : undefined), 90_000);
    await send(v4Transfer(owner, walletSeqno++, new Address(0, randomBytes(32)), toNano('0.1'), { deploy: true }));
    await until('the wallet to be deployed', async () => ((await seqnoOf(owner.wallet.address)) === 1 ? true : undefined), 90_000);
  });

  after(async () => {
    await gate?.stop();
    await node?.stop();
  });

  async function seqnoOf(address: Address): Promise<number> {
    const got = await postJson(`${base}/api/v2/runGetMethod`, { address: address.toRawString(), method: 'seqno', stack: [] }, headers());
    assert.equal(got.status, 200, JSON.stringify(got.body));
    if (got.body.result.exit_code !== 0) return -1;
    return Number(BigInt(got.body.result.stack[0][1]));
  }

  async function balanceOf(address: Address): Promise<bigint> {
    return BigInt((await getJson(`/api/v2/getAddressBalance?address=${address.toRawString()}`)).result);
  }

  /** Sends an external message through POST /api/v3/message; its normalized hash as the API answers it. */
  async function send(boc: Buffer): Promise<string> {
    const res = await fetch(`${base}/api/v3/message`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ boc: boc.toString('base64') }),
    });
    const body = (await res.json()) as { message_hash_norm: string };
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.message_hash_norm;
  }

  /** The normalized hash of an external message, before it is sent. */
  function normOf(boc: Buffer): string {
    const message = loadMessage(Cell.fromBoc(boc)[0].beginParse());
    if (message.info.type !== 'external-in') throw new Error('not an external message');
    return normalizedExternalHash(message.info.dest, message.body).toString('base64');
  }

  test('a transfer is streamed at confirmed then finalized (WS: transactions, account_state_change; SSE: trace equal to /api/v3/traces)', async (t) => {
    const to = new Address(0, randomBytes(32));
    const raw = formatRawUpper(to);
    const value = toNano('1.5');
    const ws = wsClient(t, `${base.replace('http', 'ws')}/api/streaming/v2/ws`, key);
    await ws.next((r) => r.open, 'open');
    ws.send({
      operation: 'subscribe',
      id: 's',
      types: ['transactions', 'account_state_change'],
      addresses: [to.toString({ testOnly: false })],
      min_finality: 'confirmed',
    });
    assert.deepEqual((await ws.next((r) => r.message?.status, 'subscribed')).message, { id: 's', status: 'subscribed' });

    // The SSE follower needs the norm before the message is sent: signed first, sent once the stream is open.
    const boc = v4Transfer(owner, walletSeqno++, to, value);
    const norm = normOf(boc);
    const sse = sseClient(
      t,
      `${base}/api/streaming/v2/sse`,
      { types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'confirmed', include_address_book: true },
      key,
    );
    assert.deepEqual((await sse.next((r) => r.event === 'connected', 'connected')).data, { status: 'subscribed' });
    assert.equal(await send(boc), norm);

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
      "toncenter's order: a block's traces, then its states, at each finality",
    );
    const [confirmedTxs, confirmedState, finalizedTxs, finalizedState] = notes;
    assert.equal(finalizedTxs.trace_external_hash_norm, norm);
    assert.deepEqual(confirmedTxs.transactions, finalizedTxs.transactions);
    assert.deepEqual(
      finalizedTxs.transactions.map((tx: any) => tx.account),
      [raw],
      "only the followed account's transactions",
    );
    const received = finalizedTxs.transactions[0];
    // The value sent, less the forwarding fee the network took from it.
    assert.ok(BigInt(received.in_msg.value) <= value && BigInt(received.in_msg.value) > value - toNano('0.01'), received.in_msg.value);
    assert.deepEqual(confirmedState, { ...finalizedState, finality: 'confirmed' });
    assert.equal(finalizedState.account, raw);
    assert.deepEqual(finalizedState.state, received.account_state_after, "the state after the account's transaction");
    assert.equal(finalizedState.state.balance, received.in_msg.value);
    // What /api/v3/transactions answers for the same transaction.
    const restTx = (await getJson(`/api/v3/transactions?hash=${encodeURIComponent(received.hash)}`)).transactions[0];
    assert.deepEqual(received, restTx);

    const confirmed = (await sse.next((r) => r.event === 'event', 'the confirmed trace')).data;
    const finalized = (await sse.next((r) => r.event === 'event', 'the finalized trace')).data;
    assert.deepEqual([confirmed.type, confirmed.finality, finalized.finality], ['trace', 'confirmed', 'finalized']);
    assert.equal(finalized.trace_external_hash_norm, norm);
    const rest = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
    assert.equal(rest.is_incomplete, false);
    assert.deepEqual(finalized.trace, rest.trace);
    assert.deepEqual(finalized.transactions, rest.transactions);
    assert.deepEqual(confirmed.transactions, rest.transactions);
    assert.equal(Object.keys(rest.transactions).length, 2, 'the wallet and the receiver');
    assert.ok(finalized.address_book[raw], 'the address book of its accounts');
  });

  test('a follower of another address is told nothing; pending comes from the pending layer, when the network has one; no trace page is read', async (t) => {
    const followed = new Address(0, randomBytes(32));
    const to = new Address(0, randomBytes(32));
    const ws = wsClient(t, `${base.replace('http', 'ws')}/api/streaming/v2/ws`, key);
    await ws.next((r) => r.open, 'open');
    ws.send({
      operation: 'subscribe',
      types: ['transactions'],
      addresses: [formatRawUpper(followed), formatRawUpper(to)],
      min_finality: 'pending',
    });
    await ws.next((r) => r.message?.status === 'subscribed', 'subscribed');
    ws.send({ operation: 'unsubscribe', addresses: [formatRawUpper(to)] });
    await ws.next((r) => r.message?.status === 'unsubscribed', 'unsubscribed');
    const control = wsClient(t, `${base.replace('http', 'ws')}/api/streaming/v2/ws`, key);
    await control.next((r) => r.open, 'open');
    control.send({ operation: 'subscribe', types: ['transactions'], addresses: [formatRawUpper(to)], min_finality: 'pending' });
    await control.next((r) => r.message?.status === 'subscribed', 'subscribed');
    // A spy on the index's trace pages: no client here follows a trace, so the stream reads none.
    const index = gate.networks[0].index!;
    const tracePage = index.tracePage;
    let pages = 0;
    index.tracePage = (...args) => {
      pages++;
      return tracePage.apply(index, args);
    };
    t.after(() => {
      index.tracePage = tracePage;
    });
    const norm = await send(v4Transfer(owner, walletSeqno++, to, toNano('0.3')));
    const first = (await control.next((r) => r.message?.type, 'the transfer')).message;
    const expected = pendingOf(gate.networks[0].chain) ? 'pending' : 'confirmed';
    assert.deepEqual([first.type, first.finality, first.trace_external_hash_norm], ['transactions', expected, norm]);
    const finalized = (await control.next((r) => r.message?.finality === 'finalized', 'finalized')).message;
    index.tracePage = tracePage;
    assert.equal(pages, 0, 'no trace page read for clients of transactions alone');
    const rest = await getJson(`/api/v3/transactions?hash=${encodeURIComponent(finalized.transactions[0].hash)}`);
    assert.deepEqual(finalized.transactions, rest.transactions, 'the followed transaction, as /api/v3/transactions answers it');
    ws.send({ operation: 'ping', id: 'p' });
    await ws.next((r) => r.message?.status === 'pong', 'pong');
    assert.deepEqual(
      ws.records.filter((r) => r.message?.type),
      [],
      'nothing for the other address',
    );
  });

  /** One internal message from the wallet (with `init`: a deploy, sent non-bounceable), through POST /api/v3/message. */
  async function walletSend(to: Address, value: bigint, body: Cell, init?: StateInit): Promise<string> {
    const transfer = owner.wallet.createTransfer({
      seqno: walletSeqno++,
      secretKey: owner.keys.secretKey,
      messages: [internal({ to, value, body, init, bounce: !init })],
    });
    return send(
      beginCell()
        .store(storeMessage(external({ to: owner.wallet.address, body: transfer })))
        .endCell()
        .toBoc(),
    );
  }

  test("a jetton transfer's receiver, with no transaction of his own in it, gets its actions by their accounts, not its transactions", async (t) => {
    const jettonInit = jettonMasterInit({
      admin: owner.wallet.address,
      content: onchainContent({ name: 'Lite Jetton', symbol: 'LJT', decimals: '9' }),
    });
    const master = contractAddress(0, jettonInit);
    const ownWallet = jettonWalletAddress(owner.wallet.address, master);
    await walletSend(
      master,
      toNano('0.2'),
      mintBody({ to: owner.wallet.address, amount: 1000n, tonAmount: toNano('0.05'), response: owner.wallet.address }),
      jettonInit,
    );
    await until(
      'the minted jetton wallet in the index',
      async () =>
        (await getJson(`/api/v3/jetton/wallets?address=${ownWallet.toRawString()}`)).jetton_wallets.length > 0 ? true : undefined,
      90_000,
    );

    const bob = new Address(0, randomBytes(32));
    const wsUrl = `${base.replace('http', 'ws')}/api/streaming/v2/ws`;
    const ofActions = wsClient(t, wsUrl, key);
    const ofTransactions = wsClient(t, wsUrl, key);
    // With a pending layer, the actions client also hears the emulated trace's actions before any block holds it.
    const withPending = pendingOf(gate.networks[0].chain) !== undefined;
    for (const [client, types, minFinality] of [
      [ofActions, ['actions'], withPending ? 'pending' : 'confirmed'],
      [ofTransactions, ['transactions'], 'confirmed'],
    ] as const) {
      await client.next((r) => r.open, 'open');
      client.send({ operation: 'subscribe', types, addresses: [formatRawUpper(bob)], min_finality: minFinality });
      await client.next((r) => r.message?.status === 'subscribed', 'subscribed');
    }
    // No forward amount: Bob's jetton wallet sends him no transfer_notification. The transfer deploys that wallet.
    const norm = await walletSend(ownWallet, toNano('0.1'), jettonTransferBody({ to: bob, amount: 7n, response: owner.wallet.address }));

    const pending = withPending ? (await ofActions.next((r) => r.message?.type === 'actions', 'the pending actions')).message : undefined;
    const confirmed = (await ofActions.next((r) => r.message?.type === 'actions', 'the confirmed actions')).message;
    const finalized = (await ofActions.next((r) => r.message?.type === 'actions', 'the finalized actions')).message;
    assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
    assert.equal(finalized.trace_external_hash_norm, norm);
    const transfer = finalized.actions.find((a: any) => a.type === 'jetton_transfer');
    assert.ok(transfer, `a jetton_transfer among ${finalized.actions.map((a: any) => a.type).join()}`);
    const trace = (await getJson(`/api/v3/traces?msg_hash=${encodeURIComponent(norm)}`)).traces[0];
    const accounts = Object.values<any>(trace.transactions).map((tx) => tx.account);
    assert.ok(!accounts.includes(formatRawUpper(bob)), `no transaction of Bob's own: ${accounts.join()}`);
    const indexed = await getJson(`/api/v3/actions?trace_id=${encodeURIComponent(transfer.trace_id)}&include_accounts=true`);
    const his = indexed.actions.filter((a: any) => a.accounts.includes(formatRawUpper(bob)));
    assert.deepEqual(finalized.actions, his, 'what /api/v3/actions answers');
    assert.deepEqual(
      confirmed.actions,
      his.map((a: any) => ({ ...a, finality: 'confirmed' })),
    );
    if (pending) {
      // Bob's jetton wallet, which the transfer deploys, is detected on the emulated state: a jetton_transfer
      // already (not call_contracts), with the details the index gives it. Its ids are the emulation's (other lts).
      assert.equal(pending.finality, 'pending');
      const early = pending.actions.find((a: any) => a.type === 'jetton_transfer');
      assert.ok(early, `a pending jetton_transfer among ${pending.actions.map((a: any) => a.type).join()}`);
      assert.deepEqual(early.details, transfer.details);
    }

    // His `transactions` client: nothing of that trace; a later transfer to Bob's own address is the first it hears.
    const later = await send(v4Transfer(owner, walletSeqno++, bob, toNano('0.05')));
    const first = (await ofTransactions.next((r) => r.message?.type === 'transactions', 'the later transfer')).message;
    assert.equal(first.trace_external_hash_norm, later);
    assert.deepEqual(
      ofTransactions.all((r) => r.message?.trace_external_hash_norm === norm),
      [],
      'no notification of the jetton transfer',
    );
  });
});
