/**
 * The local chain read back through v3: wallets deployed, transfers with comments, a bounced message,
 * sent through v3's own POST /message; then v3's transactions, messages and account endpoints must say
 * what v2 says about the same transactions and accounts. Also the v2-shared v3 endpoints
 * (addressInformation, walletInformation, runGetMethod, estimateFee, message) and their toncenter quirks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, contractAddress, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { GLOBAL_ID_READER_CODE, testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

/** A 200 body valid against toncenter's spec (with its documented exceptions) and against our own document. */
const checkShape = checkAgainstSpecs;

const NOWHERE = new Address(0, Buffer.alloc(32, 0x77));
const raw = (friendly: string) => (friendly === '' ? null : formatRawUpper(Address.parse(friendly)));

/** A signed v4 transfer as an external message BoC (base64), with StateInit when `deploy`. */
function transfer(from: ReturnType<typeof testWallet>, seqno: number, messages: ReturnType<typeof internal>[], deploy = false): string {
  const body = from.wallet.createTransfer({ seqno, secretKey: from.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
  const init = deploy ? from.wallet.init : undefined;
  return beginCell()
    .store(storeMessage(external({ to: from.wallet.address, body, init })))
    .endCell()
    .toBoc()
    .toString('base64');
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`local chain scenario read back through v3 matches v2 [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const { chain } = server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const a = testWallet(61);
    const b = testWallet(62);
    const A = formatRawUpper(a.wallet.address);
    const B = formatRawUpper(b.wallet.address);
    const seal = async (blocks = 2) => {
      for (let i = 0; i < blocks; i++) await chain.produceBlock();
      await server.attachment!.synced();
    };

    // The faucet funds A and B.
    await Promise.all([chain.fund(a.wallet.address, toNano('20')), chain.fund(b.wallet.address, toNano('5')), seal(1)]);
    await seal();

    // A deploys itself with a comment to B, through v3's POST /message.
    const sent = await server.post('/api/v3/message', {
      boc: transfer(a, 0, [internal({ to: b.wallet.address, value: toNano('2'), bounce: false, body: 'hello B' })], true),
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(Object.keys(sent.body), ['message_hash', 'message_hash_norm']);
    checkShape(ours, '/api/v3/message', sent.body, 'post');
    await seal();
    // A sends a bounceable comment to an address with no contract: it comes back.
    await server.post('/api/v3/message', {
      boc: transfer(a, 1, [internal({ to: NOWHERE, value: toNano('1'), bounce: true, body: 'bounce me' })]),
    });
    await seal();
    // B deploys itself and replies.
    await server.post('/api/v3/message', {
      boc: transfer(b, 0, [internal({ to: a.wallet.address, value: toNano('1'), body: 'hi A' })], true),
    });
    await seal();

    // v3 /transactions of A against v2 getTransactions of A: the same transactions, the same facts.
    const v3 = (await server.get(`/api/v3/transactions?account=${A}&limit=100`)).body;
    const v2 = (await server.get(`/api/v2/getTransactions?address=${A}&limit=100`)).body.result;
    checkShape(ours, '/api/v3/transactions', v3);
    assert.equal(v3.transactions.length, 5, 'fund, deploy + hello, bounce transfer, bounced back, reply');
    assert.deepEqual(
      v3.transactions.map((tx: any) => [tx.hash, tx.lt]),
      v2.map((tx: any) => [tx.transaction_id.hash, tx.transaction_id.lt]),
    );
    for (const [i, tx] of v3.transactions.entries()) {
      const old = v2[i];
      assert.equal(tx.now, old.utime);
      assert.equal(tx.total_fees, old.fee);
      assert.equal(tx.account, old.account);
      assert.equal(tx.in_msg?.hash, old.in_msg?.hash);
      assert.equal(tx.in_msg.source, raw(old.in_msg.source));
      assert.equal(tx.in_msg.destination, raw(old.in_msg.destination));
      assert.equal(tx.in_msg.value ?? '0', old.in_msg.value);
      assert.equal(tx.in_msg.fwd_fee ?? '0', old.in_msg.fwd_fee);
      assert.equal(tx.in_msg.created_lt ?? '0', old.in_msg.created_lt);
      assert.equal(tx.in_msg.message_content.hash, old.in_msg.body_hash);
      const comment =
        old.in_msg.msg_data['@type'] === 'msg.dataText' ? Buffer.from(old.in_msg.msg_data.text, 'base64').toString() : undefined;
      assert.equal(tx.in_msg.message_content.decoded?.comment, comment);
      assert.deepEqual(
        tx.out_msgs.map((m: any) => [m.hash, m.destination, m.value, m.created_lt]),
        old.out_msgs.map((m: any) => [m.hash, raw(m.destination), m.value, m.created_lt]),
      );
    }
    const comments = v3.transactions.map((tx: any) => tx.in_msg.message_content.decoded?.comment ?? null);
    assert.deepEqual(
      comments,
      ['hi A', null, null, null, null],
      'the reply; the bounced message (0xffffffff + the start of the comment), two externals, the faucet transfer',
    );
    const bouncedBack = v3.transactions[1];
    assert.equal(bouncedBack.in_msg.bounced, true);
    assert.equal(bouncedBack.in_msg.opcode, '0xffffffff');
    assert.equal(bouncedBack.in_msg.source, formatRawUpper(NOWHERE));
    // The state each transaction ended in is the one its block ended in when A had one transaction in it.
    const last = v3.transactions[0];
    const info = (await server.get(`/api/v2/getAddressInformation?address=${A}`)).body.result;
    assert.equal(last.account_state_after.balance, info.balance);

    // The bounce, seen from NOWHERE's side and through adjacentTransactions.
    const bounce = (await server.get(`/api/v3/transactions?account=${formatRawUpper(NOWHERE)}`)).body.transactions[0];
    assert.equal(bounce.description.aborted, true);
    assert.equal(bounce.description.bounce.type, 'ok');
    const around = (await server.get(`/api/v3/adjacentTransactions?hash=${encodeURIComponent(bounce.hash)}`)).body.transactions;
    assert.deepEqual(
      around.map((tx: any) => tx.account),
      [A, A],
      'sent by A, bounced back to A',
    );

    // The message sent through /message is found by the hash /message returned, and by its normalized hash.
    const byHash = (await server.get(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(sent.body.message_hash)}`)).body
      .transactions;
    assert.deepEqual(
      byHash.map((tx: any) => tx.account),
      [A],
    );
    const byNorm = (await server.get(`/api/v3/messages?msg_hash=${encodeURIComponent(sent.body.message_hash_norm)}`)).body.messages;
    assert.equal(byNorm[0].hash, sent.body.message_hash);
    assert.equal(byNorm[0].in_msg_tx_hash, byHash[0].hash);

    // Accounts: v3 against v2.
    for (const [address, kind] of [
      [A, 'a'],
      [B, 'b'],
    ] as const) {
      const v2Info = (await server.get(`/api/v2/getAddressInformation?address=${address}`)).body.result;
      const v2Wallet = (await server.get(`/api/v2/getWalletInformation?address=${address}`)).body.result;
      for (const useV2 of ['false', 'true']) {
        const v3Info = (await server.get(`/api/v3/addressInformation?address=${address}&use_v2=${useV2}`)).body;
        checkShape(ours, '/api/v3/addressInformation', v3Info);
        assert.deepEqual(
          [v3Info.balance, v3Info.code, v3Info.data, v3Info.last_transaction_lt, v3Info.last_transaction_hash, v3Info.frozen_hash],
          [v2Info.balance, v2Info.code, v2Info.data, v2Info.last_transaction_id.lt, v2Info.last_transaction_id.hash, null],
          `${kind} use_v2=${useV2}`,
        );
        assert.equal(v3Info.status, 'active');
        const v3Wallet = (await server.get(`/api/v3/walletInformation?address=${address}&use_v2=${useV2}`)).body;
        checkShape(ours, '/api/v3/walletInformation', v3Wallet);
        assert.deepEqual(
          [v3Wallet.balance, v3Wallet.wallet_type, v3Wallet.seqno, v3Wallet.wallet_id, v3Wallet.last_transaction_hash],
          [v2Wallet.balance, v2Wallet.wallet_type, v2Wallet.seqno, v2Wallet.wallet_id, v2Wallet.last_transaction_id.hash],
        );
      }
      assert.deepEqual(
        (await server.get(`/api/v3/account?address=${address}`)).body,
        (await server.get(`/api/v3/addressInformation?address=${address}`)).body,
        'alias',
      );
      assert.deepEqual(
        (await server.get(`/api/v3/wallet?address=${address}`)).body,
        (await server.get(`/api/v3/walletInformation?address=${address}`)).body,
        'alias',
      );
    }
    const states = (await server.get(`/api/v3/walletStates?address=${A}&address=${B}`)).body.wallets;
    assert.deepEqual(
      states.map((w: any) => [w.wallet_type, w.seqno]),
      [
        ['wallet v4 r2', 2],
        ['wallet v4 r2', 1],
      ],
    );

    // runGetMethod: the v3 stack against v2's.
    const v3Run = await server.post('/api/v3/runGetMethod', { address: A, method: 'seqno', stack: [] });
    const v2Run = (await server.post('/api/v2/runGetMethod', { address: A, method: 'seqno', stack: [] })).body.result;
    assert.equal(v3Run.status, 200, JSON.stringify(v3Run.body));
    checkShape(ours, '/api/v3/runGetMethod', v3Run.body, 'post');
    assert.deepEqual(v3Run.body, { gas_used: v2Run.gas_used, exit_code: 0, stack: [{ type: 'num', value: '0x2' }] });
    assert.deepEqual(v2Run.stack, [['num', '0x2']]);
    const key = await server.post('/api/v3/runGetMethod', { address: A, method: 'get_public_key', stack: [] });
    assert.equal(key.body.stack[0].value, `0x${a.keys.publicKey.toString('hex').replace(/^0+/, '')}`);
    const withArgs = await server.post('/api/v3/runGetMethod', {
      address: A,
      method: 'is_plugin_installed',
      stack: [
        { type: 'num', value: '0' },
        { type: 'num', value: '0x1' },
      ],
    });
    assert.deepEqual(withArgs.body.stack, [{ type: 'num', value: '0x0' }], 'v3 {type,value} arguments');

    // estimateFee: v2's numbers in v3's shape.
    const body = a.wallet
      .createTransfer({ seqno: 2, secretKey: a.keys.secretKey, messages: [internal({ to: B, value: toNano('1') })] })
      .toBoc()
      .toString('base64');
    const v3Fee = await server.post('/api/v3/estimateFee', { address: A, body });
    const v2Fee = (await server.post('/api/v2/estimateFee', { address: A, body })).body.result;
    assert.equal(v3Fee.status, 200, JSON.stringify(v3Fee.body));
    checkShape(ours, '/api/v3/estimateFee', v3Fee.body, 'post');
    const { '@type': _type, ...fees } = v2Fee.source_fees;
    assert.deepEqual(v3Fee.body, { source_fees: fees, destination_fees: [] });
    assert.ok(v3Fee.body.source_fees.gas_fee > 0);
  });
}

test('v2-shared v3 endpoints: toncenter quirks and bad input', async (t) => {
  const opened = await openStore(t, 'sqlite');
  const server = await serveIndex(t, opened!.index, 'testnet', true);
  await server.chain.produceBlock();
  await server.attachment!.synced();
  const a = testWallet(71);

  // Missing required fields: 401 with toncenter's words (it reuses 401 for them).
  assert.deepEqual((await server.post('/api/v3/message', {})).body, { error: 'boc is required' });
  assert.equal((await server.post('/api/v3/message', {})).status, 401);
  const noMethod = await server.post('/api/v3/runGetMethod', { address: formatRawUpper(a.wallet.address) });
  assert.deepEqual([noMethod.status, noMethod.body], [401, { error: 'method is required' }]);
  assert.equal((await server.post('/api/v3/runGetMethod', { method: 'seqno' })).body.error, 'address is required');
  assert.equal((await server.post('/api/v3/estimateFee', { address: formatRawUpper(a.wallet.address) })).body.error, 'body is required');
  assert.equal((await server.get('/api/v3/addressInformation')).status, 401);
  assert.equal((await server.get('/api/v3/addressInformation')).body.error, 'address of account is required');
  assert.equal((await server.get('/api/v3/walletInformation')).body.error, 'address of account is required');

  // Bad values: 4xx naming the field.
  const badBoc = await server.post('/api/v3/message', { boc: 'not a boc' });
  assert.equal(badBoc.status, 422);
  assert.match(badBoc.body.error, /boc/);
  assert.equal((await server.post('/api/v3/runGetMethod', { address: 'nope', method: 'seqno', stack: [] })).status, 422);
  const badStack = await server.post('/api/v3/runGetMethod', {
    address: formatRawUpper(a.wallet.address),
    method: 'seqno',
    stack: [{ type: 'dict', value: 1 }],
  });
  assert.equal(badStack.status, 422);
  assert.match(badStack.body.error, /stack/);
  assert.equal((await server.get('/api/v3/addressInformation?address=zzz')).status, 422);
  assert.equal((await server.get('/api/v3/addressInformation?address=' + formatRawUpper(a.wallet.address) + '&use_v2=sure')).status, 422);
  // Values nested deep in a POST body (500 levels: the body parser refuses more than 512): a 422 naming the
  // field, not a 500.
  const deep = '['.repeat(500) + '1' + ']'.repeat(500);
  const raw = formatRawUpper(a.wallet.address);
  for (const [path, body, field] of [
    ['/api/v3/message', `{"boc":${deep}}`, 'boc'],
    ['/api/v3/runGetMethod', `{"address":${deep},"method":"seqno"}`, 'address'],
    ['/api/v3/runGetMethod', `{"address":"${raw}","method":${deep}}`, 'method'],
    ['/api/v3/runGetMethod', `{"address":"${raw}","method":"seqno","stack":[{"type":"tuple","value":${deep}}]}`, 'stack'],
    ['/api/v3/estimateFee', `{"address":"${raw}","body":${deep}}`, 'body'],
  ]) {
    const answer = await fetch(`${server.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await answer.text();
    assert.equal(answer.status, 422, `${path} ${field}: ${text.slice(0, 200)}`);
    assert.match(JSON.parse(text).error, new RegExp(`parameter ${field}`));
  }
  const notJson = await fetch(`${server.base}/api/v3/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  assert.equal(notJson.status, 400);
  assert.deepEqual(Object.keys(await notJson.json()), ['error']);
  const asGet = await server.get('/api/v3/message');
  assert.equal(asGet.status, 405);

  // A refused external: the liteserver's words, 400 (not an accepted message).
  const unfunded = transfer(a, 0, [internal({ to: NOWHERE, value: toNano('1') })], true);
  const refused = await server.post('/api/v3/message', { boc: unfunded });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error, /External message was not accepted/);

  // An account the chain never touched, and an account that is no wallet.
  const unknown = formatRawUpper(a.wallet.address);
  assert.deepEqual((await server.get(`/api/v3/addressInformation?address=${unknown}`)).body, {
    balance: '0',
    code: null,
    data: null,
    last_transaction_lt: '0',
    last_transaction_hash: Buffer.alloc(32).toString('base64'),
    frozen_hash: null,
    status: 'uninit',
  });
  assert.deepEqual((await server.get(`/api/v3/walletInformation?address=${unknown}`)).body, {
    balance: '0',
    last_transaction_lt: '0',
    last_transaction_hash: Buffer.alloc(32).toString('base64'),
    status: 'uninit',
  });
  assert.equal(
    (await server.get(`/api/v3/walletInformation?address=${unknown}&use_v2=true`)).body.status,
    'uninitialized',
    "use_v2 passes v2's word through",
  );

  // A contract with code that is no wallet: 409 both ways. A funds and deploys it.
  const init = { code: GLOBAL_ID_READER_CODE, data: beginCell().endCell() };
  const contract = contractAddress(0, init);
  await Promise.all([server.chain.fund(a.wallet.address, toNano('5')), server.chain.produceBlock()]);
  const deploy = await server.post('/api/v3/message', {
    boc: transfer(a, 0, [internal({ to: contract, value: toNano('1'), bounce: false, init })], true),
  });
  assert.equal(deploy.status, 200, JSON.stringify(deploy.body));
  for (let i = 0; i < 3; i++) await server.chain.produceBlock();
  await server.attachment!.synced();
  for (const useV2 of ['false', 'true']) {
    const notAWallet = await server.get(`/api/v3/walletInformation?address=${formatRawUpper(contract)}&use_v2=${useV2}`);
    assert.deepEqual([notAWallet.status, notAWallet.body], [409, { error: 'not a wallet' }], `use_v2=${useV2}`);
  }
  const contractInfo = (await server.get(`/api/v3/addressInformation?address=${formatRawUpper(contract)}`)).body;
  assert.equal(contractInfo.status, 'active');
  assert.equal(contractInfo.code, GLOBAL_ID_READER_CODE.toBoc({ idx: false, crc32: true }).toString('base64'));
});
