import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, loadShardAccount, storeShardAccount, toNano } from '@ton/core';
import { DevnetError } from '../../src/devnet/client.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { getJson } from '../support/tongate.js';
import { indexedUpTo, startManualTongate, timeLock, until, WITHDRAW } from './support/manual-tongate.js';

test('setAccount: a balance, then a code and data, without a transaction; v2, v3 and get-methods see each', async (t) => {
  const { devnet, client, url, gate } = await startManualTongate(t);
  const owner = testWallet(61).wallet.address;
  const lock = await timeLock(owner, 0);
  const before = (await client.getMasterchainInfo()).latestSeqno;

  const funded = await devnet.setAccount(lock.address, { balance: toNano(5) });
  assert.deepEqual(
    funded,
    { blockSeqno: before + 1, status: 'uninit', balance: toNano(5) },
    'sealed in a block of its own, in manual mining too',
  );
  assert.equal(await client.getBalance(lock.address), toNano(5));
  assert.equal((await client.getTransactions(lock.address, { limit: 5 })).length, 0, 'no transaction: the state changed by itself');

  const deployed = await devnet.setAccount(lock.address, { code: lock.code, data: lock.data });
  assert.equal(deployed.status, 'active');
  assert.equal(deployed.balance, toNano(5), 'the balance stays when not given');
  assert.equal((await client.runMethod(lock.address, 'unlock_time')).stack.readNumber(), 0);

  const later = await devnet.setAccount(lock.address, { data: beginCell().storeUint(12345, 32).storeAddress(owner).endCell() });
  assert.equal((await client.runMethod(lock.address, 'unlock_time')).stack.readNumber(), 12345, 'new data, same code');
  assert.equal((await client.getContractState(lock.address)).code?.toString('base64'), lock.code.toBoc().toString('base64'));

  // v3 reads the index, which follows the chain: the surgery blocks reach it like any other.
  await indexedUpTo(url, later.blockSeqno);
  // v3 masterchainInfo answers from the chain while the index is still empty (its worker writing block 0): ask again.
  const v3 = await until(
    () => getJson(`${url}/api/v3/accountStates?address=${lock.address.toRawString()}`),
    (r) => r.body.accounts?.length > 0,
  );
  assert.equal(v3.status, 200);
  const [state] = v3.body.accounts;
  assert.equal(state.status, 'active');
  assert.equal(state.balance, toNano(5).toString());
  assert.equal(Cell.fromBase64(state.data_boc).beginParse().loadUint(32), 12345);

  // A whole ShardAccount: this account's own (read from the chain in this process), with another balance.
  const current = loadShardAccount(gate.chain('testnet').getAccount(lock.address).shardAccount.beginParse());
  current.account!.storage.balance = { coins: 777n };
  const whole = await devnet.setAccount(lock.address, { shardAccount: beginCell().store(storeShardAccount(current)).endCell() });
  assert.equal(whole.balance, 777n);
  assert.equal(await client.getBalance(lock.address), 777n);
  await assert.rejects(
    devnet.setAccount(owner, { shardAccount: beginCell().store(storeShardAccount(current)).endCell() }),
    (e: unknown) => e instanceof DevnetError && e.status === 422 && /^shard_account: it is the state of 0:.*, not of 0:/.test(e.message),
  );
});

test('sendInternal: a message from any address, no signature, delivered in a block sealed for it', async (t) => {
  const { devnet, client, url } = await startManualTongate(t);
  const owner = testWallet(71).wallet.address;
  const stranger = Address.parse(`0:${'ab'.repeat(32)}`);
  const lock = await timeLock(owner, 0);
  await devnet.setAccount(lock.address, { balance: toNano(3), code: lock.code, data: lock.data });

  const delivered = await devnet.sendInternal({ from: stranger, to: lock.address, value: toNano('0.1'), body: WITHDRAW });
  assert.ok(delivered.transaction, 'delivered in the block it was recorded in');
  const [tx] = await client.getTransactions(lock.address, { limit: 1 });
  assert.equal(tx.hash().toString('base64'), delivered.transaction!.hash);
  assert.equal(tx.lt, delivered.transaction!.lt);
  assert.ok(
    tx.inMessage?.info.type === 'internal' && tx.inMessage.info.src.equals(stranger),
    'the message came from the stranger, who signed nothing',
  );
  assert.equal(tx.inMessage!.body.hash().toString('hex'), WITHDRAW.hash().toString('hex'));
  assert.equal(await client.getBalance(lock.address), 0n, 'the lock paid out to its owner');
  await devnet.mine();
  assert.ok((await client.getBalance(owner)) > toNano('3'), 'the payout reached the owner in the next block');

  // The same as a whole message BoC; its hash is the one answered.
  const message = beginCell()
    .storeUint(0b0110, 4) // int_msg_info$0, ihr_disabled, bounce, not bounced
    .storeAddress(stranger)
    .storeAddress(owner)
    .storeCoins(toNano('0.5'))
    .storeUint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1)
    .endCell();
  const raw = await devnet.sendInternal({ boc: message });
  assert.equal(raw.hash, message.hash().toString('base64'));
  const v2 = await getJson(`${url}/api/v2/getTransactions?address=${owner.toString()}&limit=1`);
  assert.equal(v2.body.result[0].in_msg.source, stranger.toString({ bounceable: true, testOnly: true }));
  assert.equal(v2.body.result[0].in_msg.value, toNano('0.5').toString());

  // v3 sees the transaction with its in_msg from the stranger.
  await indexedUpTo(url, raw.blockSeqno);
  const v3 = await until(
    () => getJson(`${url}/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(raw.hash)}&direction=in`),
    (r) => r.body.transactions?.length > 0,
  );
  assert.equal(v3.status, 200);
  assert.equal(v3.body.transactions.length, 1);
  assert.equal(v3.body.transactions[0].in_msg.source, stranger.toRawString().toUpperCase());

  await assert.rejects(
    devnet.sendInternal({ from: stranger, to: Address.parse(`7:${'cd'.repeat(32)}`), value: 1n }),
    (e: unknown) => e instanceof DevnetError && e.status === 422 && /workchain 7/.test(e.message),
  );
});
