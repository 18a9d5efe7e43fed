/**
 * tongate's jetton master and wallet (TEP-74, TEP-89) on a real local chain, driven by wallets v4 through
 * TonClient: deploy + mint, transfer with notification and excesses, burn, a transfer the sender's wallet refuses,
 * transfers and mints bounced by a receiving wallet that fails (balances and supply restored), discovery, admin
 * operations; tonweb's JettonMinter and JettonWallet, and v2's getTokenData, read the same values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano, TupleBuilder, type Cell } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent, onchainContent } from '../../src/contracts/content.js';
import { jettonWalletCode } from '../../src/contracts/jetton/code.js';
import {
  changeAdminBody,
  changeContentBody,
  JETTON_OP,
  jettonBurnBody,
  jettonMasterInit,
  jettonTransferBody,
  jettonWalletAddress,
  mintBody,
  provideWalletAddressBody,
} from '../../src/contracts/jetton/jetton.js';
import { getJson } from '../support/tongate.js';
import {
  fromTonweb,
  inboundOp,
  outcome,
  REFUSING_CODE,
  REFUSING_EXIT_CODE,
  startContractsChain,
  transactionsOf,
} from './support/contracts-chain.js';

const TonWeb = ((await import('tonweb')) as any).default;

async function walletData(client: TonClient, wallet: Address) {
  const { stack } = await client.runMethod(wallet, 'get_wallet_data');
  return { balance: stack.readBigNumber(), owner: stack.readAddress(), master: stack.readAddress(), code: stack.readCell() };
}

async function jettonData(client: TonClient, master: Address) {
  const { stack } = await client.runMethod(master, 'get_jetton_data');
  return {
    totalSupply: stack.readBigNumber(),
    mintable: stack.readNumber(),
    admin: stack.readAddressOpt(),
    content: stack.readCell(),
    walletCode: stack.readCell(),
  };
}

const balanceOf = async (client: TonClient, wallet: Address) => (await walletData(client, wallet)).balance;
const comment = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

test('jetton: deploy with a mint, transfer with notification and excesses, burn; getters, tonweb and TEP-89 agree', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const [admin, alice, bob] = [await env.actor(101), await env.actor(102), await env.actor(103)];
  const content = onchainContent({ name: 'Tongate Test Jetton', symbol: 'TTJ', decimals: '9' });
  const init = jettonMasterInit({ admin: admin.address, content });
  const master = contractAddress(0, init);
  const aliceWallet = jettonWalletAddress(alice.address, master);
  const bobWallet = jettonWalletAddress(bob.address, master);

  // The master is deployed by the message that mints (StateInit + mint body).
  await admin.send(
    master,
    toNano('0.2'),
    mintBody({ to: alice.address, amount: 1000n, tonAmount: toNano('0.05'), response: admin.address, queryId: 7n }),
    init,
  );
  let data = await jettonData(client, master);
  assert.equal(data.totalSupply, 1000n);
  assert.equal(data.mintable, -1);
  assert.ok(data.admin?.equals(admin.address));
  assert.equal(data.content.hash().toString('hex'), content.hash().toString('hex'));
  assert.equal(data.walletCode.hash().toString('hex'), jettonWalletCode().hash().toString('hex'));
  const owner = new TupleBuilder();
  owner.writeAddress(alice.address);
  const byMaster = await client.runMethod(master, 'get_wallet_address', owner.build());
  assert.ok(byMaster.stack.readAddress().equals(aliceWallet), 'get_wallet_address is the address the TypeScript side computes');
  const aliceData = await walletData(client, aliceWallet);
  assert.equal(aliceData.balance, 1000n);
  assert.ok(aliceData.owner.equals(alice.address) && aliceData.master.equals(master));
  assert.equal(aliceData.code.hash().toString('hex'), jettonWalletCode().hash().toString('hex'));
  const [mintExcess] = await transactionsOf(client, admin.address, 1);
  assert.equal(inboundOp(mintExcess), JETTON_OP.excesses, 'the new wallet sent what it did not keep to the response address');
  assert.ok(mintExcess.inMessage?.info.src && (mintExcess.inMessage.info.src as Address).equals(aliceWallet));

  // transfer alice -> bob, 300, with 0.01 TON and a comment forwarded, excesses back to alice
  await alice.send(
    aliceWallet,
    toNano('0.1'),
    jettonTransferBody({
      to: bob.address,
      amount: 300n,
      response: alice.address,
      forwardTonAmount: toNano('0.01'),
      forwardPayload: comment('for bob'),
      queryId: 11n,
    }),
  );
  assert.equal(await balanceOf(client, aliceWallet), 700n);
  assert.equal(await balanceOf(client, bobWallet), 300n);
  const [notification] = await transactionsOf(client, bob.address, 1);
  assert.equal(inboundOp(notification), JETTON_OP.transferNotification);
  assert.ok(notification.inMessage?.info.type === 'internal');
  assert.ok(notification.inMessage.info.src.equals(bobWallet), "from bob's jetton wallet");
  assert.equal(notification.inMessage.info.value.coins, toNano('0.01'), 'carries forward_ton_amount');
  const n = notification.inMessage.body.beginParse().skip(32);
  assert.equal(n.loadUintBig(64), 11n, 'query_id');
  assert.equal(n.loadCoins(), 300n, 'amount');
  assert.ok(n.loadAddress().equals(alice.address), 'sender: the previous owner');
  assert.equal(n.loadBit(), true, 'forward_payload in a ref, as sent');
  assert.equal(n.loadRef().beginParse().skip(32).loadStringTail(), 'for bob');
  const [excess] = await transactionsOf(client, alice.address, 1);
  assert.equal(inboundOp(excess), JETTON_OP.excesses);
  assert.ok(excess.inMessage?.info.type === 'internal' && excess.inMessage.info.src.equals(bobWallet));
  assert.equal(excess.inMessage.body.beginParse().skip(32).loadUintBig(64), 11n);

  // burn 100 of bob's: the supply follows, excesses to bob from the master
  await bob.send(bobWallet, toNano('0.1'), jettonBurnBody({ amount: 100n, response: bob.address, queryId: 12n }));
  assert.equal(await balanceOf(client, bobWallet), 200n);
  assert.equal((await jettonData(client, master)).totalSupply, 900n);
  const [burnExcess] = await transactionsOf(client, bob.address, 1);
  assert.equal(inboundOp(burnExcess), JETTON_OP.excesses);
  assert.ok(burnExcess.inMessage?.info.type === 'internal' && burnExcess.inMessage.info.src.equals(master));

  // TEP-89: provide_wallet_address -> take_wallet_address, with and without the owner; a masterchain owner has none
  await alice.send(master, toNano('0.1'), provideWalletAddressBody(bob.address, true, 13n));
  let [take] = await transactionsOf(client, alice.address, 1);
  assert.equal(inboundOp(take), JETTON_OP.takeWalletAddress);
  let reply = take.inMessage!.body.beginParse().skip(32);
  assert.equal(reply.loadUintBig(64), 13n);
  assert.ok(reply.loadAddress().equals(bobWallet));
  assert.ok(reply.loadMaybeRef()!.beginParse().loadAddress().equals(bob.address), 'include_address: the owner in a ref');
  await alice.send(master, toNano('0.1'), provideWalletAddressBody(Address.parse(`-1:${'11'.repeat(32)}`), false, 14n));
  [take] = await transactionsOf(client, alice.address, 1);
  reply = take.inMessage!.body.beginParse().skip(32 + 64);
  assert.equal(reply.loadAddressAny(), null, 'addr_none: this master makes wallets on the basechain only');
  assert.equal(reply.loadBit(), false);

  // tonweb reads the same values
  const minter = new TonWeb.token.jetton.JettonMinter(env.tonweb.provider, { address: master.toString() });
  const tw = await minter.getJettonData();
  assert.equal(tw.totalSupply.toString(), '900');
  assert.equal(tw.isMutable, true);
  assert.ok(fromTonweb(tw.adminAddress)!.equals(admin.address));
  assert.ok(fromTonweb(await minter.getJettonWalletAddress(new TonWeb.utils.Address(bob.address.toRawString())))!.equals(bobWallet));
  const twWallet = await new TonWeb.token.jetton.JettonWallet(env.tonweb.provider, { address: bobWallet.toString() }).getData();
  assert.equal(twWallet.balance.toString(), '200');
  assert.ok(fromTonweb(twWallet.ownerAddress)!.equals(bob.address));
  assert.ok(fromTonweb(twWallet.jettonMinterAddress)!.equals(master));

  // tongate's own v2 getTokenData reads the same
  const v2master = await getJson(`${env.url}/api/v2/getTokenData?address=${master.toString()}`);
  assert.equal(v2master.body.result.contract_type, 'jetton_master');
  assert.equal(v2master.body.result.total_supply, '900');
  assert.deepEqual(v2master.body.result.jetton_content, {
    type: 'onchain',
    data: { name: 'Tongate Test Jetton', symbol: 'TTJ', decimals: '9' },
  });
  const v2wallet = await getJson(`${env.url}/api/v2/getTokenData?address=${bobWallet.toString()}`);
  assert.equal(v2wallet.body.result.contract_type, 'jetton_wallet', 'a wallet its master vouches for');
  assert.equal(v2wallet.body.result.balance, '200');
  assert.ok(Address.parse(v2wallet.body.result.owner).equals(bob.address));

  // admin operations: content, then the admin itself; the old admin can no longer mint
  await admin.send(master, toNano('0.05'), changeContentBody(offchainContent('https://jetton.example/ttj.json')));
  assert.equal((await minter.getJettonData()).jettonContentUri, 'https://jetton.example/ttj.json');
  await admin.send(master, toNano('0.05'), changeAdminBody(alice.address));
  data = await jettonData(client, master);
  assert.ok(data.admin?.equals(alice.address));
  await admin.send(master, toNano('0.2'), mintBody({ to: admin.address, amount: 5n, tonAmount: toNano('0.05') }));
  const [refused] = await transactionsOf(client, master, 1);
  assert.deepEqual(outcome(refused), { aborted: true, exitCode: 73, bounced: false }, 'mint from a former admin: refused');
  assert.equal((await jettonData(client, master)).totalSupply, 900n);
});

test('jetton: a transfer above the balance is refused; transfers and mints bounced by a failing wallet are given back', async (t) => {
  const env = await startContractsChain(t);
  const { client, devnet } = env;
  const [admin, alice] = [await env.actor(111), await env.actor(112)];
  const init = jettonMasterInit({ admin: admin.address, content: offchainContent('https://jetton.example/b.json') });
  const master = contractAddress(0, init);
  const aliceWallet = jettonWalletAddress(alice.address, master);
  await admin.send(master, toNano('0.2'), mintBody({ to: alice.address, amount: 500n, tonAmount: toNano('0.05') }), init);
  assert.equal(await balanceOf(client, aliceWallet), 500n);

  // More than the balance: the sender's own wallet refuses (706), nothing moves, the TON bounce back.
  await alice.send(aliceWallet, toNano('0.1'), jettonTransferBody({ to: admin.address, amount: 501n, response: alice.address }));
  const [tooMuch] = await transactionsOf(client, aliceWallet, 1);
  assert.deepEqual(outcome(tooMuch), { aborted: true, exitCode: 706, bounced: false });
  assert.equal(await balanceOf(client, aliceWallet), 500n);
  const [tonBack] = await transactionsOf(client, alice.address, 1);
  assert.ok(tonBack.inMessage?.info.type === 'internal' && tonBack.inMessage.info.bounced, 'the wallet v4 got its TON back in a bounce');

  // An owner off the basechain: refused (333), as the master refuses to make wallets there.
  await alice.send(aliceWallet, toNano('0.1'), jettonTransferBody({ to: Address.parse(`-1:${'11'.repeat(32)}`), amount: 1n }));
  assert.equal(outcome((await transactionsOf(client, aliceWallet, 1))[0]).exitCode, 333);

  // The receiver's jetton wallet exists and fails (code put there by state surgery): internal_transfer bounces.
  const carol = Address.parse(`0:${'c0'.repeat(32)}`);
  const carolWallet = jettonWalletAddress(carol, master);
  await devnet.setAccount(carolWallet, { balance: toNano(1), code: REFUSING_CODE, data: beginCell().endCell() });
  await alice.send(
    aliceWallet,
    toNano('0.1'),
    jettonTransferBody({ to: carol, amount: 120n, response: alice.address, forwardTonAmount: toNano('0.01') }),
  );
  const [failed] = await transactionsOf(client, carolWallet, 1);
  assert.deepEqual(outcome(failed), { aborted: true, exitCode: REFUSING_EXIT_CODE, bounced: false });
  const [restored, sent] = await transactionsOf(client, aliceWallet, 2);
  assert.equal(outcome(sent).aborted, false, 'the transfer itself went out');
  assert.deepEqual(outcome(restored), { aborted: false, exitCode: 0, bounced: true });
  const bouncedBody = restored.inMessage!.body.beginParse();
  assert.equal(bouncedBody.loadUint(32), 0xffffffff);
  assert.equal(bouncedBody.loadUint(32), JETTON_OP.internalTransfer);
  assert.equal(await balanceOf(client, aliceWallet), 500n, 'the 120 came back');

  // A mint to that wallet bounces to the master: the supply is lowered back.
  await admin.send(master, toNano('0.2'), mintBody({ to: carol, amount: 40n, tonAmount: toNano('0.05') }));
  const [masterBounce] = await transactionsOf(client, master, 1);
  assert.equal(outcome(masterBounce).bounced, true);
  assert.equal((await jettonData(client, master)).totalSupply, 500n, 'the 40 never existed');

  // A burn from someone else's wallet is refused; one above the balance too.
  await admin.send(aliceWallet, toNano('0.1'), jettonBurnBody({ amount: 1n }));
  assert.equal(outcome((await transactionsOf(client, aliceWallet, 1))[0]).exitCode, 705);
  await alice.send(aliceWallet, toNano('0.1'), jettonBurnBody({ amount: 501n }));
  assert.equal(outcome((await transactionsOf(client, aliceWallet, 1))[0]).exitCode, 706);
  assert.equal(await balanceOf(client, aliceWallet), 500n);
});
