import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, internal, toNano, type Transaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import { DevnetClient, DevnetError } from '../../src/devnet/client.js';
import { openChain, tempDir, testFaucet, testWallet, v4Send } from '../chain/local/support/local-chain.js';
import { getJson, startTestTongate } from '../support/tongate.js';
import { ADMIN_TOKEN, startManualTongate, timeLock, WITHDRAW } from './support/manual-tongate.js';

function computeExitCode(tx: Transaction): number | undefined {
  const d = tx.description;
  return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : undefined;
}

async function lastTx(client: TonClient, address: Address): Promise<Transaction> {
  const [tx] = await client.getTransactions(address, { limit: 1 });
  return tx;
}

test('a time lock opens once the chain time is moved, not the wall clock; get-methods and gen_utime follow', async (t) => {
  const { devnet, client } = await startManualTongate(t);
  const owner = testWallet(51);
  await devnet.fund(owner.wallet.address, toNano(10));
  const wallet = client.open(owner.wallet);

  const now = (await devnet.time()).utime;
  const lock = await timeLock(owner.wallet.address, now + 3600);
  await wallet.sendTransfer({
    seqno: 0,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: lock.address, value: toNano(2), init: lock.init, bounce: false })],
  });
  await devnet.mine();
  assert.equal((await client.getContractState(lock.address)).state, 'active');
  assert.equal((await client.runMethod(lock.address, 'chain_now')).stack.readNumber(), now, 'the wall clock stands still in this test');

  // Too early: the lock refuses (exit code 100) and keeps its coins.
  await wallet.sendTransfer({
    seqno: 1,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: lock.address, value: toNano('0.05'), body: WITHDRAW })],
  });
  await devnet.mine();
  assert.equal(computeExitCode(await lastTx(client, lock.address)), 100);
  assert.ok((await client.getBalance(lock.address)) > toNano('1.9'));

  const moved = await devnet.increaseTime(3600);
  assert.equal(moved.utime, now + 3600);
  // Get-methods run as a liteserver runs them: on the last block, with its gen_utime as `now`.
  assert.equal(
    (await client.runMethod(lock.address, 'chain_now')).stack.readNumber(),
    now,
    'get-methods see the new time with the next block',
  );
  await devnet.mine();
  assert.equal((await client.runMethod(lock.address, 'chain_now')).stack.readNumber(), now + 3600);

  await wallet.sendTransfer({
    seqno: 2,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: lock.address, value: toNano('0.05'), body: WITHDRAW })],
  });
  const opened = await devnet.mine();
  assert.equal(opened.genUtime, now + 3600);
  const withdrawal = await lastTx(client, lock.address);
  assert.equal(computeExitCode(withdrawal), 0);
  assert.equal(withdrawal.now, now + 3600, '`now` of the transaction is the moved time');
  assert.equal(await client.getBalance(lock.address), 0n, 'the lock paid everything out');
  await devnet.mine(); // the payout reaches the owner
  assert.ok((await client.getBalance(owner.wallet.address)) > toNano(9.5));

  // Storage fees follow the chain's time: a year without a transaction costs the owner's wallet storage.
  await devnet.increaseTime(365 * 86_400);
  await wallet.sendTransfer({
    seqno: 3,
    secretKey: owner.keys.secretKey,
    messages: [internal({ to: lock.address, value: toNano('0.01') })],
  });
  await devnet.mine();
  const afterAYear = await lastTx(client, owner.wallet.address);
  const d = afterAYear.description;
  assert.ok(d.type === 'generic' && d.storagePhase && d.storagePhase.storageFeesCollected > 0n, 'storage fees were collected for the year');
});

test('time/set refuses a time before the last block; next-block pins the next gen_utime exactly', async (t) => {
  const { devnet, client } = await startManualTongate(t);
  const first = await devnet.mine();
  await assert.rejects(
    devnet.setTime(first.genUtime - 1),
    (e: unknown) => e instanceof DevnetError && e.status === 422 && /before the last block's gen_utime/.test(e.message),
  );
  const set = await devnet.setTime(first.genUtime + 100);
  assert.equal(set.utime, first.genUtime + 100);
  assert.equal((await devnet.mine()).genUtime, first.genUtime + 100);

  const pinned = await devnet.setNextBlockTime(first.genUtime + 5000);
  assert.equal(pinned.nextBlockUtime, first.genUtime + 5000);
  const block = await devnet.mine();
  assert.equal(block.genUtime, first.genUtime + 5000);
  const header = await client.getMasterchainInfo();
  assert.equal(header.latestSeqno, block.seqno);
  assert.equal((await devnet.time()).nextBlockUtime, undefined, 'a pin serves one block');
  assert.equal((await devnet.mine()).genUtime, first.genUtime + 5000, 'time runs on from the pinned one (this wall clock stands still)');
  await assert.rejects(devnet.setNextBlockTime(first.genUtime), (e: unknown) => e instanceof DevnetError && e.status === 422);
});

test('the time offset survives a restart: chain time stays where the controls put it', async (t) => {
  const dataDir = tempDir(t);
  const { chain, clock } = await openChain(t, { dataDir, blockIntervalMs: 0 });
  const start = chain.time().utime;
  await chain.increaseTime(86_400);
  const block = await chain.mine();
  assert.equal(block.genUtime, start + 86_400);
  await chain.stop();

  clock.advance(10_000);
  const { chain: reopened } = await openChain(t, { dataDir, blockIntervalMs: 0, clock });
  assert.equal(reopened.time().utime, start + 86_400 + 10, 'the wall clock moved 10 s; the offset is kept');
  assert.deepEqual(reopened.miningMode(), { mode: 'manual' });
  assert.equal((await reopened.mine()).genUtime, start + 86_410);
});

test('a time control leaves the open block holding transactions at its time; the block after it takes the new one', async (t) => {
  const { chain } = await openChain(t, { blockIntervalMs: 0 });
  const start = chain.time().utime;
  const faucet = await testFaucet();
  // Executed at once into the open block (manual mining: nothing seals it yet).
  await chain.sendExternal(v4Send(faucet, 0, [internal({ to: testWallet(81).wallet.address, value: toNano(1), bounce: false })]));
  const moved = await chain.increaseTime(600);
  assert.equal(moved.utime, start + 600);
  const open = await chain.mine();
  assert.equal(open.genUtime, start, 'the block that already held a transaction keeps its time (the transaction ran at it)');
  const [tx] = chain.getTransactions(faucet.wallet.address, { limit: 1 });
  assert.equal(tx.tx.now, start);
  assert.equal(tx.block.seqno, open.id.seqno);
  assert.equal((await chain.mine()).genUtime, start + 600);
  // A surgery waiting in the open block is not dropped by a time control racing its seal.
  const [set] = await Promise.all([chain.setAccount(testWallet(82).wallet.address, { balance: 5n }), chain.increaseTime(1)]);
  assert.equal(chain.getAccount(testWallet(82).wallet.address, set.seqno).balance, 5n);
});

test("after increaseTime a wallet message signed by the machine's clock is refused (exit code 36); the answer says so and validUntil() gives one that passes", async (t) => {
  // The chain and @ton/ton read the same machine clock here, as for a user (no clock injected).
  const gate = await startTestTongate({ mining: 'manual', adminToken: ADMIN_TOKEN });
  t.after(() => gate.stop());
  const endpoint = `${gate.url('testnet')}/api/v2/jsonRPC`;
  const devnet = new DevnetClient({ endpoint, adminToken: ADMIN_TOKEN });
  const client = new TonClient({ endpoint });
  const owner = testWallet(52);
  await devnet.fund(owner.wallet.address, toNano(10));
  const wallet = client.open(owner.wallet);
  const transfer = (seqno: number, timeout?: number) =>
    wallet.sendTransfer({
      seqno,
      secretKey: owner.keys.secretKey,
      messages: [internal({ to: testWallet(53).wallet.address, value: toNano('0.1'), bounce: false })],
      timeout,
    });

  const before = await getJson(`${gate.url('testnet')}/devnet/time`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.equal(before.body.result.ahead_seconds, 0);
  assert.ok(!('wallet_note' in before.body.result), "no note while the chain keeps the machine's time");
  assert.ok(!('next_block_utime' in before.body.result), 'next_block_utime only while pinned');
  await transfer(0);
  await devnet.mine();

  const moved = await devnet.increaseTime(3600);
  assert.equal(moved.aheadSeconds, 3600);
  assert.match(moved.walletNote ?? '', /3600 s ahead of this machine's.*exit code 36.*validUntil\(\)/);
  await assert.rejects(
    transfer(1),
    (e: any) => /exitcode=36/.test(JSON.stringify(e?.response?.data ?? e?.message)),
    "@ton/ton's default valid_until has expired by the chain's clock",
  );

  const validUntil = await devnet.validUntil();
  assert.ok(validUntil >= moved.utime + 60, `valid_until ${validUntil} is by the chain's clock (${moved.utime})`);
  await transfer(1, validUntil);
  await devnet.mine();
  assert.equal(await wallet.getSeqno(), 2, 'the transfer signed with validUntil() was accepted');

  // A pinned next block later than the chain's time: valid_until counts from it.
  const pinned = await devnet.setNextBlockTime(moved.utime + 5000);
  assert.equal(pinned.nextBlockUtime, moved.utime + 5000);
  assert.ok((await devnet.validUntil(30)) >= moved.utime + 5030);
});
