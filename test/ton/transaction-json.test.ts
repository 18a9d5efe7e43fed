import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, loadTransaction, storeStateInit, type Transaction } from '@ton/core';
import { formatV2Address } from '../../src/ton/address.js';
import { bocBase64 } from '../../src/ton/boc.js';
import { formatHash } from '../../src/ton/hash.js';
import { transactionMessageCells } from '../../src/ton/message-cells.js';
import { v2Transaction, v2TransactionStd, type ExtTransactionJson } from '../../src/ton/transaction-json.js';
import { clientAnswering } from './support/client-transport.js';
import { LONG_COMMENT, NOWHERE, scenario } from './support/scenario.js';
import { v2Components } from './support/spec.js';

const MAINNET = { workchain: 0, testOnly: false };
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

test('every scenario transaction validates against the v2 spec (Transaction, TransactionStd)', async () => {
  const s = await scenario();
  for (const tx of s.all) {
    assert.deepEqual(v2Components().errors('Transaction', asJson(v2Transaction(tx, MAINNET))), [], `ext ${tx.description.type}`);
    assert.deepEqual(v2Components().errors('TransactionStd', asJson(v2TransactionStd(tx, MAINNET))), [], `std ${tx.description.type}`);
  }
  // The validator is live: a number where the spec wants a string is caught.
  const broken = { ...asJson(v2Transaction(s.deploy, MAINNET)), fee: 5 };
  assert.notDeepEqual(v2Components().errors('Transaction', broken), []);
});

test("TonClient's getTransactions accepts the JSON (zod) and re-parses every transaction from `data`", async () => {
  const s = await scenario();
  const txs = s.all.filter((tx) => tx.inMessage);
  const { client, calls } = clientAnswering(txs.map((tx) => v2Transaction(tx, MAINNET)));
  const parsed = await client.getTransactions(s.wallet, { limit: txs.length });
  assert.equal(calls[0].method, 'getTransactions');
  assert.equal(parsed.length, txs.length);
  parsed.forEach((tx, i) => {
    assert.ok(tx.hash().equals(txs[i].hash()));
    assert.equal(tx.lt, txs[i].lt);
  });
  // getTransaction finds a row by comparing transaction_id.hash with its base64 argument.
  const { client: one } = clientAnswering([v2Transaction(s.deploy, MAINNET)]);
  const found = await one.getTransaction(s.wallet, s.deploy.lt.toString(), s.deploy.hash().toString('base64'));
  assert.ok(found?.hash().equals(s.deploy.hash()));
  // A tick-tock transaction has no in_msg key (zod refuses null, accepts absence).
  const tick = v2Transaction(s.tick, MAINNET);
  assert.equal('in_msg' in tick, false);
  const { client: locate } = clientAnswering(tick);
  const located = await locate.tryLocateResultTx(s.logger, s.logger, '0');
  assert.ok(located.hash().equals(s.tick.hash()));
});

test('transaction fields: account forms, utime, data, id, fees (fee = storage_fee + other_fee)', async () => {
  const s = await scenario();
  for (const tx of s.all) {
    const json = v2Transaction(tx, MAINNET);
    const account = Address.parse(json.address.account_address);
    assert.equal(json.account, `0:${account.hash.toString('hex').toUpperCase()}`);
    assert.equal(json.utime, tx.now);
    assert.ok(loadTransaction(Cell.fromBase64(json.data).beginParse()).hash().equals(tx.hash()));
    assert.deepEqual(json.transaction_id, { '@type': 'internal.transactionId', lt: tx.lt.toString(), hash: tx.hash().toString('base64') });
    assert.equal(BigInt(json.fee), tx.totalFees.coins);
    assert.equal(BigInt(json.storage_fee) + BigInt(json.other_fee), BigInt(json.fee));
  }
  assert.equal(v2Transaction(s.deploy, MAINNET).address.account_address, s.wallet.toString({ bounceable: true, urlSafe: true }));
  assert.match(v2Transaction(s.deploy, { workchain: 0, testOnly: true }).address.account_address, /^kQ/);
});

test('external-in message with StateInit: empty source, init_state is the StateInit cell, legacy message field', async () => {
  const s = await scenario();
  const json = v2Transaction(s.deploy, MAINNET);
  const inMsg = json.in_msg!;
  const message = s.deploy.inMessage!;
  const cells = transactionMessageCells(s.deploy);
  assert.equal(inMsg['@type'], 'ext.message');
  assert.equal(inMsg.hash, formatHash(cells.inMessage!.hash()));
  assert.equal(inMsg.source, '');
  assert.equal(inMsg.destination, formatV2Address(s.wallet, false));
  assert.deepEqual([inMsg.value, inMsg.fwd_fee, inMsg.ihr_fee, inMsg.created_lt], ['0', '0', '0', '0']);
  assert.deepEqual(inMsg.extra_currencies, []);
  assert.equal(inMsg.body_hash, formatHash(message.body.hash()));
  assert.equal(inMsg.msg_data['@type'], 'msg.dataRaw');
  const data = inMsg.msg_data as { body: string; init_state: string };
  assert.ok(Cell.fromBase64(data.body).equals(message.body));
  const init = beginCell().store(storeStateInit(message.init!)).endCell();
  assert.ok(Cell.fromBase64(data.init_state).equals(init));
  // Legacy field: base64 of the body's root data bytes, then "\n".
  const rootBytes = message.body.beginParse().loadBuffer(message.body.bits.length / 8);
  assert.equal(inMsg.message, `${rootBytes.toString('base64')}\n`);
});

test('outbound messages: a comment is msg.dataText, a raw body msg.dataRaw, in creation order', async () => {
  const s = await scenario();
  const json = v2Transaction(s.deploy, MAINNET);
  assert.equal(json.out_msgs.length, 2);
  const [comment, raw] = json.out_msgs;
  assert.equal(comment.source, formatV2Address(s.wallet, false));
  assert.equal(comment.destination, formatV2Address(s.treasury, false));
  const sent = s.deploy.outMessages.get(0)!.info;
  assert.equal(sent.type, 'internal');
  assert.equal(comment.value, sent.type === 'internal' ? sent.value.coins.toString() : '');
  assert.equal(comment.fwd_fee, sent.type === 'internal' ? sent.forwardFee.toString() : '');
  assert.deepEqual(comment.msg_data, { '@type': 'msg.dataText', text: Buffer.from('hello').toString('base64') });
  assert.equal(comment.message, 'hello');
  assert.equal(raw.destination, formatV2Address(NOWHERE, false));
  assert.equal(raw.msg_data['@type'], 'msg.dataRaw');
  assert.equal(raw.message, `${Buffer.from('1234567807', 'hex').toString('base64')}\n`);
  assert.equal((raw.msg_data as { init_state: string }).init_state, '');
  for (const out of json.out_msgs) {
    assert.ok(BigInt(out.fwd_fee) > 0n);
    assert.ok(BigInt(out.created_lt) > s.deploy.lt);
  }
  // The receiving side sees the same message (same hash) as its in_msg.
  assert.equal(v2Transaction(s.commentReceived, MAINNET).in_msg!.hash, comment.hash);
});

test('a multi-cell UTF-8 comment is decoded whole', async () => {
  const s = await scenario();
  const out = v2Transaction(s.longComment, MAINNET).out_msgs[0];
  assert.ok(Buffer.byteLength(LONG_COMMENT) > 127, 'test setup: the comment needs several cells');
  assert.equal(out.message, LONG_COMMENT);
  assert.equal(Buffer.from((out.msg_data as { text: string }).text, 'base64').toString('utf8'), LONG_COMMENT);
});

test('bounce, external-out and tick-tock shapes', async () => {
  const s = await scenario();
  const bounce = v2Transaction(s.bounce, MAINNET);
  const bounced = bounce.out_msgs[0];
  assert.equal(bounced.destination, formatV2Address(s.wallet, false));
  assert.equal(bounced.message, `${Buffer.from('ffffffff1234567807', 'hex').toString('base64')}\n`);

  const logger = v2Transaction(s.loggerDeploy, MAINNET);
  assert.notEqual((logger.in_msg!.msg_data as { init_state: string }).init_state, '', 'deploy message carries its StateInit');
  const extOut = logger.out_msgs[0];
  assert.equal(extOut.source, formatV2Address(s.logger, false));
  assert.equal(extOut.destination, '');
  assert.equal(extOut.value, '0');
  assert.equal(extOut.message, `${Buffer.from('deadbeef', 'hex').toString('base64')}\n`);

  const tick: ExtTransactionJson = v2Transaction(s.tick, MAINNET);
  assert.deepEqual(tick.out_msgs.length, 1);
});

test('raw.transaction (getTransactionsStd) carries addresses as accountAddress objects and no legacy field', async () => {
  const s = await scenario();
  const std = v2TransactionStd(s.deploy, MAINNET);
  const ext = v2Transaction(s.deploy, MAINNET);
  assert.equal(std['@type'], 'raw.transaction');
  assert.equal('account' in std, false);
  assert.deepEqual(std.in_msg!.source, { '@type': 'accountAddress', account_address: '' });
  assert.deepEqual(std.out_msgs[0].destination, { '@type': 'accountAddress', account_address: ext.out_msgs[0].destination });
  assert.equal('message' in std.out_msgs[0], false);
  assert.equal(std.data, ext.data);
  assert.equal(std.out_msgs[0].hash, ext.out_msgs[0].hash);
});

test('the data BoC is the te6cck form of the transaction cell', async () => {
  const s = await scenario();
  const tx: Transaction = s.deploy;
  assert.equal(v2Transaction(tx, MAINNET).data, bocBase64(tx.raw));
  assert.match(v2Transaction(tx, MAINNET).data, /^te6cck/);
});
