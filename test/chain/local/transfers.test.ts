import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Address,
  beginCell,
  Cell,
  type CommonMessageInfoInternal,
  type Message,
  external,
  internal,
  loadMessage,
  parseTuple,
  storeMessage,
  toNano,
} from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { BadMessage, ExternalMessageRejected, normalizedExternalHash } from '../../../src/chain/local/index.js';
import { openChain, testFaucetKeys, testWallet, v4Transfer } from './support/local-chain.js';

async function faucet() {
  const keys = await testFaucetKeys();
  return { wallet: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }), keys };
}

test('a faucet transfer signed with @ton/ton executes in the next block and moves the balances', async (t) => {
  const { chain } = await openChain(t);
  const from = await faucet();
  assert.ok(chain.faucets()[0].address.equals(from.wallet.address), '@ton/ton derives the same v4r2 faucet address');
  const to = testWallet(1).wallet.address;
  const before = chain.getAccount(from.wallet.address).balance;
  assert.equal(before, toNano(1_000_000));
  assert.equal(chain.getAccount(to).state, 'nonexist');

  const boc = v4Transfer(from, 0, to, toNano('5'));
  const sent = await chain.sendExternal(boc);
  assert.ok(sent.hash.equals(Cell.fromBoc(boc)[0].hash()), 'hash = the message cell hash');
  assert.ok(sent.hashNorm.equals(normalizedExternalHash(loadMessage(Cell.fromBoc(boc)[0].beginParse()))));
  assert.ok(!sent.hashNorm.equals(sent.hash), 'the wallet put its body inline; the normalized form has it as a ref');
  // visible state is the last sealed block: nothing moved yet
  assert.equal(chain.getAccount(from.wallet.address).balance, before);

  const mc = await chain.produceBlock();
  const [walletTx] = chain.getTransactions(from.wallet.address, { limit: 10 });
  assert.equal(walletTx.mcSeqno, mc.id.seqno);
  assert.ok(walletTx.tx.inMessage && walletTx.tx.inMessage.info.type === 'external-in');
  const out = walletTx.tx.outMessages.get(0)!;
  assert.equal(out.info.type, 'internal');
  if (out.info.type !== 'internal') return;
  assert.ok(out.info.value.coins > toNano('4.99') && out.info.value.coins <= toNano('5'));
  assert.equal(out.info.bounce, false);
  // the wallet paid exactly: fees of its transaction + the value + the forwarding fee
  const after = chain.getAccount(from.wallet.address);
  assert.equal(before - after.balance, walletTx.tx.totalFees.coins + out.info.value.coins + out.info.forwardFee);
  assert.equal(after.lastTxLt, walletTx.lt);
  assert.ok(after.lastTxHash.equals(walletTx.hash));

  // the internal message was delivered in the same block
  const [destTx] = chain.getTransactions(to, { limit: 10 });
  assert.equal(destTx.mcSeqno, mc.id.seqno);
  assert.ok(destTx.lt > walletTx.lt);
  const dest = chain.getAccount(to);
  assert.equal(dest.state, 'uninit');
  const credit = destTx.tx.description.type === 'generic' ? destTx.tx.description.creditPhase?.credit.coins : undefined;
  assert.equal(dest.balance, credit);
  assert.ok(dest.balance > toNano('4.99') && dest.balance <= toNano('5'));

  // seqno went up, as the wallet's own get-method says
  const seqno = await chain.runGetMethod(from.wallet.address, 'seqno', []);
  assert.equal(seqno.exitCode, 0);
  assert.deepEqual(parseTuple(seqno.stackBoc), [{ type: 'int', value: 1n }]);
  assert.equal(chain.getTransaction(walletTx.hash)!.lt, walletTx.lt);
  assert.deepEqual(
    chain.getTransactionsByMessage(sent.hash).map((x) => x.hash.toString('hex')),
    [walletTx.hash.toString('hex')],
  );
  // the internal message: received by the destination's transaction, sent by the wallet's
  const internalHash = destTx.tx.inMessage!;
  const internalCellHash = beginCell().store(storeMessage(internalHash)).endCell().hash();
  assert.deepEqual(
    chain.getTransactionsByMessage(internalCellHash).map((x) => x.hash.toString('hex')),
    [destTx.hash.toString('hex'), walletTx.hash.toString('hex')],
  );
  assert.equal(chain.getMessage(sent.hashNorm)!.kind, 'ext_in', 'messages are found by hash_norm too');
  assert.equal(chain.getMessage(internalCellHash)!.destination!.equals(to), true);
});

test('externals the contract would not accept are refused at once, and leave no trace', async (t) => {
  const { chain } = await openChain(t);
  const from = await faucet();
  const to = testWallet(2).wallet.address;
  const first = v4Transfer(from, 0, to);
  await chain.sendExternal(first);

  // replay of the same message: the wallet's seqno is now 1
  await assert.rejects(
    chain.sendExternal(first),
    (err: unknown) => err instanceof ExternalMessageRejected && /exit code 33/.test(err.message),
  );
  // right seqno, wrong key
  const impostor = { wallet: from.wallet, keys: keyPairFromSeed(Buffer.alloc(32, 77)) };
  await assert.rejects(
    chain.sendExternal(v4Transfer(impostor, 1, to)),
    (err: unknown) => err instanceof ExternalMessageRejected && /exit code 35/.test(err.message),
  );
  // a wallet that does not exist cannot pay for anything
  const ghost = testWallet(3);
  await assert.rejects(chain.sendExternal(v4Transfer(ghost, 0, to)), ExternalMessageRejected);

  // not messages at all, or not external-in
  await assert.rejects(chain.sendExternal(Buffer.from('not a boc')), BadMessage);
  await assert.rejects(chain.sendExternal(Buffer.alloc(0)), BadMessage);
  const relaxed = internal({ to, value: 1n });
  const internalMessage: Message = { ...relaxed, info: { ...(relaxed.info as CommonMessageInfoInternal), src: from.wallet.address } };
  const internalBoc = beginCell().store(storeMessage(internalMessage)).endCell().toBoc();
  await assert.rejects(chain.sendExternal(internalBoc), /expected an external-in message, got internal/);
  // Workchains 0 and -1 hold accounts; any other is refused before the emulator runs.
  const toOtherWorkchain = beginCell()
    .store(storeMessage(external({ to: new Address(7, to.hash), body: Cell.EMPTY })))
    .endCell()
    .toBoc();
  await assert.rejects(chain.sendExternal(toOtherWorkchain), /workchain 7/);

  const mc = await chain.produceBlock();
  assert.equal(chain.getBlock(mc.shardBlocks![0])!.txCount, 2, 'only the accepted transfer (and its delivery) executed');
  assert.equal(chain.getTransactions(from.wallet.address, { limit: 10 }).length, 1);
  // the next seqno goes through
  await chain.sendExternal(v4Transfer(from, 1, to));
  assert.equal(chain.stats().openTransactions, 1);
});

test('getTransactions pages newest first from (lt, hash) inclusive down to to_lt exclusive', async (t) => {
  const { chain } = await openChain(t);
  const from = await faucet();
  for (let i = 0; i < 5; i++) {
    await chain.sendExternal(v4Transfer(from, i, testWallet(10 + i).wallet.address, toNano('0.1')));
    await chain.produceBlock();
  }
  const all = chain.getTransactions(from.wallet.address, { limit: 100 });
  assert.equal(all.length, 5);
  for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].lt > all[i].lt, 'newest first');
  const page = chain.getTransactions(from.wallet.address, { lt: all[1].lt, hash: all[1].hash, limit: 2 });
  assert.deepEqual(
    page.map((x) => x.lt),
    [all[1].lt, all[2].lt],
  );
  const bounded = chain.getTransactions(from.wallet.address, { lt: all[0].lt, hash: all[0].hash, toLt: all[3].lt, limit: 100 });
  assert.deepEqual(
    bounded.map((x) => x.lt),
    [all[0].lt, all[1].lt, all[2].lt],
  );
  assert.throws(() => chain.getTransactions(from.wallet.address, { lt: all[1].lt, hash: all[2].hash, limit: 1 }), /not found/);
  assert.throws(() => chain.getTransactions(from.wallet.address, { limit: 0 }), /limit/);

  // a block's transactions in (account, lt) order, paged
  const mc1 = chain.getBlock({ workchain: 0, shard: 0x8000000000000000n, seqno: 1 })!;
  const firstPage = chain.blockTransactions(mc1.id, { count: 1 });
  assert.equal(firstPage.transactions.length, 1);
  assert.equal(firstPage.incomplete, true);
  const last = firstPage.transactions[0];
  const rest = chain.blockTransactions(mc1.id, { count: 10, afterAccount: last.account.hash, afterLt: last.lt });
  assert.equal(rest.incomplete, false);
  assert.equal(rest.transactions.length, 1);
  assert.ok(Buffer.compare(rest.transactions[0].account.hash, last.account.hash) > 0, 'ordered by account');
});
