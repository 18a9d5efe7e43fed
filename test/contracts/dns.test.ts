/**
 * tongate's DNS root collection and domain items (TEP-81, items are TEP-62) on a real local chain, driven by
 * wallets v4 through TonClient: domains deployed by the root's owner, records set and deleted by the domain's
 * owner, dnsresolve step by step, through tonweb's resolver (a subdomain through a next resolver) and v2's
 * dnsResolve, get_domain,
 * transfer of a domain.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano, TupleBuilder, type Cell } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent } from '../../src/contracts/content.js';
import {
  adnlRecord,
  changeDnsRecordBody,
  deployDomainBody,
  DNS_CATEGORY,
  dnsItemAddress,
  dnsRootInit,
  domainIndex,
  nextResolverRecord,
  storageRecord,
  walletRecord,
} from '../../src/contracts/dns/dns.js';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { getJson } from '../support/tongate.js';
import { dnsCode } from './support/code.js';
import { fromTonweb, outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

const TonWeb = ((await import('tonweb')) as any).default;

async function dnsresolve(
  client: TonClient,
  resolver: Address,
  subdomain: string,
  category: bigint,
): Promise<{ bits: number; record: Cell | null }> {
  const args = new TupleBuilder();
  args.writeSlice(beginCell().storeBuffer(Buffer.from(subdomain, 'latin1')).endCell());
  args.writeNumber(category);
  const { stack } = await client.runMethod(resolver, 'dnsresolve', args.build());
  return { bits: stack.readNumber(), record: stack.readCellOpt() };
}

test('dns: domains of a root collection, records, dnsresolve by hand and through tonweb (with a subdomain), transfer', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await dnsCode();
  const [registrar, alice, bob] = [await env.actor(131), await env.actor(132), await env.actor(133)];
  const init = dnsRootInit(code.root, {
    owner: registrar.address,
    content: offchainContent('https://dns.example/root.json'),
    itemCode: code.item,
  });
  const root = contractAddress(0, init);
  const aliceDomain = dnsItemAddress(root, code.item, 'alice');

  await registrar.send(root, toNano('0.3'), deployDomainBody({ domain: 'alice', owner: alice.address, amount: toNano('0.1') }), init);
  const byIndex = new TupleBuilder();
  byIndex.writeNumber(domainIndex('alice'));
  assert.ok((await client.runMethod(root, 'get_nft_address_by_index', byIndex.build())).stack.readAddress().equals(aliceDomain));
  assert.equal((await client.runMethod(aliceDomain, 'get_domain')).stack.readCell().beginParse().loadBuffer(5).toString(), 'alice');
  const { stack } = await client.runMethod(aliceDomain, 'get_nft_data');
  assert.deepEqual([stack.readNumber(), stack.readBigNumber()], [-1, domainIndex('alice')]);
  assert.ok(stack.readAddress().equals(root));
  assert.ok(stack.readAddress().equals(alice.address));
  await alice.send(root, toNano('0.3'), deployDomainBody({ domain: 'mallory', owner: alice.address, amount: toNano('0.1') }));
  assert.equal(outcome((await transactionsOf(client, root, 1))[0]).exitCode, 705, "only the root's owner deploys domains");
  await registrar.send(root, toNano('0.3'), deployDomainBody({ domain: 'bad\0name', owner: alice.address, amount: toNano('0.1') }));
  assert.equal(outcome((await transactionsOf(client, root, 1))[0]).exitCode, 71, 'a zero byte inside a domain is refused');

  // records: wallet, site (ADNL), storage; then the storage record deleted
  const adnl = Buffer.alloc(32, 0xad);
  const bag = Buffer.alloc(32, 0xba);
  await alice.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(alice.address)));
  await alice.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.site, adnlRecord(adnl)));
  await alice.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.storage, storageRecord(bag)));
  await bob.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(bob.address)));
  assert.equal(outcome((await transactionsOf(client, aliceDomain, 1))[0]).exitCode, 705, "only the domain's owner changes records");

  // by hand: the root resolves "\0alice" to the item, the item resolves "\0" to its records
  const step1 = await dnsresolve(client, root, '\0alice\0', DNS_CATEGORY.wallet);
  assert.equal(step1.bits, 48);
  const next = step1.record!.beginParse();
  assert.equal(next.loadUint(16), 0xba93, 'dns_next_resolver');
  assert.ok(next.loadAddress().equals(aliceDomain));
  const step2 = await dnsresolve(client, aliceDomain, '\0', DNS_CATEGORY.wallet);
  assert.equal(step2.bits, 8);
  assert.equal(step2.record!.hash().toString('hex'), walletRecord(alice.address).hash().toString('hex'));
  const all = await dnsresolve(client, aliceDomain, '\0', 0n);
  assert.ok(all.record, 'category 0: the dictionary of every record');
  assert.equal((await dnsresolve(client, aliceDomain, '\0', DNS_CATEGORY.nextResolver)).record, null, 'unset: null');

  // tonweb resolves through the root, as it would through .ton's
  const tonwebRoot = new TonWeb.dns.DnsCollection(env.tonweb.provider, { address: root.toString() });
  assert.ok(fromTonweb(await tonwebRoot.resolve('alice', 'wallet'))!.equals(alice.address));
  assert.equal(Buffer.from((await tonwebRoot.resolve('alice', 'site')).bytes).toString('hex'), adnl.toString('hex'));
  assert.equal(Buffer.from((await tonwebRoot.resolve('alice', 'storage')).bytes).toString('hex'), bag.toString('hex'));
  // A domain never deployed: the root still names its item's address (it cannot see other accounts), whose
  // get-method then fails on an empty account; tonweb reports that as an error, as it does on .ton.
  assert.ok(fromTonweb(await tonwebRoot.resolve('nobody', 'dns_next_resolver', true))!.equals(dnsItemAddress(root, code.item, 'nobody')));
  await assert.rejects(tonwebRoot.resolve('nobody', 'wallet'), /parse response error/);
  const tonwebItem = new TonWeb.dns.DnsItem(env.tonweb.provider, { address: aliceDomain.toString() });
  assert.equal(await tonwebItem.getDomain(), 'alice');

  // tongate's own v2 dnsResolve follows the same steps from the root
  const v2 = await getJson(`${env.url}/api/v2/dnsResolve?address=${root.toString()}&name=alice&category=wallet`);
  assert.equal(v2.status, 200);
  assert.equal(v2.body.result.entries.length, 1);
  assert.ok(Address.parse(v2.body.result.entries[0].entry.smc_address.account_address).equals(alice.address));
  const v2all = await getJson(`${env.url}/api/v2/dnsResolve?address=${root.toString()}&name=alice`);
  assert.deepEqual(v2all.body.result.entries.map((e: { entry: { '@type': string } }) => e.entry['@type']).sort(), [
    'dns.entryDataAdnlAddress',
    'dns.entryDataSmcAddress',
    'dns.entryDataStorageAddress',
  ]);

  await alice.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.storage, null));
  assert.equal(await tonwebRoot.resolve('alice', 'storage'), null, 'deleted');

  // a subdomain: alice points her next resolver at a second root, where bob owns "sub"
  const zoneInit = dnsRootInit(code.root, {
    owner: registrar.address,
    content: offchainContent('https://dns.example/zone.json'),
    itemCode: code.item,
  });
  const zone = contractAddress(0, zoneInit);
  await registrar.send(zone, toNano('0.3'), deployDomainBody({ domain: 'sub', owner: bob.address, amount: toNano('0.1') }), zoneInit);
  await bob.send(
    dnsItemAddress(zone, code.item, 'sub'),
    toNano('0.05'),
    changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(bob.address)),
  );
  await alice.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.nextResolver, nextResolverRecord(zone)));
  assert.deepEqual((await dnsresolve(client, aliceDomain, '\0sub\0', DNS_CATEGORY.wallet)).bits, 8, 'the item hands "sub" on');
  assert.ok(fromTonweb(await tonwebRoot.resolve('sub.alice', 'wallet'))!.equals(bob.address));

  // a domain is an NFT: alice transfers it to bob, who can then change its records
  await alice.send(aliceDomain, toNano('0.1'), nftTransferBody({ newOwner: bob.address, response: alice.address }));
  await bob.send(aliceDomain, toNano('0.05'), changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(bob.address)));
  assert.ok(fromTonweb(await tonwebRoot.resolve('alice', 'wallet'))!.equals(bob.address));
  const itemData = await tonwebItem.getData();
  assert.ok(fromTonweb(itemData.ownerAddress)!.equals(bob.address));
});
