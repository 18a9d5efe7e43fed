/** The token scenario other tests read through the APIs: every value it promises is what the getters answer. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, TupleBuilder } from '@ton/core';
import { DNS_CATEGORY } from '../../src/contracts/dns/dns.js';
import { deployTokenScenario } from './support/scenario.js';
import { startContractsChain } from './support/contracts-chain.js';

test('the token scenario: jetton balances and supply, NFT owners and the DNS wallet record are what it says', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const s = await deployTokenScenario(env);
  assert.equal((await client.runMethod(s.jetton.master, 'get_jetton_data')).stack.readBigNumber(), s.jetton.totalSupply);
  for (const w of s.jetton.wallets) {
    const { stack } = await client.runMethod(w.wallet, 'get_wallet_data');
    assert.equal(stack.readBigNumber(), w.balance);
    assert.ok(stack.readAddress().equals(w.owner));
  }
  assert.equal((await client.getContractState(s.jetton.failingWallet)).state, 'active');
  assert.equal((await client.runMethod(s.nft.collection, 'get_collection_data')).stack.readNumber(), s.nft.items.length);
  for (const item of s.nft.items) {
    const { stack } = await client.runMethod(item.address, 'get_nft_data');
    assert.deepEqual([stack.readNumber(), stack.readNumber()], [-1, item.index]);
    stack.readAddress();
    assert.ok(stack.readAddress().equals(item.owner), `item ${item.index}`);
  }
  const args = new TupleBuilder();
  args.writeSlice(beginCell().storeUint(0, 8).endCell());
  args.writeNumber(DNS_CATEGORY.wallet);
  const { stack } = await client.runMethod(s.dns.item, 'dnsresolve', args.build());
  assert.equal(stack.readNumber(), 8);
  const record = stack.readCell().beginParse();
  assert.equal(record.loadUint(16), 0x9fd3);
  assert.ok(record.loadAddress().equals(s.dns.wallet));
});
