import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Dictionary, storeMessage, storeShardAccount, type Message, type Transaction } from '@ton/core';
import { accountStateInfo, v3AccountState } from '../../src/ton/account-state-json.js';
import { formatHash } from '../../src/ton/hash.js';
import { transactionMessageCells } from '../../src/ton/message-cells.js';
import { v3Message } from '../../src/ton/message-json.js';
import { normalizedExternalHash } from '../../src/ton/normalized-external-hash.js';
import { v3Transaction, type V3TransactionContext } from '../../src/ton/transaction-v3-json.js';
import { LONG_COMMENT, NOWHERE, scenario } from './support/scenario.js';
import { allowNull, ComponentValidator, retype } from './support/spec.js';

const BLOCK: V3TransactionContext = { block: { workchain: 0, shard: 0x8000000000000000n, seqno: 12 }, mcBlockSeqno: 15 };
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/**
 * The v3 spec with the exceptions real toncenter output needs, each with its reason:
 * - the index's Go structs use pointers that marshal as null (external messages have no value, fees,
 *   created_lt...; unknown account states have null details; tick-tock transactions have no in_msg),
 *   and the spec has no `nullable` anywhere (observed toncenter output has these nulls);
 * - opcode is written as a "0x%08x" string, not an integer (reference/SOURCES.md).
 */
const v3 = new ComponentValidator('toncenter-v3-openapi.json', false, [
  allowNull(
    'Message',
    'source',
    'destination',
    'value',
    'value_extra_currencies',
    'fwd_fee',
    'ihr_fee',
    'extra_flags',
    'created_lt',
    'created_at',
    'opcode',
    'decoded_opcode',
    'ihr_disabled',
    'bounce',
    'bounced',
    'import_fee',
    'init_state',
  ),
  allowNull('MessageContent', 'decoded'),
  allowNull('Transaction', 'in_msg'),
  allowNull('AccountState', 'balance', 'extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash'),
  retype('Message', 'opcode', { anyOf: [{ type: 'string', pattern: '^0x[0-9a-f]{8}$' }, { type: 'null' }] }),
]);

test('every scenario transaction validates against the v3 spec (with the documented exceptions)', async () => {
  const s = await scenario();
  for (const tx of s.all) {
    assert.deepEqual(v3.errors('Transaction', asJson(v3Transaction(tx, BLOCK))), [], tx.description.type);
  }
  const broken = { ...asJson(v3Transaction(s.deploy, BLOCK)), now: 'yesterday' };
  assert.notDeepEqual(v3.errors('Transaction', broken), [], 'the validator is live');
});

test('transaction fields: raw uppercase account, strings for lt and fees, block_ref, statuses, state hashes', async () => {
  const s = await scenario();
  const json = v3Transaction(s.deploy, { ...BLOCK, traceId: s.deploy.hash() });
  assert.equal(json.account, `0:${s.wallet.hash.toString('hex').toUpperCase()}`);
  assert.equal(json.hash, s.deploy.hash().toString('base64'));
  assert.equal(json.lt, s.deploy.lt.toString());
  assert.equal(json.now, s.deploy.now);
  assert.equal(json.mc_block_seqno, 15);
  assert.equal(json.trace_id, json.hash);
  assert.equal(json.prev_trans_lt, s.deposit.lt.toString());
  assert.equal(json.prev_trans_hash, s.deposit.hash().toString('base64'));
  assert.deepEqual([json.orig_status, json.end_status], ['uninit', 'active']);
  assert.equal(json.total_fees, s.deploy.totalFees.coins.toString());
  assert.deepEqual(json.total_fees_extra_currencies, {});
  assert.deepEqual(json.block_ref, { workchain: 0, shard: '8000000000000000', seqno: 12 });
  assert.equal(json.account_state_before.hash, formatHash(s.deploy.stateUpdate.oldHash));
  assert.equal(json.account_state_after.hash, formatHash(s.deploy.stateUpdate.newHash));
  assert.deepEqual([json.emulated, json.finality], [false, 'finalized']);
  assert.equal('trace_id' in v3Transaction(s.deploy, BLOCK), false, 'no trace id, no key');
  assert.deepEqual(Object.keys(json), [
    'account',
    'hash',
    'lt',
    'now',
    'mc_block_seqno',
    'trace_id',
    'prev_trans_hash',
    'prev_trans_lt',
    'orig_status',
    'end_status',
    'total_fees',
    'total_fees_extra_currencies',
    'description',
    'block_ref',
    'in_msg',
    'out_msgs',
    'account_state_before',
    'account_state_after',
    'emulated',
    'finality',
  ]);
});

test('descriptions: compute skipped (no_state), vm phase with action, bounce phase, tick_tock', async () => {
  const s = await scenario();
  const deposit = v3Transaction(s.deposit, BLOCK).description;
  assert.equal(deposit.type, 'ord');
  assert.deepEqual(deposit.compute_ph, { skipped: true, reason: 'no_state' });
  assert.deepEqual(deposit.credit_ph, { credit: '10000000000' });
  assert.equal('action' in deposit, false);

  const deploy = v3Transaction(s.deploy, BLOCK).description as any;
  assert.deepEqual(Object.keys(deploy), ['type', 'aborted', 'destroyed', 'credit_first', 'storage_ph', 'compute_ph', 'action']);
  assert.equal(deploy.compute_ph.skipped, false);
  assert.equal(deploy.compute_ph.success, true);
  assert.equal(deploy.compute_ph.exit_code, 0);
  assert.equal(typeof deploy.compute_ph.gas_used, 'string');
  assert.equal(deploy.compute_ph.vm_init_state_hash.length, 44);
  assert.equal(deploy.action.msgs_created, 2);
  assert.deepEqual(Object.keys(deploy.action.tot_msg_size), ['cells', 'bits']);

  const bounce = v3Transaction(s.bounce, BLOCK).description as any;
  assert.equal(bounce.aborted, true);
  assert.equal(bounce.bounce.type, 'ok');
  assert.equal(typeof bounce.bounce.fwd_fees, 'string');

  const tick = v3Transaction(s.tick, BLOCK) as any;
  assert.equal(tick.description.type, 'tick_tock');
  assert.equal(tick.description.is_tock, false);
  assert.equal(tick.in_msg, null);
});

test('messages: internal, external-in (with hash_norm), external-out, comments and opcodes', async () => {
  const s = await scenario();
  const deploy = v3Transaction(s.deploy, BLOCK);
  const inMsg = deploy.in_msg!;
  assert.equal(inMsg.source, null);
  assert.equal(inMsg.destination, deploy.account);
  assert.deepEqual([inMsg.value, inMsg.fwd_fee, inMsg.created_lt, inMsg.created_at, inMsg.bounce], [null, null, null, null, null]);
  assert.equal(inMsg.import_fee, '0');
  assert.ok(inMsg.init_state && inMsg.init_state.body.startsWith('te6cck'));
  // hash_norm, computed independently with @ton/core: the same message with no source, no init, body by ref.
  const original = s.deploy.inMessage!;
  const normalized: Message = {
    info: { type: 'external-in', src: null, dest: s.wallet, importFee: 0n },
    init: null,
    body: original.body,
  };
  const expected = beginCell()
    .store(storeMessage(normalized, { forceRef: true }))
    .endCell()
    .hash();
  assert.equal(inMsg.hash_norm, expected.toString('base64'));
  assert.ok(normalizedExternalHash(s.wallet, original.body).equals(expected));

  const [comment, raw] = deploy.out_msgs;
  assert.equal(comment.source, deploy.account);
  assert.equal(comment.opcode, '0x00000000');
  assert.deepEqual(comment.message_content.decoded, { '@type': 'text_comment', comment: 'hello', type: 'text_comment' });
  assert.equal(comment.bounce, true);
  assert.equal(comment.bounced, false);
  assert.equal(comment.import_fee, null);
  assert.equal('hash_norm' in comment, false);
  assert.equal(raw.destination, `0:${NOWHERE.hash.toString('hex').toUpperCase()}`);
  assert.equal(raw.opcode, '0x12345678');
  assert.equal(raw.message_content.decoded, null);

  const bounced = v3Transaction(s.bounce, BLOCK).out_msgs[0];
  assert.equal(bounced.bounced, true);
  assert.equal(bounced.opcode, '0xffffffff');

  const extOut = v3Transaction(s.loggerDeploy, BLOCK).out_msgs[0];
  assert.equal(extOut.destination, null);
  assert.equal(extOut.value, null);
  assert.equal(typeof extOut.created_lt, 'string');
  assert.equal(extOut.opcode, '0xdeadbeef');

  const long = v3Transaction(s.longComment, BLOCK).out_msgs[0];
  assert.equal(long.message_content.decoded?.comment, LONG_COMMENT);

  const empty = v3Message(
    beginCell().storeUint(0b10, 2).storeUint(0, 2).storeAddress(s.wallet).storeCoins(0).storeBit(false).storeBit(false).endCell(),
  );
  assert.deepEqual(empty.message_content.decoded, { '@type': 'empty_cell' });
  assert.equal(empty.opcode, null);
});

test('v3Message writes in_msg_tx_hash / out_msg_tx_hash only when given', async () => {
  const s = await scenario();
  const cell = transactionMessageCells(s.deploy).outMessages[0];
  assert.equal('in_msg_tx_hash' in v3Message(cell), false);
  const linked = v3Message(cell, { inMsgTxHash: s.commentReceived.hash(), outMsgTxHash: s.deploy.hash() });
  assert.equal(linked.in_msg_tx_hash, s.commentReceived.hash().toString('base64'));
  assert.equal(linked.out_msg_tx_hash, s.deploy.hash().toString('base64'));
});

test('account states: details from the account, hash agreeing with the state_update', async () => {
  const s = await scenario();
  const shardAccount = s.walletContract.account;
  const account = shardAccount.account!;
  const info = accountStateInfo(account);
  assert.equal(info.status, 'active');
  // The Account cell (account$1 + storage, the ShardAccount's ref) hashes to what the wallet's
  // last transaction recorded as its new state.
  const accountHash = beginCell().store(storeShardAccount(shardAccount)).endCell().refs[0].hash();
  assert.ok(accountHash.equals(s.longComment.stateUpdate.newHash));
  const json = v3AccountState(accountHash, info, true);
  assert.equal(json.account_status, 'active');
  assert.equal(json.balance, account.storage.balance.coins.toString());
  assert.equal(json.code_hash, '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=', 'wallet v4 r2 code');
  assert.equal(typeof json.data_boc, 'string');
  assert.equal('code_boc' in v3AccountState(accountHash, info), false, 'BoCs only on request');

  const nonexist = v3AccountState(Buffer.alloc(32), accountStateInfo(null));
  assert.deepEqual(nonexist, {
    hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    balance: null,
    extra_currencies: null,
    account_status: null,
    frozen_hash: null,
    data_hash: null,
    code_hash: null,
  });
  const tx = v3Transaction(s.longComment, { ...BLOCK, accountStateAfter: info });
  assert.equal(tx.account_state_after.account_status, 'active');
  assert.deepEqual(v3.errors('Transaction', asJson(tx)), []);
});

test("hashes the caller knows (the chain's) are written as given, in the messages' order; the same text as computed", async () => {
  const s = await scenario();
  for (const tx of s.all) {
    const cells = transactionMessageCells(tx);
    const hashes = {
      transaction: formatHash(tx.hash()),
      inMessage: cells.inMessage ? formatHash(cells.inMessage.hash()) : null,
      outMessages: cells.outMessages.map((cell) => formatHash(cell.hash())),
    };
    assert.equal(JSON.stringify(v3Transaction(tx, { ...BLOCK, hashes })), JSON.stringify(v3Transaction(tx, BLOCK)), tx.description.type);
  }
  const deploy = s.deploy;
  const outCount = transactionMessageCells(deploy).outMessages.length;
  assert.ok(outCount >= 2, 'a transaction with several messages out');
  const mark = (i: number) => Buffer.alloc(32, i).toString('base64');
  const given = v3Transaction(deploy, {
    ...BLOCK,
    hashes: { transaction: mark(1), inMessage: mark(2), outMessages: Array.from({ length: outCount }, (_, i) => mark(3 + i)) },
  });
  assert.deepEqual(
    [given.hash, given.in_msg!.hash, ...given.out_msgs.map((m) => m.hash)],
    [mark(1), mark(2), ...Array.from({ length: outCount }, (_, i) => mark(3 + i))],
  );
  // Out messages whose count does not match the transaction's: computed from the cells.
  const short = v3Transaction(deploy, { ...BLOCK, hashes: { transaction: mark(1), inMessage: null, outMessages: [mark(3)] } });
  assert.deepEqual(
    short.out_msgs.map((m) => m.hash),
    v3Transaction(deploy, BLOCK).out_msgs.map((m) => m.hash),
  );
});

test("a transaction's out messages in key order, however the dictionary's labels are written (short, long, same)", () => {
  let seed = 15;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  // Dense runs (shared prefixes: same and short labels), sparse keys (long labels), a single key, up to 300 keys.
  const keySets = [[0], [32767], [0, 1, 2, 3], [5, 4, 3, 2, 1, 0], Array.from({ length: 300 }, (_, i) => 299 - i)];
  for (let t = 0; t < 40; t++) keySets.push(Array.from({ length: 1 + random(t < 20 ? 8 : 200) }, () => random(t % 2 === 0 ? 32768 : 64)));
  for (const keys of keySets) {
    const dict = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    for (const key of keys)
      dict.set(
        key,
        beginCell()
          .storeUint(key, 16)
          .storeUint(random(1 << 20), 20)
          .endCell(),
      );
    const raw = beginCell().storeRef(beginCell().storeMaybeRef(null).storeDict(dict).endCell()).endCell();
    const { inMessage, outMessages } = transactionMessageCells({ raw } as Transaction);
    assert.equal(inMessage, null);
    const sorted = [...new Set(keys)].sort((a, b) => a - b);
    assert.deepEqual(
      outMessages.map((cell) => cell.hash().toString('hex')),
      sorted.map((key) => dict.get(key)!.hash().toString('hex')),
      `keys ${sorted.slice(0, 8).join(',')}...`,
    );
  }
});
