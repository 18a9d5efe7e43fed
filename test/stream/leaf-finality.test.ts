/**
 * toncenter's trace finality (src/stream/trace-finality.ts): a trace's `trace` and `actions` notifications do not
 * wait for its note leaves (a transaction without outgoing messages whose inbound message is a jetton
 * transfer_notification, an NFT ownership_assigned or an excesses). A jetton transfer of tongate's own jetton on a
 * local chain holding one transaction per block (--max-block-transactions 1), to a receiver without a jetton wallet
 * (the transfer deploys it: the pending layer, which classifies the early `confirmed` actions, detects it on the
 * state the trace left while the index does not know it): the receiver's jetton wallet's transaction seals in one
 * block, the notification to the receiver and the excess to the sender each in a later one.
 * The trace is confirmed once the rest is sealed and the last leaf has executed (what tongate knows of a leaf: it is
 * one only once it ran without sending anything), before the leaf's block is sealed, with that leaf still `pending`
 * among its transactions; once per finality (the leaf's seal does not confirm it again); `finalized` as before.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  loadMessage,
  parseTuple,
  storeMessage,
  toNano,
  TupleReader,
} from '@ton/core';
import type { Address, StateInit } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';
import type { LocalChain } from '../../src/chain/local/index.js';
import { onchainContent } from '../../src/contracts/content.js';
import { JETTON_OP, jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { testWallet, v4Transfer } from '../chain/local/support/local-chain.js';
import { startTestTongate, type TestTongate } from '../support/tongate.js';
import { subscribe, wsClient } from './support/clients.js';

let tongate: TestTongate;
let chain: LocalChain;
const alice = testWallet(71);
const bob = testWallet(72);
const raw = (address: Address) => formatRawUpper(address);
const init = jettonMasterInit({ admin: alice.wallet.address, content: onchainContent({ name: 'Leaf', symbol: 'LEAF', decimals: '9' }) });
const master = contractAddress(0, init);
const aliceJetton = jettonWalletAddress(alice.wallet.address, master);
const bobJetton = jettonWalletAddress(bob.wallet.address, master);

/** Blocks (one transaction a block) until `done` settled and nothing is left to execute. */
async function settle(done: Promise<unknown> = Promise.resolve()): Promise<void> {
  let settled = false;
  void done.then(() => (settled = true));
  for (let i = 0; i < 30; i++) {
    await chain.produceBlock();
    const { pendingMessages, openTransactions } = chain.stats();
    if (settled && pendingMessages === 0 && openTransactions === 0) return;
  }
  throw new Error('the chain did not settle within 30 blocks');
}

async function seqnoOf(address: Address): Promise<number> {
  const { exitCode, stackBoc } = await chain.runGetMethod(address, 'seqno', []);
  if (exitCode === -13) return 0;
  assert.equal(exitCode, 0, `seqno: exit code ${exitCode}`);
  return new TupleReader(parseTuple(stackBoc)).readNumber();
}

/** Alice's wallet sends one internal message (bounceable) with a body. */
async function fromAlice(to: Address, value: bigint, body: Cell, stateInit?: StateInit): Promise<Buffer> {
  const transfer = alice.wallet.createTransfer({
    seqno: await seqnoOf(alice.wallet.address),
    secretKey: alice.keys.secretKey,
    messages: [internal({ to, value, body, init: stateInit, bounce: true })],
  });
  return beginCell()
    .store(storeMessage(external({ to: alice.wallet.address, body: transfer })))
    .endCell()
    .toBoc();
}

before(async () => {
  tongate = await startTestTongate({ maxBlockTransactions: 1 });
  chain = tongate.chain('testnet');
  const funded = Promise.all([chain.fund(alice.wallet.address, toNano('10')), chain.fund(bob.wallet.address, toNano('1'))]);
  await settle(funded);
  // Both wallets deployed (Bob's takes the notification without bouncing it), then 1,000 tokens minted to Alice.
  await settle(
    Promise.all([
      chain.sendExternal(v4Transfer(alice, 0, bob.wallet.address, toNano('0.01'), { deploy: true })),
      chain.sendExternal(v4Transfer(bob, 0, alice.wallet.address, toNano('0.01'), { deploy: true })),
    ]),
  );
  const mint = mintBody({ to: alice.wallet.address, amount: 1000n, tonAmount: toNano('0.05') });
  await settle(chain.sendExternal(await fromAlice(master, toNano('0.2'), mint, init)));
});
after(() => tongate.stop());

test("a jetton transfer's trace and actions are confirmed without waiting for its notification and excess leaves", async (t) => {
  const wsUrl = `${tongate.url('testnet').replace('http', 'ws')}/api/streaming/v2/ws`;
  const boc = await fromAlice(
    aliceJetton,
    toNano('0.2'),
    jettonTransferBody({ to: bob.wallet.address, amount: 10n, response: alice.wallet.address, forwardTonAmount: toNano('0.01') }),
  );
  const parsed = loadMessage(Cell.fromBoc(boc)[0].beginParse());
  assert.equal(parsed.info.type, 'external-in');
  const norm = normalizedExternalHash(alice.wallet.address, parsed.body).toString('base64');
  assert.equal(chain.getAccount(bobJetton).state, 'nonexist', 'Bob has no jetton wallet yet: the transfer deploys it');

  const traced = wsClient(t, wsUrl);
  const ofActions = wsClient(t, wsUrl);
  await subscribe(traced, { types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'confirmed' });
  await subscribe(ofActions, { types: ['actions'], addresses: [raw(bob.wallet.address)], min_finality: 'confirmed' });

  await chain.sendExternal(boc);
  const blocks: number[] = [];
  do blocks.push((await chain.produceBlock()).id.seqno);
  while (blocks.length < 30 && (chain.stats().pendingMessages > 0 || chain.stats().openTransactions > 0));
  const confirmed = (await traced.next((r) => r.message?.type === 'trace', 'the confirmed trace')).message;
  const finalized = (await traced.next((r) => r.message?.type === 'trace', 'the finalized trace')).message;
  const confirmedActions = (await ofActions.next((r) => r.message?.type === 'actions', 'the confirmed actions')).message;
  const finalizedActions = (await ofActions.next((r) => r.message?.type === 'actions', 'the finalized actions')).message;
  // Nothing more of this trace (the leaves' seal confirms it no second time): a block more, then a ping.
  await chain.produceBlock();
  await tongate.networks.find((n) => n.name === 'testnet')!.indexed?.(blocks.at(-1)! + 1);
  for (const client of [traced, ofActions]) {
    client.send({ operation: 'ping', id: 'p' });
    const next = await client.next((r) => r.message?.type || r.message?.status === 'pong', 'pong');
    assert.equal(next.message.status, 'pong', `nothing more: ${JSON.stringify(next.message).slice(0, 300)}`);
  }

  assert.deepEqual([confirmed.finality, finalized.finality], ['confirmed', 'finalized']);
  // The premise: each transaction in its own block; the last two are the leaves, sealed after the rest.
  const byHash = finalized.transactions as Record<string, any>;
  const ordered = Object.values<any>(byHash).sort((a, b) => a.mc_block_seqno - b.mc_block_seqno);
  const opOf = (tx: any) => Number(tx.in_msg?.opcode ?? NaN);
  assert.deepEqual(
    ordered.map((tx) => tx.account),
    [alice.wallet.address, aliceJetton, bobJetton].map(raw).concat(ordered.slice(3).map((tx) => tx.account)),
  );
  assert.equal(ordered.length, 5);
  assert.deepEqual(ordered.slice(3).map(opOf).sort(), [JETTON_OP.transferNotification, JETTON_OP.excesses].sort());
  assert.deepEqual(new Set(ordered.map((tx) => tx.mc_block_seqno)).size, 5, 'one block each');
  const lastLeaf = ordered[4];
  const restSealedIn = ordered[3].mc_block_seqno;

  // Confirmed as a whole before the last leaf's block was sealed: that leaf pending, the rest with its blocks.
  for (const tx of ordered) {
    const told = confirmed.transactions[tx.hash];
    assert.ok(told, `the confirmed trace holds ${tx.hash}`);
    if (tx === lastLeaf) assert.equal(told.finality, 'pending', 'the last leaf is not sealed yet');
    else assert.equal(told.mc_block_seqno, tx.mc_block_seqno, `the block of ${tx.account}`);
  }
  assert.deepEqual(confirmed.trace, finalized.trace, 'the whole tree');

  // The receiver's actions: confirmed with the trace, ending at the block that sealed the rest.
  assert.deepEqual([confirmedActions.finality, finalizedActions.finality], ['confirmed', 'finalized']);
  const transfer = (m: any) => m.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(
    transfer(confirmedActions) && transfer(finalizedActions),
    JSON.stringify([confirmedActions, finalizedActions].map((m) => m.actions.map((a: any) => a.type))),
  );
  assert.equal(transfer(confirmedActions).trace_mc_seqno_end, restSealedIn);
  assert.equal(transfer(finalizedActions).trace_mc_seqno_end, lastLeaf.mc_block_seqno);
  const { trace_mc_seqno_end: _a, finality: _b, ...confirmedRest } = transfer(confirmedActions);
  const { trace_mc_seqno_end: _c, finality: _d, ...finalizedRest } = transfer(finalizedActions);
  assert.deepEqual(confirmedRest, finalizedRest, 'the same action');
});
