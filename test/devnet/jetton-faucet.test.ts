/**
 * The jetton faucet: a master deployed with the faucet wallet as admin (HTTP, the tongate/devnet client, the
 * CLI), jettons minted from it in manual and in auto mining, each answer given once the outcome is in a block;
 * v2's getTokenData and the standard getters read what was made; refusals name the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonWalletAddress } from '../../src/contracts/jetton/jetton.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { runTongate } from '../support/process.js';
import { getJson, postJson } from '../support/tongate.js';
import { ADMIN_TOKEN, startManualTongate } from './support/manual-tongate.js';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

test('deploy-jetton and fund-jetton: a master the faucet administers, jettons minted in manual and auto mining', async (t) => {
  const { devnet, client, url, gate } = await startManualTongate(t);
  const faucet = gate
    .chain('testnet')
    .faucets()
    .find((f) => f.kind === 'v4r2')!.address;
  const alice = testWallet(151).wallet.address;

  const metadata = { name: 'Devnet Dollar', symbol: 'DUSD', decimals: 6, description: 'for tests' };
  const deployed = await devnet.deployJetton(metadata);
  assert.equal(deployed.alreadyDeployed, false);
  assert.ok(deployed.admin.equals(faucet));
  const expected = jettonMasterInit({
    admin: faucet,
    content: onchainContent({ decimals: '6', name: 'Devnet Dollar', symbol: 'DUSD', description: 'for tests' }),
  });
  assert.equal(deployed.master.toRawString(), contractAddress(0, expected).toRawString(), 'the master of that metadata');
  const { stack } = await client.runMethod(deployed.master, 'get_jetton_data');
  assert.equal(stack.readBigNumber(), 0n);
  stack.readNumber();
  assert.ok(stack.readAddress().equals(faucet), 'admin: the faucet wallet');
  const v2 = await getJson(`${url}/api/v2/getTokenData?address=${deployed.master.toString()}`);
  assert.equal(v2.status, 200);
  assert.equal(v2.body.result.contract_type, 'jetton_master');
  assert.deepEqual(v2.body.result.jetton_content, {
    type: 'onchain',
    data: { name: 'Devnet Dollar', symbol: 'DUSD', decimals: '6', description: 'for tests' },
  });
  const again = await devnet.deployJetton(metadata);
  assert.deepEqual([again.alreadyDeployed, again.master.toRawString(), again.hash], [true, deployed.master.toRawString(), null]);

  // manual mining: the answer comes with the tokens in the owner's wallet, sealed
  const funded = await devnet.fundJetton(deployed.master, alice, 5_000_000n);
  const wallet = jettonWalletAddress(alice, deployed.master);
  assert.ok(funded.wallet.equals(wallet));
  assert.equal(funded.balance, 5_000_000n);
  const [tx] = await client.getTransactions(wallet, { limit: 1 });
  assert.equal(tx.hash().toString('base64'), funded.hash);
  assert.equal((await client.runMethod(wallet, 'get_wallet_data')).stack.readBigNumber(), 5_000_000n);

  // auto mining: the mint's hops may land in later blocks; the answer waits for them
  await devnet.setMining('auto', 20);
  const more = await devnet.fundJetton(deployed.master.toString(), alice.toString(), 7n);
  assert.equal(more.balance, 5_000_007n);
  await devnet.setMining('manual');
  assert.equal((await client.runMethod(deployed.master, 'get_jetton_data')).stack.readBigNumber(), 5_000_007n, 'total supply');
  assert.equal((await client.runMethod(wallet, 'get_wallet_data')).stack.readBigNumber(), 5_000_007n);

  // refusals
  const otherAdmin = jettonMasterInit({ admin: alice, content: onchainContent({ name: "not the faucet's" }) });
  const foreign = contractAddress(0, otherAdmin);
  await devnet.setAccount(foreign, { balance: toNano(1), code: otherAdmin.code, data: otherAdmin.data });
  const nowhere = `0:${'77'.repeat(32)}`;
  const cases: Array<[string, unknown, RegExp]> = [
    [
      '/devnet/fund-jetton',
      { master: nowhere, to: alice.toRawString(), amount: '1' },
      /^master: 0:7{64} is not a jetton master \(get_jetton_data: exit code -?\d+\)$/,
    ],
    [
      '/devnet/fund-jetton',
      { master: foreign.toRawString(), to: alice.toRawString(), amount: '1' },
      new RegExp(`^master: its admin is ${alice.toRawString()}, not the faucet wallet ${faucet.toRawString()}`),
    ],
    [
      '/devnet/fund-jetton',
      { master: deployed.master.toRawString(), to: `-1:${'11'.repeat(32)}`, amount: '1' },
      /^to: jetton wallets live on the basechain/,
    ],
    [
      '/devnet/fund-jetton',
      { master: deployed.master.toRawString(), to: alice.toRawString(), amount: '0' },
      /^amount: must be between 1 and/,
    ],
    [
      '/devnet/fund-jetton',
      { master: deployed.master.toRawString(), to: alice.toRawString(), amount: '1.5' },
      /^amount: expected jetton units as a decimal string/,
    ],
    [
      '/devnet/fund-jetton',
      { master: deployed.master.toRawString(), to: alice.toRawString(), amount: (2n ** 120n).toString() },
      /^amount: must be between 1 and 1329227995784915872903807060280344575/,
    ],
    ['/devnet/fund-jetton', { master: 'nope', to: alice.toRawString(), amount: '1' }, /^master: not a TON address/],
    ['/devnet/fund-jetton', { master: deployed.master.toRawString(), amount: '1' }, /^to: missing/],
    [
      '/devnet/fund-jetton',
      { master: deployed.master.toRawString(), to: alice.toRawString(), amount: '1', memo: 'x' },
      /^memo: unknown field/,
    ],
    ['/devnet/deploy-jetton', {}, /^name: give a name and\/or a symbol \(or a uri\)$/],
    [
      '/devnet/deploy-jetton',
      { uri: 'https://x.example/j.json', name: 'X' },
      /^uri: offchain metadata holds everything; give name in the document/,
    ],
    ['/devnet/deploy-jetton', { name: 'X', decimals: 300 }, /^decimals: expected an integer from 0 to 255/],
    ['/devnet/deploy-jetton', { name: '' }, /^name: expected a non-empty string$/],
    ['/devnet/deploy-jetton', { symbol: 'S'.repeat(33) }, /^symbol: at most 32 characters, got 33$/],
  ];
  for (const [path, body, message] of cases) {
    const r = await postJson(`${url}${path}`, body, auth);
    assert.equal(r.status, 422, `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.ok, false);
    assert.match(r.body.error, message, `${path} ${JSON.stringify(body)}`);
  }
  assert.equal((await client.runMethod(foreign, 'get_jetton_data')).stack.readBigNumber(), 0n, 'nothing was minted anywhere');

  // The owner's jetton wallet refuses (code that throws 50, put there by state surgery): the mint bounces back to
  // the master, which lowers its supply again; the answer says so.
  const bob = testWallet(153).wallet.address;
  await devnet.setAccount(jettonWalletAddress(bob, deployed.master), {
    balance: toNano(1),
    code: beginCell().storeUint(0xf232, 16).endCell(),
    data: beginCell().endCell(),
  });
  const bounced = await postJson(
    `${url}/devnet/fund-jetton`,
    { master: deployed.master.toRawString(), to: bob.toRawString(), amount: '9' },
    auth,
  );
  assert.equal(bounced.status, 422);
  assert.match(bounced.body.error, /^the jetton wallet 0:[0-9a-f]{64} refused the mint \(exit code 50\)/);
  await devnet.mine();
  assert.equal((await client.runMethod(deployed.master, 'get_jetton_data')).stack.readBigNumber(), 5_000_007n, 'the supply given back');
});

test('tongate deploy-jetton and tongate fund-jetton, through a running tongate', async (t) => {
  const { gate, client } = await startManualTongate(t);
  const env = { TONGATE_NETWORK: `mainnet=${gate.url('mainnet')},testnet=${gate.url('testnet')}`, TONGATE_ADMIN_TOKEN: ADMIN_TOKEN };
  const deploy = await runTongate(['deploy-jetton', '--network', 'testnet', '--uri', 'https://jetton.example/cli.json'], env);
  assert.equal(deploy.code, 0, deploy.stderr);
  const match = /^jetton master (0:[0-9a-f]{64}) on testnet \(deployed in block \d+\), admin: the faucet 0:[0-9a-f]{64}$/m.exec(
    deploy.stdout,
  );
  assert.ok(match, deploy.stdout);
  const master = Address.parse(match[1]);
  const owner = testWallet(152).wallet.address;
  const fund = await runTongate(['fund-jetton', master.toRawString(), owner.toString(), '1000000000', '--network', 'testnet'], env);
  assert.equal(fund.code, 0, fund.stderr);
  assert.match(
    fund.stdout,
    new RegExp(
      `^minted 1000000000 to .* on testnet: jetton wallet ${jettonWalletAddress(owner, master).toRawString()} holds 1000000000 `,
      'm',
    ),
  );
  assert.equal((await client.runMethod(jettonWalletAddress(owner, master), 'get_wallet_data')).stack.readBigNumber(), 1_000_000_000n);

  const bad = await runTongate(['deploy-jetton', '--network', 'testnet', '--name', 'X', '--decimals', 'nine'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--decimals: expected an integer from 0 to 255, got nine/);
  const refused = await runTongate(['fund-jetton', `0:${'77'.repeat(32)}`, owner.toString(), '5', '--network', 'testnet'], env);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /fund-jetton failed \(422\): master: 0:7{64} is not a jetton master/);
});
