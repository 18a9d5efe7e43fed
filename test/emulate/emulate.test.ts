/**
 * The Emulate API on a local network, through a real gateway with the v3 index attached: real clients' messages
 * (a v5r1 wallet built with @ton/ton sending a jetton transfer of tongate's own TEP-74 jetton, a v4 wallet's TON
 * transfer), emulated, then sent and sealed: the emulated trace has the sealed trace's transactions (accounts,
 * inbound messages, outcome, messages sent) and actions (types, success, details, accounts), and emulating changed
 * nothing. TON Connect previews of both wallets; a trace cut at the bounds is marked; bad input is a 4xx naming
 * the field. Transactions are checked against toncenter's v3 spec (the emulate API publishes no answer schema:
 * its answer is made of v3's Transaction, TraceNode and Action).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  external,
  internal,
  storeMessage,
  toNano,
  SendMode,
  type MessageRelaxed,
} from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { approveBody, multisigInit, newOrderBody, orderAddress, packOrder } from '../../src/contracts/multisig/multisig.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { multisigCode } from '../contracts/support/code.js';
import { answerCode, libraryCell, publisherCode } from '../support/library-contracts.js';
import { LOOPER_CODE, deployMessage, testWallet } from '../chain/local/support/local-chain.js';
import { openStore } from '../index/support/stores.js';
import { sealBlocks, sealUntilQuiet, serveIndex, type V3Server } from '../api/v3/support/server.js';
import { toncenterV3 } from '../api/v3/support/spec.js';
import { startKeyedTongate } from '../api/v2/support/keyed-tongate.js';
import { getJson, postJson, startTestTongate } from '../support/tongate.js';
import { frontFor } from '../support/through-upstream.js';

const raw = (address: Address) => formatRawUpper(address);
const EMULATE = '/api/emulate/v1';
/** The local chain's clock stands still (serveIndex's ManualClock). */
const NOW = 1_700_000_000;

const toBoc = (message: ReturnType<typeof external>) => beginCell().store(storeMessage(message)).endCell().toBoc();

type V4Owner = ReturnType<typeof testWallet>;

/** A v4 wallet's request (@ton/ton signs it), deploying the wallet when `deploy`. */
function v4(owner: V4Owner, seqno: number, messages: MessageRelaxed[], deploy = false): Buffer {
  const body = owner.wallet.createTransfer({ seqno, secretKey: owner.keys.secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
  return toBoc(external({ to: owner.wallet.address, body, init: deploy ? owner.wallet.init : undefined }));
}

/** What must be equal between an emulated and a sealed transaction: all but hashes, lts and times. */
function shape(tx: any) {
  const message = (m: any) =>
    m && {
      source: m.source,
      destination: m.destination,
      value: m.value,
      opcode: m.opcode,
      bounce: m.bounce,
      bounced: m.bounced,
      body: m.message_content?.body,
    };
  return {
    account: tx.account,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    aborted: tx.description.aborted,
    compute_exit_code: tx.description.compute_ph?.exit_code,
    in_msg: message(tx.in_msg),
    out_msgs: tx.out_msgs.map((m: any) => ({ ...message(m), body: m.opcode === '0xd53276db' ? undefined : m.message_content?.body })),
  };
}

/** Transactions of a trace answer in (lt, account) order, the order both trees are built in. */
const inOrder = (transactions: Record<string, any>) =>
  Object.values(transactions).sort((a: any, b: any) => (BigInt(a.lt) === BigInt(b.lt) ? 0 : BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));

/** An action's parts that do not depend on message hashes or lts. */
const actionShape = (a: any) => ({ type: a.type, success: a.success, details: a.details, accounts: [...a.accounts].sort() });

/** The tree as shapes of its nodes, children in order. */
function treeShape(node: any, transactions: Record<string, any>): unknown {
  return { account: transactions[node.tx_hash].account, children: node.children.map((c: any) => treeShape(c, transactions)) };
}

interface Fixture {
  server: V3Server;
  alice: WalletContractV5R1;
  aliceSecret: Buffer;
  admin: ReturnType<typeof testWallet>;
  master: Address;
  aliceJetton: Address;
  bob: Address;
}

async function jettonFixture(t: TestContext): Promise<Fixture | null> {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return null;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const admin = testWallet(61);
  const aliceKeys = keyPairFromSeed(Buffer.alloc(32, 62));
  const alice = WalletContractV5R1.create({ workchain: 0, publicKey: aliceKeys.publicKey });
  for (const wallet of [admin.wallet.address, alice.address])
    await Promise.all([server.chain.fund(wallet, toNano('10')), sealBlocks(server)]);
  const jettonInit = jettonMasterInit({
    admin: admin.wallet.address,
    content: onchainContent({ name: 'Preview', symbol: 'PRV', decimals: '9' }),
  });
  const master = contractAddress(0, jettonInit);
  const mint = mintBody({ to: alice.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
  const deploy = v4(admin, 0, [internal({ to: master, value: toNano('0.2'), body: mint, init: jettonInit })], true);
  assert.equal((await server.post('/api/v3/message', { boc: deploy.toString('base64') })).status, 200);
  await sealUntilQuiet(server);
  // alice's wallet deployed with a first, empty request, so a TON Connect preview finds it.
  const first = await alice.createTransfer({
    seqno: 0,
    secretKey: aliceKeys.secretKey,
    messages: [],
    sendMode: SendMode.PAY_GAS_SEPARATELY,
  });
  const deployed = await server.post('/api/v3/message', {
    boc: toBoc(external({ to: alice.address, body: first, init: alice.init })).toString('base64'),
  });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  await sealUntilQuiet(server);
  return {
    server,
    alice,
    aliceSecret: aliceKeys.secretKey,
    admin,
    master,
    aliceJetton: jettonWalletAddress(alice.address, master),
    bob: testWallet(63).wallet.address,
  };
}

/** A served local chain (gateway and index) with `admin` funded with `amount`. */
async function servedWithFunds(t: TestContext, admin: V4Owner, amount: bigint): Promise<V3Server | null> {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return null;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  await Promise.all([server.chain.fund(admin.wallet.address, amount), sealBlocks(server)]);
  return server;
}

async function aliceSends(f: Fixture, seqno: number, messages: MessageRelaxed[]): Promise<Buffer> {
  const body = await f.alice.createTransfer({ seqno, secretKey: f.aliceSecret, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
  return toBoc(external({ to: f.alice.address, body }));
}

/** Every account the answer's transactions name, with its state hash now. */
async function statesOf(server: V3Server, accounts: string[]) {
  return Promise.all(accounts.map(async (a) => (await server.chain.getAccount(Address.parseRaw(a))).shardAccount.hash().toString('hex')));
}

test('emulateTrace: a jetton transfer emulated equals the same message sealed (transactions, tree, actions); nothing changes', async (t) => {
  const f = await jettonFixture(t);
  if (!f) return;
  const { server } = f;
  const transfer = jettonTransferBody({
    to: f.bob,
    amount: 300n,
    response: f.alice.address,
    forwardTonAmount: toNano('0.05'),
    queryId: 11n,
  });
  const boc = await aliceSends(f, 1, [internal({ to: f.aliceJetton, value: toNano('0.2'), body: transfer })]);
  const seqnoBefore = server.chain.masterchainInfo().last.id.seqno;

  const reply = await server.post(`${EMULATE}/emulateTrace`, {
    boc: boc.toString('base64'),
    with_actions: true,
    include_address_book: true,
    include_metadata: true,
    include_code_data: true,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const emulated = reply.body;
  assert.deepEqual(Object.keys(emulated), [
    'mc_block_seqno',
    'trace',
    'transactions',
    'actions',
    'code_cells',
    'data_cells',
    'address_book',
    'metadata',
    'rand_seed',
    'is_incomplete',
  ]);
  assert.equal(emulated.mc_block_seqno, seqnoBefore);
  assert.equal(emulated.is_incomplete, false);
  const txs = inOrder(emulated.transactions);
  // alice -> her jetton wallet -> bob's jetton wallet (deployed) -> bob (notification) and -> alice (excess)
  assert.equal(txs.length, 5);
  assert.equal(emulated.trace.tx_hash, txs[0].hash);
  for (const tx of txs) {
    assert.equal(tx.emulated, true);
    assert.equal(tx.finality, 'pending');
    assert.equal(tx.trace_id, txs[0].hash);
    assert.ok(tx.account_state_after.balance !== undefined);
  }
  const jetton = emulated.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(jetton, `a jetton_transfer among ${emulated.actions.map((a: any) => a.type)}`);
  assert.equal(jetton.details.amount, '300');
  assert.equal(jetton.details.sender, raw(f.alice.address));
  assert.equal(jetton.details.receiver, raw(f.bob));
  assert.equal(
    jetton.details.receiver_jetton_wallet,
    raw(jettonWalletAddress(f.bob, f.master)),
    'the wallet the transfer deploys is detected on its emulated state',
  );
  assert.equal(jetton.finality, 'pending');
  assert.ok(emulated.address_book[raw(f.alice.address)].user_friendly);
  assert.ok(Object.keys(emulated.code_cells).length >= 2);
  // Checked against toncenter's v3 spec: the transactions as /transactions, the actions as /actions.
  assert.deepEqual(toncenterV3().errors('/api/v3/transactions', { transactions: txs, address_book: emulated.address_book }), []);
  assert.deepEqual(
    toncenterV3().errors('/api/v3/actions', {
      actions: emulated.actions,
      address_book: emulated.address_book,
      metadata: emulated.metadata,
    }),
    [],
  );

  // Nothing changed: no block sealed, nothing queued, every account it touched as it was.
  const accounts = txs.map((tx: any) => tx.account);
  const before = await statesOf(server, accounts);
  assert.equal(server.chain.masterchainInfo().last.id.seqno, seqnoBefore);
  assert.deepEqual(server.chain.stats(), { pendingMessages: 0, openTransactions: 0 });
  assert.equal(
    (await server.chain.getAccount(jettonWalletAddress(f.bob, f.master))).state,
    'nonexist',
    "bob's jetton wallet is not deployed",
  );

  // The same message, sent and sealed: the same trace.
  const sent = await server.post('/api/v3/message', { boc: boc.toString('base64') });
  assert.equal(sent.status, 200);
  await sealUntilQuiet(server);
  const sealed = await server.get(`/api/v3/traces?msg_hash=${encodeURIComponent(sent.body.message_hash)}&include_actions=true`);
  assert.equal(sealed.status, 200);
  const [trace] = sealed.body.traces;
  assert.deepEqual(txs.map(shape), inOrder(trace.transactions).map(shape));
  assert.deepEqual(treeShape(emulated.trace, emulated.transactions), treeShape(trace.trace, trace.transactions));
  const sealedActions = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(trace.trace_id)}&include_accounts=true`);
  assert.deepEqual(emulated.actions.map(actionShape), sealedActions.body.actions.map(actionShape));
  assert.notDeepEqual(await statesOf(server, accounts), before, 'sealing it did change them');
});

test('emulateTonConnect: v5r1 and v4 wallets preview what a dApp asks, unsigned; a contract that is no wallet is refused naming from', async (t) => {
  const f = await jettonFixture(t);
  if (!f) return;
  const { server } = f;
  const payload = jettonTransferBody({ to: f.bob, amount: 5n, response: f.alice.address, forwardTonAmount: 0n });
  const v5 = await server.post(`${EMULATE}/emulateTonConnect`, {
    from: f.alice.address.toString({ testOnly: true }),
    messages: [{ address: f.aliceJetton.toString(), amount: '100000000', payload: payload.toBoc().toString('base64') }],
    with_actions: true,
  });
  assert.equal(v5.status, 200, JSON.stringify(v5.body));
  const v5Jetton = v5.body.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.equal(v5Jetton?.details.amount, '5');

  const v4 = await server.post(`${EMULATE}/emulateTonConnect`, {
    from: raw(f.admin.wallet.address),
    messages: [{ address: f.bob.toString({ bounceable: false, testOnly: true }), amount: '1500000000' }],
    with_actions: true,
  });
  assert.equal(v4.status, 200, JSON.stringify(v4.body));
  const transfer = v4.body.actions.find((a: any) => a.type === 'ton_transfer');
  assert.equal(transfer?.details.value, '1500000000');
  assert.equal(transfer?.details.destination, raw(f.bob));
  assert.equal(Object.keys(v4.body.transactions).length, 2);

  const notWallet = await server.post(`${EMULATE}/emulateTonConnect`, {
    from: raw(f.master),
    messages: [{ address: raw(f.bob), amount: '1' }],
  });
  assert.equal(notWallet.status, 400);
  assert.match(notWallet.body.error, /^invalid request: from: .* is not a known wallet/);
  for (const [body, field] of [
    [{ messages: [{ address: raw(f.bob), amount: '1' }] }, 'from'],
    [{ from: raw(f.admin.wallet.address), messages: [] }, 'messages'],
    [{ from: raw(f.admin.wallet.address), messages: Array(5).fill({ address: raw(f.bob), amount: '1' }) }, 'messages'],
    [{ from: raw(f.admin.wallet.address), messages: [{ address: raw(f.bob), amount: '-1' }] }, 'messages\\[0\\].amount'],
    [{ from: raw(f.admin.wallet.address), messages: [{ address: 'nope', amount: '1' }] }, 'messages\\[0\\].address'],
    [{ from: raw(f.admin.wallet.address), messages: [{ address: raw(f.bob), amount: '1', payload: 'AAAA' }] }, 'messages\\[0\\].payload'],
  ] as const) {
    const refused = await server.post(`${EMULATE}/emulateTonConnect`, body);
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.match(refused.body.error, new RegExp(`^invalid request: ${field}`));
  }
});

test('emulateTrace: bad input is a 4xx naming the field; a refused external is a 422; ignore_chksig previews an unsigned message', async (t) => {
  const admin = testWallet(71);
  const server = await servedWithFunds(t, admin, toNano('5'));
  if (!server) return;
  assert.equal((await server.post('/api/v3/message', { boc: v4(admin, 0, [], true).toString('base64') })).status, 200);
  await sealBlocks(server);
  for (const [body, words] of [
    [{}, /^invalid request: boc is required$/],
    [{ boc: '' }, /^invalid request: boc is required$/],
    [{ boc: 42 }, /^invalid request: boc must be a base64 string$/],
    [{ boc: 'not base64!' }, /^invalid request: boc is not valid base64/],
    [{ boc: 'te6ccgEBAQEAAgAAAA==', with_actions: 'yes' }, /^invalid request: with_actions must be true or false$/],
    [{ boc: 'te6ccgEBAQEAAgAAAA==', mc_block_seqno: -1 }, /^invalid request: mc_block_seqno must be an integer/],
    [[], /^invalid request: the request body must be a JSON object$/],
  ] as const) {
    const reply = await server.post(`${EMULATE}/emulateTrace`, body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.match(reply.body.error, words);
  }
  // Base64 that is no external message: the chain's parser names the field.
  for (const boc of ['AAAA', 'te6ccgEBAQEAAgAAAA==']) {
    const reply = await server.post(`${EMULATE}/emulateTrace`, { boc });
    assert.equal(reply.status, 422, boc);
    assert.match(reply.body.error, /boc/);
  }
  const unknownBlock = await server.post(`${EMULATE}/emulateTrace`, { boc: v4(admin, 1, []).toString('base64'), mc_block_seqno: 99999 });
  assert.equal(unknownBlock.status, 404);

  // Signed with another key: refused, unless the signature check is off.
  const wrongKey = { wallet: admin.wallet, keys: testWallet(72).keys };
  const unsigned = v4(wrongKey, 1, [internal({ to: testWallet(73).wallet.address, value: toNano('1'), bounce: false })]);
  const refused = await server.post(`${EMULATE}/emulateTrace`, { boc: unsigned.toString('base64') });
  assert.equal(refused.status, 422);
  assert.match(refused.body.error, /^boc: the external message was not accepted by 0:[0-9a-f]{64}/);
  const previewed = await server.post(`${EMULATE}/emulateTrace`, {
    boc: unsigned.toString('base64'),
    ignore_chksig: true,
    with_actions: true,
  });
  assert.equal(previewed.status, 200, JSON.stringify(previewed.body));
  assert.deepEqual(
    previewed.body.actions.map((a: any) => a.type),
    ['ton_transfer'],
  );
  const get = await server.get(`${EMULATE}/emulateTrace`);
  assert.equal(get.status, 405);
});

test("emulateTrace: a message loop is cut at toncenter's bounds and marked is_incomplete; the chain API cuts at any bound asked", async (t) => {
  const admin = testWallet(81);
  const server = await servedWithFunds(t, admin, toNano('50'));
  if (!server) return;
  const looper = deployMessage(LOOPER_CODE, toNano('20'));
  const boc = v4(admin, 0, [looper.message], true);
  const reply = await server.post(`${EMULATE}/emulateTrace`, { boc: boc.toString('base64') });
  assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  assert.equal(reply.body.is_incomplete, true);
  // The wallet's transaction and 31 levels of the loop: 32 levels of messages.
  assert.equal(Object.keys(reply.body.transactions).length, 32);
  let depth = 0;
  for (let node = reply.body.trace; node.children.length > 0; node = node.children[0]) depth++;
  assert.equal(depth, 31);

  const cut = await server.chain.emulateTrace(boc, { maxTransactions: 3 });
  assert.equal(cut.transactions.length, 3);
  assert.equal(cut.incomplete, true);
  const whole = await server.chain.emulateTrace(v4(admin, 0, [], true));
  assert.equal(whole.incomplete, false);
  assert.equal(whole.transactions.length, 1);
});

/** Actions' shapes in a fixed order (the two answers order them each their own way). */
const shapes = (actions: any[]) => actions.map((a) => JSON.stringify(actionShape(a))).sort();

/** Emulates `boc` with actions, then sends and seals it: the emulated actions and those the index gives the sealed trace. */
async function emulatedAndSealed(server: V3Server, boc: Buffer): Promise<{ emulated: any[]; sealed: any[]; transactions: any[] }> {
  const reply = await server.post(`${EMULATE}/emulateTrace`, { boc: boc.toString('base64'), with_actions: true });
  assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  const sent = await server.post('/api/v3/message', { boc: boc.toString('base64') });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await sealUntilQuiet(server);
  const traces = await server.get(`/api/v3/traces?msg_hash=${encodeURIComponent(sent.body.message_hash)}`);
  const sealed = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(traces.body.traces[0].trace_id)}&include_accounts=true`);
  assert.equal(sealed.status, 200);
  return { emulated: reply.body.actions, sealed: sealed.body.actions, transactions: inOrder(reply.body.transactions) };
}

test('emulateTrace of multisig requests: new_order gives multisig_create_order, an approval that executes gives multisig_approve and multisig_execute, as the index gives them sealed', async (t) => {
  const [s0, s1, s2] = [191, 192, 193].map((seed) => testWallet(seed));
  const receiver = testWallet(194).wallet.address;
  const server = await servedWithFunds(t, s0, toNano('50'));
  if (!server) return;
  await Promise.all([server.chain.fund(s1.wallet.address, toNano('50')), sealBlocks(server)]);
  const code = await multisigCode();
  const params = { threshold: 2, signers: [s0, s1, s2].map((s) => s.wallet.address), proposers: [] };
  const init = multisigInit(code.wallet, params);
  const multisig = contractAddress(0, init);
  const deployed = await server.post('/api/v3/message', {
    boc: v4(s0, 0, [internal({ to: multisig, value: toNano(5), init, bounce: false })], true).toString('base64'),
  });
  assert.equal(deployed.status, 200);
  await sealUntilQuiet(server);

  // s0 (a signer) creates an order: a new contract, which the index has never seen.
  const order = packOrder([{ type: 'transfer', sendMode: 3, message: internal({ to: receiver, value: toNano(1), bounce: false }) }]);
  const orderAt = orderAddress(code.order, multisig, 0n);
  const newOrder = newOrderBody({ order, expirationDate: NOW + 86_400, isSigner: true, index: 0, queryId: 11n });
  const created = await emulatedAndSealed(server, v4(s0, 1, [internal({ to: multisig, value: toNano(1), body: newOrder })]));
  const create = created.emulated.find((a) => a.type === 'multisig_create_order');
  assert.ok(create, `a multisig_create_order among ${created.emulated.map((a) => a.type)}`);
  assert.equal(create.success, true);
  assert.equal(create.details.destination_order, raw(orderAt));
  assert.equal(create.details.query_id, '11');
  for (const signer of params.signers) assert.ok(create.accounts.includes(raw(signer)), 'the signers among its accounts');
  assert.deepEqual(shapes(created.emulated), shapes(created.sealed), 'the same actions as the sealed trace');

  // s1 approves: the threshold is met and the order executes, in the same trace.
  const approved = await emulatedAndSealed(
    server,
    v4(s1, 0, [internal({ to: orderAt, value: toNano('0.1'), body: approveBody(1, 12n) })], true),
  );
  const types = approved.emulated.map((a) => a.type);
  assert.ok(types.includes('multisig_approve') && types.includes('multisig_execute'), `approve and execute among ${types}`);
  const execute = approved.emulated.find((a) => a.type === 'multisig_execute');
  assert.equal(execute.success, true);
  assert.equal(execute.details.order_seqno, '0');
  assert.deepEqual(shapes(approved.emulated), shapes(approved.sealed), 'the same actions as the sealed trace');
});

test('emulateTrace on a local chain: a contract whose code is a public library (published on -1) runs it, deployed by the trace or already deployed', async (t) => {
  const admin = testWallet(195);
  const server = await servedWithFunds(t, admin, toNano('50'));
  if (!server) return;
  const libraryCode = await answerCode();
  // A publisher on the masterchain, deployed by a request that carries the code to publish (SETLIBCODE, public).
  const publisher = { code: await publisherCode(), data: Cell.EMPTY };
  const publish = internal({
    to: contractAddress(-1, publisher),
    value: toNano(5),
    init: publisher,
    bounce: false,
    body: beginCell().storeRef(libraryCode).endCell(),
  });
  assert.equal((await server.post('/api/v3/message', { boc: v4(admin, 0, [publish], true).toString('base64') })).status, 200);
  await sealUntilQuiet(server);
  assert.equal(server.chain.libraries([libraryCode.hash()]).length, 1, 'published');

  const user = { code: libraryCell(libraryCode), data: Cell.EMPTY };
  const userAddress = contractAddress(0, user);
  const stored42 = beginCell().storeUint(42, 32).endCell().hash().toString('base64');
  const runs = async (boc: Buffer) => {
    const reply = await server.post(`${EMULATE}/emulateTrace`, { boc: boc.toString('base64') });
    assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
    const tx = inOrder(reply.body.transactions).find((x: any) => x.account === raw(userAddress));
    assert.ok(tx, 'the contract has a transaction');
    assert.equal(tx.description.compute_ph.success, true, 'the library code ran');
    assert.equal(tx.account_state_after.data_hash, stored42, 'its data is what the library code stores');
  };
  const deploy = v4(admin, 1, [internal({ to: userAddress, value: toNano(1), init: user, bounce: false })]);
  await runs(deploy);
  assert.equal((await server.post('/api/v3/message', { boc: deploy.toString('base64') })).status, 200);
  await sealUntilQuiet(server);
  await runs(v4(admin, 2, [internal({ to: userAddress, value: toNano('0.1'), bounce: true })]));
});

test('the access layer stands in front: a bad key is 401, a key of the network passes to the emulator, errors in v3 shape', async (t) => {
  const keyed = await startKeyedTongate('mainnet');
  t.after(() => keyed.tongate.stop());
  const url = `${keyed.base}${EMULATE}/emulateTrace`;
  const badKey = await postJson(url, { boc: 'AAAA' }, { 'x-api-key': 'not-a-key' });
  assert.equal(badKey.status, 401);
  const keyed200 = await postJson(url, {}, { 'x-api-key': keyed.apiKey });
  assert.equal(keyed200.status, 400);
  assert.deepEqual(keyed200.body, { error: 'invalid request: boc is required' });
  const notJson = await getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': keyed.apiKey },
    body: '{',
  });
  assert.equal(notJson.status, 400);
  assert.equal(typeof notJson.body.error, 'string');
  assert.equal(notJson.body.ok, undefined, 'v3 error shape, not v2');
});

test('an upstream network forwards the Emulate API to its upstream, beside its v3 base', async (t) => {
  const local = await startTestTongate();
  t.after(() => local.stop());
  const front = await frontFor({ testnet: local.url('testnet') });
  t.after(() => front.stop());
  const chain = local.chain('testnet');
  const admin = testWallet(75);
  await Promise.all([chain.fund(admin.wallet.address, toNano('5')), chain.produceBlock()]);
  const boc = v4(admin, 0, [internal({ to: testWallet(76).wallet.address, value: toNano('1'), bounce: false })], true);
  const reply = await postJson(`${front.url('testnet')}${EMULATE}/emulateTrace`, { boc: boc.toString('base64'), with_actions: true });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(Object.keys(reply.body.transactions).length, 2, 'the upstream emulated it: the front has no chain');
  // The transfer, and the wallet deployed by its first message.
  assert.deepEqual(reply.body.actions.map((a: any) => a.type).sort(), ['contract_deploy', 'ton_transfer']);
  const refused = await postJson(`${front.url('testnet')}${EMULATE}/emulateTrace`, { boc: 'AAAA' });
  assert.equal(refused.status, 422, "the upstream's refusal, passed on");
});
