import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, parseTuple, toNano } from '@ton/core';
import { ChainInputError, FundRefused } from '../../../src/chain/local/index.js';
import { openChain, testFaucet, testWallet } from './support/local-chain.js';

test('fund: concurrent transfers from the v4r2 faucet, each resolved once sealed, seqnos never reused', async (t) => {
  const { chain } = await openChain(t);
  const faucet = chain.faucets().find((f) => f.kind === 'v4r2')!;
  assert.equal(faucet.walletId, 698983191);
  assert.ok(faucet.address.equals((await testFaucet()).wallet.address));
  const targets = [11, 12, 13, 14].map((seed) => testWallet(seed).wallet.address);

  const funds = targets.map((to, i) =>
    chain.fund(to, toNano(i + 1)).then((r) => {
      assert.ok(chain.masterchainInfo().last.id.seqno >= r.seqno, 'resolves only once its block is sealed and visible');
      assert.ok(chain.getTransaction(r.txHash), 'its transaction is readable');
      return r;
    }),
  );
  await chain.produceBlock();
  const results = await Promise.all(funds);

  assert.equal(new Set(results.map((r) => r.txHash.toString('hex'))).size, 4, 'four distinct transactions');
  for (const r of results) assert.equal(r.seqno, 1);
  for (let i = 1; i < results.length; i++) assert.ok(results[i].lt > results[i - 1].lt);
  for (const [i, to] of targets.entries()) {
    const account = chain.getAccount(to);
    // non-bounceable, fees paid by the faucet: an address without a contract gets exactly the amount
    assert.equal(account.state, 'uninit');
    assert.equal(account.balance, toNano(i + 1));
    const tx = chain.getTransaction(results[i].txHash)!;
    assert.ok(tx.account.equals(faucet.address));
    const out = tx.tx.outMessages.get(0)!;
    assert.ok(out.info.type === 'internal' && out.info.bounce === false && out.info.dest.equals(to));
  }
  assert.deepEqual(parseTuple((await chain.runGetMethod(faucet.address, 'seqno', [])).stackBoc), [{ type: 'int', value: 4n }]);
});

test('fund refuses a non-positive amount, more than the faucet holds and a workchain that does not exist', async (t) => {
  const { chain } = await openChain(t);
  const to = testWallet(20).wallet.address;
  await assert.rejects(chain.fund(to, 0n), ChainInputError);
  // Typed client errors (the API answers them with a 4xx), naming what was wrong, before anything runs.
  await assert.rejects(
    chain.fund(to, toNano(2_000_000)),
    (error: unknown) => error instanceof FundRefused && /^amount: the faucet .* holds \d+ nanotons/.test(error.message),
  );
  await assert.rejects(
    chain.fund(to, toNano(1_000_000)),
    (error: unknown) => error instanceof FundRefused && /at most/.test(error.message),
  );
  await assert.rejects(
    chain.fund(new Address(7, to.hash), toNano(1)),
    (error: unknown) => error instanceof FundRefused && /^address: workchain 7 does not exist/.test(error.message),
  );
  // the faucet still works afterwards (nothing was sent, its seqno did not move)
  const [ok] = await Promise.all([chain.fund(to, toNano(1)), chain.produceBlock()]);
  assert.equal(ok.seqno, 1);
  assert.equal(chain.getAccount(to).balance, toNano(1));
});
