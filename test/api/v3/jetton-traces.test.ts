/**
 * /api/v3/traces for a jetton transfer on tongate's own TEP-74 contracts (src/contracts/jetton), on a local chain
 * that seals one message delivery per block, its v3 index on each store, through a real server: sends go through
 * v2 with @ton/ton's TonClient as a dApp's would, reads through v3 with fetch.
 *
 * alice (a v5r1 wallet) sends jetton_transfer to her jetton wallet with forward_ton_amount > 0 and herself as
 * response destination. The trace is alice -> her jetton wallet (jetton_transfer) -> bob's jetton wallet
 * (jetton_internal_transfer, deploying it) -> bob (jetton_notify) and -> alice (excess): five transactions over
 * five blocks. It is `pending` with its id from the first block, the whole process (chain, index, gateway) is
 * stopped while two of its messages are in flight and started again on the same data, and the trace completes
 * with the same id and the right tree: no second or broken trace. Then a transfer to a jetton wallet that refuses
 * everything: one trace with the bounce, and the sender's transfer row kept in /jetton/transfers (toncenter writes
 * it for the sender wallet's transaction, which did not abort, even though the transfer bounced: research
 * v3-tokens-traces-streaming.md 1.3, ton-indexer#87).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  Address,
  beginCell,
  contractAddress,
  type Cell,
  external,
  internal,
  storeMessage,
  toNano,
  SendMode,
  type MessageRelaxed,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV5R1 } from '@ton/ton';
import { onchainContent } from '../../../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../../src/contracts/jetton/jetton.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { REFUSING_CODE } from '../../contracts/support/contracts-chain.js';
import { until } from '../../devnet/support/manual-tongate.js';
import { openStore, type StoreName } from '../../index/support/stores.js';
import { sealBlocks, sealUntilQuiet, serveIndex, type V3Server } from './support/server.js';
import { checkAgainstSpecs, ourV3, type ResponseValidator } from './support/spec.js';

const raw = (address: Address) => formatRawUpper(address);
const q = encodeURIComponent;

/** One internal message delivered per block: each hop of a trace lands in a block of its own. */
const CHAIN = { maxBlockTransactions: 1 } as const;

/** What both @ton/ton wallets (v4, v5r1) offer for a signed transfer. */
type Wallet = Pick<WalletContractV5R1, 'address' | 'init'> & {
  createTransfer(args: { seqno: number; secretKey: Buffer; messages: MessageRelaxed[]; sendMode: SendMode }): Cell | Promise<Cell>;
};

/**
 * A signed transfer sent through v2's sendBoc with TonClient (the wallet deployed with it when `deploy`);
 * answers the external message's hash, the trace's external_hash.
 */
async function sendThroughV2(
  client: TonClient,
  wallet: Wallet,
  secretKey: Buffer,
  seqno: number,
  messages: MessageRelaxed[],
  deploy = false,
): Promise<string> {
  const body = await wallet.createTransfer({ seqno, secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
  const message = external({ to: wallet.address, body, init: deploy ? wallet.init : undefined });
  await client.sendMessage(message);
  return beginCell().store(storeMessage(message)).endCell().hash().toString('base64');
}

/** The chain (on disk) and the index (on `store`), served; `restart()` stops all three and opens them again on the same data. */
async function restartableServer(t: TestContext, store: StoreName) {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-jetton-traces-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const opened = await openStore(t, store, 'testnet', store === 'sqlite' ? dir : undefined);
  if (!opened) return null;
  const serve = (index = opened.index) => serveIndex(t, index, 'testnet', true, { ...CHAIN, dataDir: dir });
  return {
    server: await serve(),
    async restart(before: V3Server): Promise<V3Server> {
      await before.stop();
      await opened.index.close();
      const index = await opened.reopen();
      t.after(() => index.close());
      return serve(index);
    },
  };
}

interface Node {
  tx_hash: string;
  in_msg_hash: string;
  children: Node[];
}

/** The trace's tree as toncenter builds it: each transaction under the one that sent its inbound message, children in lt order. */
function expectedTree(trace: any): Node {
  const order: string[] = trace.transactions_order;
  const sentBy = new Map<string, string>();
  for (const hash of order) for (const out of trace.transactions[hash].out_msgs) sentBy.set(out.hash, hash);
  const node = (hash: string): Node => ({
    tx_hash: hash,
    in_msg_hash: trace.transactions[hash].in_msg.hash,
    children: order.filter((child) => sentBy.get(trace.transactions[child].in_msg.hash) === hash).map(node),
  });
  return node(order[0]);
}

/** The one trace a query finds, checked against both specs. */
async function onlyTrace(server: V3Server, ours: ResponseValidator, query: string): Promise<any> {
  const reply = await server.get(`/api/v3/traces?${query}`);
  assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
  checkAgainstSpecs(ours, '/api/v3/traces', reply.body);
  assert.equal(reply.body.traces.length, 1, `${query}: exactly one trace`);
  return reply.body.traces[0];
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/traces: a jetton transfer, wallet -> jetton wallet -> jetton wallet -> owner, pending across blocks and a restart, then a bounce [${store}]`, async (t) => {
    const fixture = await restartableServer(t, store);
    if (!fixture) return;
    let server = fixture.server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    let client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });

    const admin = testWallet(91);
    const aliceKeys = keyPairFromSeed(Buffer.alloc(32, 92));
    const alice = WalletContractV5R1.create({ workchain: 0, publicKey: aliceKeys.publicKey });
    const bob = testWallet(93).wallet.address; // never deployed: the notification lands on an empty account
    for (const wallet of [admin.wallet.address, alice.address])
      await Promise.all([server.chain.fund(wallet, toNano('10')), sealBlocks(server)]);

    // The admin deploys the jetton and mints 1000 to alice (its own trace, sealed to the end).
    const jettonInit = jettonMasterInit({
      admin: admin.wallet.address,
      content: onchainContent({ name: 'Trace Jetton', symbol: 'TRC', decimals: '9' }),
    });
    const master = contractAddress(0, jettonInit);
    const mint = mintBody({ to: alice.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
    await sendThroughV2(
      client,
      admin.wallet,
      admin.keys.secretKey,
      0,
      [internal({ to: master, value: toNano('0.2'), body: mint, init: jettonInit })],
      true,
    );
    await sealUntilQuiet(server);
    const [A, B, M] = [alice.address, bob, master].map(raw);
    const aliceJetton = jettonWalletAddress(alice.address, master);
    const [SJW, RJW] = [aliceJetton, jettonWalletAddress(bob, master)].map(raw);

    // alice's first message (it deploys her wallet too): 300 to bob, 0.05 TON forwarded with the notification.
    const transfer = jettonTransferBody({ to: bob, amount: 300n, response: alice.address, forwardTonAmount: toNano('0.05'), queryId: 7n });
    const externalHash = await sendThroughV2(
      client,
      alice,
      aliceKeys.secretKey,
      0,
      [internal({ to: aliceJetton, value: toNano('0.2'), body: transfer })],
      true,
    );

    // One hop per block: [transactions, messages, pending_messages] after each block while the trace is pending.
    const progress = async () => await onlyTrace(server, ours, `msg_hash=${q(externalHash)}`);
    const counters = (trace: any) => [trace.trace_info.transactions, trace.trace_info.messages, trace.trace_info.pending_messages];
    await sealBlocks(server);
    const early = await progress();
    assert.equal(early.trace_info.trace_state, 'pending', 'jetton_transfer waits for the next block');
    assert.deepEqual(counters(early), [1, 1, 1]);
    assert.equal(early.external_hash, externalHash);
    const traceId: string = early.trace_id;
    assert.equal(traceId, early.transactions_order[0], "the id is the root's hash from the first block on");
    await sealBlocks(server);
    assert.deepEqual(counters(await progress()), [2, 2, 1], 'internal_transfer waits');
    await sealBlocks(server);
    const beforeRestart = await progress();
    assert.equal(beforeRestart.trace_info.trace_state, 'pending');
    assert.deepEqual(counters(beforeRestart), [3, 3, 2], 'the notification and the excesses wait, both');
    assert.equal(beforeRestart.trace_id, traceId);

    // Restart in the middle. Between seals the chain already delivers the next queued message into its open block
    // (one, the cap); stop() seals that block after the index has been detached, so the reopened index first
    // catches it up from the chain's store and links it to the pending trace, and the other message is still
    // in flight, known only to the chain's persisted queue and the index's messages table.
    const open = await until(
      async () => server.chain.stats(),
      (stats) => stats.openTransactions === 1,
    );
    assert.deepEqual(
      open,
      { pendingMessages: 1, openTransactions: 1 },
      'the notification delivered into the open block, the excesses queued',
    );
    const indexedBefore = server.attachment!.lastIndexed();
    server = await fixture.restart(server);
    client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
    await server.attachment!.synced();
    const reopened = await progress();
    assert.equal(Number(reopened.mc_seqno_end), indexedBefore + 1, 'the block stop() sealed, caught up after the restart');
    assert.equal(reopened.trace_id, traceId, 'the reopened index keeps the id');
    assert.equal(reopened.trace_info.trace_state, 'pending');
    assert.deepEqual(counters(reopened), [4, 4, 1]);
    await sealBlocks(server);
    assert.deepEqual(server.chain.stats(), { pendingMessages: 0, openTransactions: 0 }, 'the transfer is done');

    // The finished trace, by the root's transaction hash.
    const trace = await onlyTrace(server, ours, `tx_hash=${q(traceId)}`);
    assert.equal(trace.trace_id, traceId);
    assert.equal(trace.external_hash, externalHash, "the root's inbound (external) message");
    assert.deepEqual(trace.trace_info, {
      trace_state: 'complete',
      messages: 5,
      transactions: 5,
      pending_messages: 0,
      classification_state: 'ok',
    });
    assert.equal(trace.is_incomplete, false);
    assert.ok(Number(trace.mc_seqno_end) >= Number(trace.mc_seqno_start) + 4, 'five blocks, one hop each');
    const order: string[] = trace.transactions_order;
    const tx = (hash: string) => trace.transactions[hash];
    assert.equal(order[0], traceId, 'the root is alice wallet transaction that took the external message');
    assert.equal(tx(order[0]).in_msg.source, null);
    const accounts = order.map((h) => tx(h).account);
    assert.deepEqual(accounts.slice(0, 3), [A, SJW, RJW]);
    assert.deepEqual([...accounts.slice(3)].sort(), [A, B].sort(), 'bob (notification) and alice (excesses)');
    const lts = order.map((h) => BigInt(tx(h).lt));
    assert.deepEqual(
      lts,
      [...lts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      'transactions_order is by lt',
    );
    // The tree: alice -> her jetton wallet -> bob's jetton wallet -> {bob, alice}.
    assert.deepEqual(trace.trace, expectedTree(trace));
    assert.equal(trace.trace.children.length, 1);
    assert.equal(trace.trace.children[0].tx_hash, order[1]);
    assert.equal(trace.trace.children[0].children.length, 1);
    const receiver = trace.trace.children[0].children[0];
    assert.equal(receiver.tx_hash, order[2]);
    assert.deepEqual(receiver.children.map((c: Node) => tx(c.tx_hash).account).sort(), [A, B].sort());
    assert.ok(receiver.children.every((c: Node) => c.children.length === 0));
    // The messages as toncenter names them.
    const opcodeOf = (hash: string) => tx(hash).in_msg.decoded_opcode;
    assert.equal(opcodeOf(order[0]), 'w5_external_signed_request');
    assert.deepEqual([order[1], order[2]].map(opcodeOf), ['jetton_transfer', 'jetton_internal_transfer']);
    const byAccount = (account: string) => order.slice(3).find((h) => tx(h).account === account)!;
    assert.equal(opcodeOf(byAccount(B)), 'jetton_notify');
    assert.equal(opcodeOf(byAccount(A)), 'excess');
    assert.deepEqual(
      tx(order[2])
        .out_msgs.map((m: any) => m.decoded_opcode)
        .sort(),
      ['excess', 'jetton_notify'],
    );
    assert.ok(
      order.every((h) => tx(h).trace_id === traceId),
      'every transaction carries the trace id',
    );
    assert.deepEqual(
      order.map((h) => [tx(h).account, tx(h).description.aborted]).sort(),
      [
        [A, false],
        [A, false],
        [SJW, false],
        [RJW, false],
        [B, true],
      ].sort(),
      "bob's account has no code: its transaction skips the compute phase, which TON counts as aborted",
    );

    // The same trace by its id and by an account of it; no other trace holds any of its transactions.
    assert.deepEqual(await onlyTrace(server, ours, `trace_id=${q(traceId)}`), trace);
    const ofReceiver = await onlyTrace(server, ours, `account=${RJW}`);
    assert.equal(ofReceiver.trace_id, traceId);
    for (const hash of order) assert.equal((await onlyTrace(server, ours, `tx_hash=${q(hash)}`)).trace_id, traceId, `the trace of ${hash}`);
    const ofBob = (await server.get(`/api/v3/traces?account=${B}`)).body.traces;
    assert.deepEqual(
      ofBob.map((x: any) => x.trace_id),
      [traceId],
      'bob took part in this trace only',
    );
    const everything = (await server.get('/api/v3/traces?limit=1000')).body.traces;
    assert.equal(new Set(everything.map((x: any) => x.trace_id)).size, everything.length, 'no trace listed twice');
    assert.deepEqual(
      everything.filter((x: any) => x.trace_info.trace_state !== 'complete'),
      [],
      'nothing pending or broken is left',
    );

    const txs = (await server.get(`/api/v3/transactions?trace_id=${q(traceId)}&sort=asc`)).body;
    checkAgainstSpecs(ours, '/api/v3/transactions', txs);
    assert.deepEqual(
      txs.transactions.map((x: any) => x.hash),
      order,
    );

    const transfers = (await server.get(`/api/v3/jetton/transfers?jetton_wallet=${SJW}`)).body;
    checkAgainstSpecs(ours, '/api/v3/jetton/transfers', transfers);
    assert.deepEqual(
      transfers.jetton_transfers.map((x: any) => [
        x.transaction_hash,
        x.trace_id,
        x.amount,
        x.source,
        x.destination,
        x.response_destination,
        x.forward_ton_amount,
        x.jetton_master,
        x.transaction_aborted,
      ]),
      [[order[1], traceId, '300', A, B, A, toNano('0.05').toString(), M, false]],
    );

    // A transfer whose receiving side fails: carol's jetton wallet refuses everything, so internal_transfer bounces.
    const carol = Address.parse(`0:${'cb'.repeat(32)}`);
    const carolJetton = jettonWalletAddress(carol, master);
    await server.chain.setAccount(carolJetton, { balance: toNano(1), code: REFUSING_CODE, data: beginCell().endCell() });
    await server.attachment!.synced();
    const toCarol = jettonTransferBody({ to: carol, amount: 50n, response: alice.address, forwardTonAmount: toNano('0.01'), queryId: 8n });
    const bounceHash = await sendThroughV2(client, alice, aliceKeys.secretKey, 1, [
      internal({ to: aliceJetton, value: toNano('0.2'), body: toCarol }),
    ]);
    await sealUntilQuiet(server);
    const bounced = await onlyTrace(server, ours, `msg_hash=${q(bounceHash)}`);
    assert.deepEqual(bounced.trace_info, {
      trace_state: 'complete',
      messages: 4,
      transactions: 4,
      pending_messages: 0,
      classification_state: 'ok',
    });
    const bOrder: string[] = bounced.transactions_order;
    const btx = (hash: string) => bounced.transactions[hash];
    assert.deepEqual(
      bOrder.map((h) => btx(h).account),
      [A, SJW, raw(carolJetton), SJW],
      "alice -> her jetton wallet -> carol's (refuses) -> back",
    );
    assert.deepEqual(bounced.trace, expectedTree(bounced));
    assert.equal(bounced.trace.children[0].children[0].children[0].tx_hash, bOrder[3], 'the bounce hangs under the refusing transaction');
    assert.deepEqual(
      bOrder.slice(1).map((h) => btx(h).in_msg.decoded_opcode),
      ['jetton_transfer', 'jetton_internal_transfer', 'bounce'],
    );
    assert.deepEqual(
      bOrder.map((h) => btx(h).description.aborted),
      [false, false, true, false],
    );
    assert.equal(btx(bOrder[3]).in_msg.bounced, true);
    const after = (await server.get(`/api/v3/jetton/transfers?jetton_wallet=${SJW}&sort=asc`)).body;
    checkAgainstSpecs(ours, '/api/v3/jetton/transfers', after);
    assert.deepEqual(
      after.jetton_transfers.map((x: any) => [x.transaction_hash, x.trace_id, x.amount, x.destination, x.transaction_aborted]),
      [
        [order[1], traceId, '300', B, false],
        [bOrder[1], bounced.trace_id, '50', raw(carol), false],
      ],
      "the bounced transfer's row stays: the sender wallet's transaction did not abort",
    );
    const ofCarolWallet = (await server.get(`/api/v3/jetton/transfers?jetton_wallet=${raw(carolJetton)}`)).body.jetton_transfers;
    assert.deepEqual(ofCarolWallet, [], 'the refusing wallet is no jetton wallet and made no transfer');
  });
}
