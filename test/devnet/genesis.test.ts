import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, internal, toNano } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { configFiles } from '../support/config.js';
import { getJson, startTestTongate } from '../support/tongate.js';
import { TEST_MNEMONIC } from '../chain/local/support/local-chain.js';
import { indexedUpTo, timeLock, until } from './support/manual-tongate.js';

test("--genesis: every local network starts with the file's accounts and wallets; v2, v3, get-methods and transfers see them", async (t) => {
  const { file } = configFiles('tongate-genesis-start-');
  const lock = await timeLock(Address.parse(`0:${'11'.repeat(32)}`), 12345);
  const uninit = Address.parse(`-1:${'22'.repeat(32)}`);
  const genesis = file(
    'genesis.yaml',
    [
      'accounts:',
      `  - address: "${lock.address.toString()}"`,
      '    balance: "3000000000"',
      `    code: ${lock.code.toBoc().toString('base64')}`,
      `    data: ${lock.data.toBoc().toString('base64')}`,
      `  - address: "${uninit.toRawString()}"`,
      '    balance: 42',
      '  - wallet: v4r2',
      `    mnemonic: "${TEST_MNEMONIC.join(' ')}"`,
      '    balance: "50000000000"',
      '  - wallet: v5r1',
      `    mnemonic: "${TEST_MNEMONIC.join(' ')}"`,
      '    balance: "7000000000"',
      '    workchain: -1',
      '',
    ].join('\n'),
  );
  const gate = await startTestTongate({ genesis, mining: 'manual' });
  t.after(() => gate.stop());
  const keys = await mnemonicToPrivateKey(TEST_MNEMONIC);
  const v4 = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });

  for (const [network, globalId] of [
    ['mainnet', -239],
    ['testnet', -3],
  ] as const) {
    const url = gate.url(network);
    const client = new TonClient({ endpoint: `${url}/api/v2/jsonRPC` });
    assert.equal((await client.getMasterchainInfo()).latestSeqno, 0, `${network}: the accounts are in the zero state`);
    assert.equal(await client.getBalance(lock.address), toNano(3));
    assert.equal((await client.runMethod(lock.address, 'unlock_time')).stack.readNumber(), 12345, `${network}: its code and data run`);
    const state = await client.getContractState(uninit);
    assert.deepEqual([state.state, state.balance], ['uninitialized', 42n]);
    // A v5r1 wallet id holds the network's global id: each network has its own address for the same key.
    const v5 = WalletContractV5R1.create({ workchain: -1, publicKey: keys.publicKey, walletId: { networkGlobalId: globalId } });
    assert.equal(await client.getBalance(v5.address), toNano(7), `${network}: v5r1 on -1`);
    assert.equal(await client.open(v5).getSeqno(), 0);

    // The v4r2 wallet is a real wallet of that mnemonic: it signs and sends.
    const wallet = client.open(v4);
    assert.equal(await wallet.getBalance(), toNano(50));
    await wallet.sendTransfer({
      seqno: 0,
      secretKey: keys.secretKey,
      messages: [internal({ to: lock.address, value: toNano(1), bounce: false })],
    });
    const { seqno } = await gate
      .chain(network)
      .mine()
      .then((b) => b.id);
    assert.equal(await wallet.getSeqno(), 1);

    // v3's index lists zero-state accounts too.
    await indexedUpTo(url, seqno);
    const v3 = await until(
      () => getJson(`${url}/api/v3/accountStates?address=${uninit.toRawString()}&address=${v5.address.toRawString()}`),
      (r) => r.body.accounts?.length === 2,
    );
    assert.deepEqual(v3.body.accounts.map((a: { balance: string }) => a.balance).sort(), ['42', toNano(7).toString()]);
  }
});
