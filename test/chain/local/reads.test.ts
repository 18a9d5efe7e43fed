import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, internal, loadMessage, parseTuple, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { NotFound } from '../../../src/chain/local/index.js';
import { BadStack } from '../../../src/chain/local/errors.js';
import type { SealedBlock } from '../../../src/chain/types.js';
import { WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { INFINITE_GETTER_CODE, deployMessage, openChain, testFaucet, testWallet, v4Send } from './support/local-chain.js';
import { compileFuncContract } from '../../support/func.js';

test('accounts and get-methods as of a masterchain seqno; failing get-methods are results', async (t) => {
  const { chain } = await openChain(t);
  const from = await testFaucet();
  const to = testWallet(30).wallet.address;
  const looping = deployMessage(INFINITE_GETTER_CODE, toNano('1'));
  await chain.sendExternal(v4Send(from, 0, [internal({ to, value: toNano('2'), bounce: false }), looping.message]));
  await chain.produceBlock();
  await chain.sendExternal(v4Send(from, 1, [internal({ to, value: toNano('2'), bounce: false })]));
  await chain.produceBlock();

  assert.equal(chain.getAccount(to, 0).state, 'nonexist');
  assert.equal(chain.getAccount(to, 0).balance, 0n);
  const credited = chain.getAccount(to, 1).balance; // 2 TON minus the forwarding fee (the wallet's default mode)
  assert.ok(credited > toNano('1.99') && credited <= toNano('2'));
  assert.equal(chain.getAccount(to, 2).balance, 2n * credited);
  assert.equal(chain.getAccount(to).balance, 2n * credited);
  const at1 = chain.getAccount(to, 1);
  assert.equal(at1.block.seqno, 1);
  assert.equal(at1.syncUtime, chain.getBlock({ workchain: -1, shard: at1.block.shard, seqno: 1 })!.genUtime);
  assert.throws(() => chain.getAccount(to, 3), NotFound);
  assert.throws(() => chain.getAccount(to, -1), NotFound);

  const seqnoAt = async (seqno?: number) => parseTuple((await chain.runGetMethod(from.wallet.address, 'seqno', [], seqno)).stackBoc);
  assert.deepEqual(await seqnoAt(0), [{ type: 'int', value: 0n }]);
  assert.deepEqual(await seqnoAt(1), [{ type: 'int', value: 1n }]);
  assert.deepEqual(await seqnoAt(), [{ type: 'int', value: 2n }]);
  // arguments go through: is_plugin_installed(wc, hash) on a v4 wallet without plugins
  const plugin = await chain.runGetMethod(from.wallet.address, 'is_plugin_installed', [
    { type: 'int', value: 0n },
    { type: 'int', value: 123n },
  ]);
  assert.equal(plugin.exitCode, 0);
  assert.deepEqual(parseTuple(plugin.stackBoc), [{ type: 'int', value: 0n }]);

  // As of a past block the state is parsed on the read worker (state-get-method.ts): the same answers.
  for (const seqno of [0, 1]) {
    const past = await chain.runGetMethod(to, 'seqno', [], seqno);
    const state = chain.getAccount(to, seqno);
    assert.equal(past.exitCode, -13, `nonexist / uninit as of ${seqno}`);
    assert.equal(past.lastTxLt, state.lastTxLt);
    assert.ok(past.lastTxHash.equals(state.lastTxHash));
  }
  const pastSeqno = await chain.runGetMethod(from.wallet.address, 'seqno', [], 1);
  assert.equal(pastSeqno.lastTxLt, chain.getAccount(from.wallet.address, 1).lastTxLt);
  assert.ok(pastSeqno.lastTxHash.equals(chain.getAccount(from.wallet.address, 1).lastTxHash));
  assert.notEqual(pastSeqno.lastTxLt, chain.getAccount(from.wallet.address).lastTxLt);
  assert.equal(pastSeqno.block.seqno, 1);
  // the emulator's own BoC, for a relay to pass on, and the cell parsed from it when read
  assert.ok(Cell.fromBase64(pastSeqno.stackBase64!).equals(pastSeqno.stackBoc));
  // a stack the emulator cannot take: refused on an account that runs code, -13 on one that cannot, as at the head
  let deep = beginCell().endCell();
  for (let i = 0; i < 310; i++) deep = beginCell().storeRef(deep).endCell();
  const tooDeep = [{ type: 'cell' as const, cell: deep }];
  await assert.rejects(chain.runGetMethod(from.wallet.address, 'seqno', tooDeep, 1), BadStack);
  await assert.rejects(chain.runGetMethod(from.wallet.address, 'seqno', tooDeep), BadStack);
  assert.equal((await chain.runGetMethod(to, 'seqno', tooDeep, 1)).exitCode, -13);

  // not active: -13, no execution
  const none = await chain.runGetMethod(testWallet(31).wallet.address, 'seqno', []);
  assert.equal(none.exitCode, -13);
  assert.equal((await chain.runGetMethod(to, 'seqno', [])).exitCode, -13, 'uninit');
  // no such method: exit code 11, a result
  assert.equal((await chain.runGetMethod(from.wallet.address, 'no_such_method', [])).exitCode, 11);
  // an endless get-method stops at the gas limit (exit code -14)
  const endless = await chain.runGetMethod(looping.address, 'forever', []);
  assert.equal(endless.exitCode, -14);
  assert.ok(endless.gasUsed >= 1_000_000n);
  assert.ok(endless.lastTxHash.equals(chain.getAccount(looping.address).lastTxHash));
});

test('emulateExternal gives the fees of a transaction without changing anything', async (t) => {
  const { chain } = await openChain(t);
  const from = await testFaucet();
  const to = testWallet(32).wallet.address;
  const before = chain.getAccount(from.wallet.address);
  const boc = v4Send(from, 0, [internal({ to, value: toNano('1'), bounce: false })]);

  const emulated = await chain.emulateExternal(boc);
  assert.equal(emulated.accepted, true);
  assert.ok(emulated.fees.gasFee > 0n && emulated.fees.inFwdFee > 0n && emulated.fees.fwdFee > 0n);
  assert.equal(emulated.tx!.outMessagesCount, 1);
  // nothing changed: the same message is still accepted for real, with the same fees
  assert.equal(chain.getAccount(from.wallet.address).balance, before.balance);
  await chain.sendExternal(boc);
  await chain.produceBlock();
  const [real] = chain.getTransactions(from.wallet.address, { limit: 1 });
  assert.equal(real.tx.totalFees.coins, emulated.fees.total);

  // a bad signature: refused, unless signatures are ignored (how estimateFee works for unsigned drafts)
  const unsigned = v4Send({ wallet: from.wallet, keys: keyPairFromSeed(Buffer.alloc(32, 5)) }, 1, [internal({ to, value: 1n })]);
  const refused = await chain.emulateExternal(unsigned);
  assert.equal(refused.accepted, false);
  assert.equal(refused.exitCode, 35);
  assert.equal((await chain.emulateExternal(unsigned, { ignoreChksig: true })).accepted, true);
  // the {address, body} form, as estimateFee sends it
  const bodyCell = loadMessage(Cell.fromBoc(unsigned)[0].beginParse()).body;
  assert.equal((await chain.emulateExternal({ address: from.wallet.address, body: bodyCell }, { ignoreChksig: true })).accepted, true);
  await assert.rejects(chain.emulateExternal({ address: from.wallet.address, body: bodyCell, initCode: Cell.EMPTY }), /both or neither/);
});

test('onBlock hands over everything sealed: blocks, transactions, messages, changed accounts', async (t) => {
  const { chain } = await openChain(t);
  const from = await testFaucet();
  const to = testWallet(33).wallet.address;
  const got: SealedBlock[] = [];
  const off = chain.onBlock((b) => got.push(b));
  const sent = await chain.sendExternal(v4Send(from, 0, [internal({ to, value: toNano('1'), bounce: false })]));
  const mc = await chain.produceBlock();
  off();
  await chain.produceBlock();
  assert.equal(got.length, 1, 'unsubscribed listeners are not called');
  const b = got[0];
  assert.ok(b.masterchain.id.rootHash.equals(mc.id.rootHash));
  assert.equal(b.shard.id.seqno, mc.id.seqno);
  assert.equal(b.transactions.length, 2);
  assert.ok(b.transactions[0].account.equals(from.wallet.address));
  assert.ok(b.transactions[1].account.equals(to));
  assert.ok(b.transactions.every((x) => x.mcSeqno === mc.id.seqno && x.block.workchain === 0 && x.tx.lt === x.lt));
  assert.deepEqual(
    b.messages.map((m) => m.kind),
    ['ext_in', 'int'],
  );
  assert.ok(b.messages[0].hash.equals(sent.hash) && b.messages[0].hashNorm!.equals(sent.hashNorm));
  assert.ok(b.messages[1].outTxHash!.equals(b.transactions[0].hash));
  assert.ok(b.messages[1].destination!.equals(to));
  assert.deepEqual(
    b.accountStates.map((a) => a.address.toRawString()).sort(),
    [from.wallet.address.toRawString(), to.toRawString()].sort(),
  );
  const toState = b.accountStates.find((a) => a.address.equals(to))!;
  assert.ok(toState.shardAccount.hash().equals(chain.getAccount(to).shardAccount.hash()));
  assert.deepEqual(chain.libraries([Buffer.alloc(32)]), []);
});

/** PREVMCBLOCKS as a get-method sees it: how many ids, and the newest one's seqno and root hash. */
const PREV_MC_BLOCKS_GETTER = `
tuple prev_mc_blocks() asm "PREVMCBLOCKS";
int tuple_length(tuple t) asm "TLEN";
tuple tuple_item(tuple t, int i) asm "INDEXVAR";
int int_item(tuple t, int i) asm "INDEXVAR";
() recv_internal() impure { }
(int, int, int) newest_prev_mc() method_id {
  tuple blocks = prev_mc_blocks();
  tuple newest = blocks.tuple_item(0);
  return (blocks.tuple_length(), newest.int_item(2), newest.int_item(3));
}
`;

test('a get-method pinned to a past masterchain block sees PREVMCBLOCKS as of that block (built once per block, kept when the head moves on)', async (t) => {
  const { chain } = await openChain(t);
  const from = await testFaucet();
  const getter = deployMessage(await compileFuncContract('prev-mc-blocks', PREV_MC_BLOCKS_GETTER), toNano('1'));
  await chain.sendExternal(v4Send(from, 0, [getter.message]));
  await chain.produceBlock();
  const newest = async (seqno?: number) => parseTuple((await chain.runGetMethod(getter.address, 'newest_prev_mc', [], seqno)).stackBoc);
  const expected = (seqno: number) => {
    const id = chain.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno })!.id;
    return [
      { type: 'int', value: BigInt(Math.min(16, seqno + 1)) },
      { type: 'int', value: BigInt(seqno) },
      { type: 'int', value: BigInt(`0x${id.rootHash.toString('hex')}`) },
    ];
  };
  const deployedAt = chain.masterchainInfo().last.id.seqno;
  assert.deepEqual(await newest(), expected(deployedAt), 'at the head');
  for (let i = 0; i < 18; i++) await chain.produceBlock();
  const head = chain.masterchainInfo().last.id.seqno;
  // The head's value, kept when it moved on (deployedAt was the head and built it); others built on demand,
  // and asked twice (the second answer from what the first built).
  for (const seqno of [deployedAt, deployedAt + 1, head - 1, deployedAt + 1, head - 1, head]) {
    assert.deepEqual(await newest(seqno), expected(seqno), `as of ${seqno}`);
  }
});
