import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { internal, toNano } from '@ton/core';
import { ChainDataMismatch, LocalChain } from '../../../src/chain/local/index.js';
import { WHOLE_SHARD } from '../../../src/ton/workchain.js';
import { LOOPER_CODE, TEST_MNEMONIC, deployMessage, openChain, tempDir, testFaucet, testWallet, v4Send } from './support/local-chain.js';

const hex = (b: Buffer) => b.toString('hex');

test('a restart resumes the same chain: last block, balances, history, undelivered messages', async (t) => {
  const dir = tempDir(t);
  const from = await testFaucet();
  const dest = testWallet(5).wallet.address;
  const looper = deployMessage(LOOPER_CODE, toNano('20'));

  const first = await openChain(t, { dataDir: dir, maxBlockTransactions: 5 });
  await first.chain.sendExternal(v4Send(from, 0, [looper.message]));
  await first.chain.produceBlock();
  await Promise.all([first.chain.fund(dest, toNano('3')), first.chain.produceBlock()]);
  const faucetBefore = first.chain.getAccount(from.wallet.address);
  const destBefore = first.chain.getAccount(dest);
  const destTxs = first.chain.getTransactions(dest, { limit: 10 }).map((x) => hex(x.hash));
  const faucetTxs = first.chain.getTransactions(from.wallet.address, { limit: 10 }).map((x) => hex(x.hash));
  assert.equal(destBefore.balance, toNano('3'));
  assert.equal(destTxs.length, 1);
  await first.chain.stop();
  const info = first.chain.masterchainInfo();
  const pending = first.chain.stats().pendingMessages;
  assert.ok(pending > 0, 'the message loop left undelivered messages behind');

  const { chain } = await openChain(t, { dataDir: dir, maxBlockTransactions: 5 });
  const reopened = chain.masterchainInfo();
  assert.equal(reopened.last.id.seqno, info.last.id.seqno);
  assert.ok(reopened.last.id.rootHash.equals(info.last.id.rootHash));
  assert.ok(reopened.last.id.fileHash.equals(info.last.id.fileHash));
  assert.ok(reopened.first.id.rootHash.equals(info.first.id.rootHash));
  assert.ok(reopened.stateRootHash.equals(info.stateRootHash));
  assert.equal(chain.stats().pendingMessages, pending, 'the queue of internal messages is restored');
  assert.equal(chain.getAccount(from.wallet.address).balance, faucetBefore.balance);
  assert.equal(chain.getAccount(dest).balance, destBefore.balance);
  assert.ok(chain.getAccount(dest).lastTxHash.equals(destBefore.lastTxHash));
  assert.deepEqual(
    chain.getTransactions(dest, { limit: 10 }).map((x) => hex(x.hash)),
    destTxs,
  );
  assert.deepEqual(
    chain.getTransactions(from.wallet.address, { limit: 10 }).map((x) => hex(x.hash)),
    faucetTxs,
  );

  // and goes on from there: the next block links to the last one, the loop keeps running, the faucet's seqno is right
  const sent = await chain.sendExternal(v4Send(from, 2, [internal({ to: dest, value: toNano('1'), bounce: false })]));
  const next = await chain.produceBlock();
  assert.equal(next.id.seqno, info.last.id.seqno + 1);
  assert.ok(next.prevBlocks[0].rootHash.equals(info.last.id.rootHash));
  const shard = chain.getBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: next.id.seqno })!;
  // the cap (5) stops internal deliveries; the external is not capped, so 5 or 6 depending on arrival
  assert.ok(shard.txCount === 5 || shard.txCount === 6, `tx count ${shard.txCount}`);
  assert.equal(chain.getTransactionsByMessage(sent.hash)[0].mcSeqno, next.id.seqno);
  assert.ok(chain.getTransactions(looper.address, { limit: 1 })[0].mcSeqno === next.id.seqno, 'the restored loop continues');
  await chain.stop();

  // a data dir serves one network with one faucet key
  await assert.rejects(
    LocalChain.open({ network: 'mainnet', globalId: -239, dataDir: dir, faucetMnemonic: TEST_MNEMONIC }),
    ChainDataMismatch,
  );
  const otherWords = [...TEST_MNEMONIC].reverse();
  await assert.rejects(
    LocalChain.open({ network: 'testnet', globalId: -3, dataDir: dir, faucetMnemonic: otherWords }),
    /another faucet mnemonic/,
  );
});

test('kill -9 loses no block that masterchainInfo had reported', async (t) => {
  const dir = tempDir(t);
  const fixture = fileURLToPath(new URL('./fixtures/produce-until-killed.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  const reported = new Map<number, string>();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [tag, seqno, hash] = line.split(' ');
        if (tag === 'REPORTED') reported.set(Number(seqno), hash);
      }
      // kill it in the middle of its work, well after it got going
      if (reported.size >= 12) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited (${code}): ${stderr}`))));
  });
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

  const { chain } = await openChain(t, { dataDir: dir });
  const maxReported = Math.max(...reported.keys());
  assert.ok(chain.masterchainInfo().last.id.seqno >= maxReported);
  for (const [seqno, hash] of reported) {
    const block = chain.getBlock({ workchain: -1, shard: WHOLE_SHARD, seqno });
    assert.ok(block, `reported block ${seqno} survived`);
    assert.equal(hex(block.id.rootHash), hash, `block ${seqno} is the one that was reported`);
  }
  // each block carried one faucet transfer, delivered in the same block
  const dest = testWallet(42).wallet.address;
  const delivered = chain.getTransactions(dest, { limit: 1000 }).filter((x) => x.mcSeqno <= maxReported);
  assert.equal(delivered.length, maxReported);
  assert.ok(chain.getAccount(dest).balance >= toNano(maxReported) - toNano('0.01') * BigInt(maxReported));
  // and it keeps going
  assert.equal((await chain.produceBlock()).id.seqno, chain.masterchainInfo().last.id.seqno);
});

test('stop() seals the block in progress: an accepted transfer is kept', async (t) => {
  const dir = tempDir(t);
  const from = await testFaucet();
  const first = await openChain(t, { dataDir: dir });
  const sent = await first.chain.sendExternal(
    v4Send(from, 0, [internal({ to: testWallet(6).wallet.address, value: toNano('1'), bounce: false })]),
  );
  assert.equal(first.chain.masterchainInfo().last.id.seqno, 0, 'not sealed yet');
  await first.chain.stop();
  await first.chain.stop(); // idempotent
  await assert.rejects(first.chain.sendExternal(Buffer.alloc(1)), /stopped/);

  const { chain } = await openChain(t, { dataDir: dir });
  assert.equal(chain.masterchainInfo().last.id.seqno, 1);
  const [tx] = chain.getTransactionsByMessage(sent.hash);
  assert.equal(tx.mcSeqno, 1);
  assert.equal(chain.getAccount(testWallet(6).wallet.address).state, 'uninit', 'its internal message was delivered too');
});
