import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, toNano } from '@ton/core';
import { GenesisRefused, LocalChain } from '../../../src/chain/local/index.js';
import { openChain, tempDir, TEST_MNEMONIC } from './support/local-chain.js';

const CODE = beginCell().storeUint(0xbeef, 16).endCell();

test('genesis accounts: in block 0 on both workchains, listed for the index; a restart with another file keeps the chain as it was', async (t) => {
  const dataDir = tempDir(t);
  const active = Address.parse(`-1:${'a1'.repeat(32)}`);
  const uninit = Address.parse(`0:${'a2'.repeat(32)}`);
  const { chain, clock } = await openChain(t, {
    dataDir,
    blockIntervalMs: 0,
    genesisAccounts: [
      { address: active, balance: toNano(2), code: CODE },
      { address: uninit, balance: 5n },
    ],
  });
  assert.equal(chain.masterchainInfo().last.id.seqno, 0);
  const a = chain.getAccount(active);
  assert.deepEqual([a.state, a.balance], ['active', toNano(2)]);
  assert.ok(a.code!.equals(CODE));
  assert.equal(a.data!.bits.length, 0, 'an empty data cell when none is given');
  assert.deepEqual([chain.getAccount(uninit).state, chain.getAccount(uninit).balance], ['uninit', 5n]);
  const listed = chain
    .zeroStateAccounts()
    .map((x) => x.address.toRawString())
    .sort();
  assert.equal(listed.length, 2 + 2 + 2, 'two faucets, the config contract and the elector, two genesis accounts');
  assert.ok(listed.includes(active.toRawString()) && listed.includes(uninit.toRawString()));
  await chain.stop();

  const other = Address.parse(`0:${'a3'.repeat(32)}`);
  const reopened = await LocalChain.open({
    network: 'testnet',
    globalId: -3,
    faucetMnemonic: TEST_MNEMONIC,
    clock,
    dataDir,
    blockIntervalMs: 0,
    genesisAccounts: [{ address: other, balance: 1n }],
  });
  t.after(() => reopened.stop());
  assert.equal(reopened.getAccount(other).state, 'nonexist', 'an existing chain keeps its zero state');
  assert.equal(reopened.getAccount(active).state, 'active');
  assert.equal(reopened.zeroStateAccounts().length, 6);
});

test('genesis accounts: an address already in the zero state is refused, naming the entry', async (t) => {
  const faucet = (await openChain(t, { blockIntervalMs: 0 })).chain.faucets()[0].address;
  for (const address of [faucet, Address.parse(`-1:${'5'.repeat(64)}`)]) {
    await assert.rejects(
      LocalChain.open({
        network: 'testnet',
        globalId: -3,
        faucetMnemonic: TEST_MNEMONIC,
        genesisAccounts: [{ label: 'accounts[3] (mine)', address, balance: 1n }],
      }),
      (e: unknown) =>
        e instanceof GenesisRefused && e.message.startsWith('accounts[3] (mine): ') && /already in the zero state/.test(e.message),
    );
  }
});
