/**
 * The token endpoints on tongate's own TEP-74 / TEP-62 contracts (src/contracts), deployed by the shared
 * scenario (test/contracts/support/scenario.ts: a mint, a transfer with notification, a burn, a transfer that bounced off
 * a wallet that refuses everything; three NFTs, one transferred; a DNS root with a domain) on a real tongate
 * (its index attached with its own threads, SQLite; the DNS root given with --dns-root). The index detects them with no code of its own for them:
 * what the endpoints show is what the contracts' getters answer. Answers are checked against toncenter's v3
 * spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { fromTonweb, startContractsChain } from '../../contracts/support/contracts-chain.js';
import { deployTokenScenario, scenarioDnsRoot } from '../../contracts/support/scenario.js';
import { EmulatorPool } from '../../../src/chain/emulator/emulator-pool.js';
import { INDEX_NICE } from '../../../src/util/thread-priority.js';
import { indexedUpTo } from '../../devnet/support/manual-tongate.js';
import { getJson } from '../../support/tongate.js';
import { ourV3, toncenterV3 } from './support/spec.js';

const TonWeb = ((await import('tonweb')) as any).default;
const raw = (address: Address) => formatRawUpper(address);

test("/jetton/* and /nft/* on tongate's own token contracts, as their getters answer", async (t) => {
  // The scenario's DNS root, named with --dns-root before it exists (a local chain has none by default).
  const env = await startContractsChain(t, { dnsRoot: [`testnet=${(await scenarioDnsRoot()).toString()}`] });
  const s = await deployTokenScenario(env);
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  // Detection's get-methods are index work: they ran on the emulator worker at the index threads' priority.
  assert.ok(
    (EmulatorPool.shared().stats().background[INDEX_NICE]?.[0]?.served ?? 0) > 0,
    "detection's get-methods ran on the index's background worker",
  );
  const ours = ourV3((await getJson(`${env.url}/api/v3/openapi.json`)).body);
  const get = async (path: string) => {
    const reply = await getJson(`${env.url}${path}`);
    assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    const bare = path.split('?')[0];
    assert.deepEqual(toncenterV3().errors(bare, reply.body), [], `${path} against toncenter's spec`);
    assert.deepEqual(ours.errors(bare, reply.body), [], `${path} against our openapi.json`);
    return reply.body;
  };
  const { alice, bob, admin } = s.actors;
  const M = raw(s.jetton.master);

  const masters = await get(`/api/v3/jetton/masters?address=${M}`);
  assert.equal(masters.jetton_masters.length, 1);
  const master = masters.jetton_masters[0];
  assert.equal(master.total_supply, s.jetton.totalSupply.toString());
  assert.equal(master.admin_address, raw(admin.address));
  assert.equal(master.mintable, true);
  assert.deepEqual(master.jetton_content, { name: 'Scenario Jetton', symbol: 'SCN', decimals: '9' });
  assert.ok(masters.address_book[M].interfaces.includes('jetton_master'));
  assert.equal(masters.metadata[M].token_info[0].symbol, 'SCN');

  const wallets = await get(`/api/v3/jetton/wallets?jetton_address=${M}&sort=desc`);
  assert.deepEqual(
    wallets.jetton_wallets.map((w: any) => [w.address, w.owner, w.balance]),
    s.jetton.wallets.map((w) => [raw(w.wallet), raw(w.owner), w.balance.toString()]),
    "by balance; the refusing wallet at carol's address is no jetton wallet",
  );
  assert.ok(wallets.address_book[raw(s.jetton.wallets[0].wallet)].interfaces.includes('jetton_wallet'));

  // alice's two transfers (the one to carol's refusing wallet bounced after alice's wallet sent it: kept, as toncenter does).
  const transfers = await get(`/api/v3/jetton/transfers?owner_address=${raw(alice.address)}&direction=out&sort=asc`);
  assert.deepEqual(
    transfers.jetton_transfers.map((x: any) => [x.amount, x.transaction_aborted, x.jetton_master]),
    [
      ['300', false, M],
      ['50', false, M],
    ],
  );
  assert.equal(transfers.jetton_transfers[0].destination, raw(bob.address));
  assert.equal(transfers.jetton_transfers[0].forward_ton_amount, '10000000');
  const tx = (await get(`/api/v3/transactions?hash=${encodeURIComponent(transfers.jetton_transfers[0].transaction_hash)}`)).transactions[0];
  assert.equal(transfers.jetton_transfers[0].trace_id, tx.trace_id);
  assert.deepEqual(
    (await get(`/api/v3/jetton/transfers?owner_address=${raw(bob.address)}&direction=in`)).jetton_transfers.map((x: any) => x.amount),
    ['300'],
  );

  const burns = await get(`/api/v3/jetton/burns?address=${raw(bob.address)}`);
  assert.deepEqual(
    burns.jetton_burns.map((b: any) => [b.amount, b.jetton_wallet, b.jetton_master, b.transaction_aborted]),
    [['100', raw(s.jetton.wallets[1].wallet), M, false]],
  );

  const C = raw(s.nft.collection);
  const items = await get(`/api/v3/nft/items?collection_address=${C}`);
  assert.deepEqual(
    items.nft_items.map((i: any) => [i.address, i.index, i.owner_address]),
    s.nft.items.map((i) => [raw(i.address), String(i.index), raw(i.owner)]),
  );
  assert.deepEqual(items.nft_items[1].content, { uri: 'https://nft.example/scenario/1.json' }, "the collection's get_nft_content");
  assert.equal(items.nft_items[0].collection.address, C);
  assert.deepEqual((await get(`/api/v3/nft/collections?collection_address=${C}`)).nft_collections[0].collection_content, {
    uri: 'https://nft.example/scenario.json',
  });
  const nftTransfers = await get(`/api/v3/nft/transfers?item_address=${raw(s.nft.items[0].address)}`);
  assert.deepEqual(
    nftTransfers.nft_transfers.map((x: any) => [x.old_owner, x.new_owner, x.nft_collection, x.transaction_aborted]),
    [[raw(alice.address), raw(bob.address), C, false]],
  );

  // The DNS root is an NFT collection too and its domain an item of it (toncenter lists them so as well).
  const domains = await get(`/api/v3/nft/items?collection_address=${raw(s.dns.root)}`);
  assert.deepEqual(
    domains.nft_items.map((i: any) => [i.address, i.owner_address, i.content.domain]),
    [[raw(s.dns.item), raw(s.dns.owner), 'alice.ton']],
  );
  const records = await get(`/api/v3/dns/records?wallet=${s.dns.wallet.toString()}`);
  assert.deepEqual(records.records, [
    {
      nft_item_address: raw(s.dns.item),
      nft_item_owner: raw(s.dns.owner),
      domain: 'alice.ton',
      dns_next_resolver: null,
      dns_wallet: raw(s.dns.wallet),
      dns_site_adnl: null,
      dns_storage_bag_id: null,
    },
  ]);
  assert.equal(records.address_book[raw(alice.address)].domain, 'alice.ton');
  // tonweb's DnsItem reads the same domain and wallet record.
  assert.equal(await new TonWeb.dns.DnsItem(env.tonweb.provider, { address: s.dns.item.toString() }).getDomain(), 'alice');
  const tonwebRoot = new TonWeb.dns.DnsCollection(env.tonweb.provider, { address: s.dns.root.toString() });
  assert.ok(fromTonweb(await tonwebRoot.resolve('alice', 'wallet'))!.equals(s.dns.wallet));
});
