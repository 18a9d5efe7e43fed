/**
 * /api/v3/dns/records and address_book `domain` on tongate's own TEP-81 contracts (src/contracts/dns), deployed on
 * the local chain of a real server whose index is told the root (`dnsRoots`, as `--dns-root` does), on both stores.
 * A wallet W deploys the root and three domains it owns: `alice` (wallet record -> W, plus site, storage and next
 * resolver records), `al` (wallet record -> another address X) and `zed` (wallet record -> X). Then `al`'s wallet
 * record is pointed at W (change_dns_record: the row follows), alice's storage record is deleted, and `al` is
 * transferred away (its owner changes: W's domain goes back to alice.ton). Answers are checked against
 * toncenter's v3 spec and ours; every bad input is a 422.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Address,
  beginCell,
  contractAddress,
  external,
  internal,
  SendMode,
  storeMessage,
  toNano,
  type Cell,
  type StateInit,
} from '@ton/core';
import { offchainContent } from '../../../src/contracts/content.js';
import {
  adnlRecord,
  changeDnsRecordBody,
  deployDomainBody,
  DNS_CATEGORY,
  dnsItemAddress,
  dnsRootInit,
  nextResolverRecord,
  storageRecord,
  walletRecord,
} from '../../../src/contracts/dns/dns.js';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { dnsCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { serveIndex } from './support/server.js';
import { ourV3, toncenterV3 } from './support/spec.js';

const raw = formatRawUpper;

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/dns/records and address_book domain from a DNS root deployed on the local chain [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const W = testWallet(97);
    const X = Address.parse(`0:${'ab'.repeat(32)}`);
    const bob = Address.parse(`0:${'bb'.repeat(32)}`);
    const code = await dnsCode();
    const rootInit: StateInit = dnsRootInit(code.root, {
      owner: W.wallet.address,
      content: offchainContent('https://dns.example/root.json'),
      itemCode: code.item,
    });
    const root = contractAddress(0, rootInit);
    const item = (domain: string) => dnsItemAddress(root, code.item, domain);
    const server = await serveIndex(t, opened.index, 'testnet', true, { dnsRoots: [raw(root)] });
    const { chain } = server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const get = async (path: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      const bare = path.split('?')[0];
      assert.deepEqual(toncenterV3().errors(bare, reply.body), [], `${path} against toncenter's spec`);
      assert.deepEqual(ours.errors(bare, reply.body), [], `${path} against our openapi.json`);
      return reply.body;
    };
    const seal = async (blocks = 1) => {
      for (let i = 0; i < blocks; i++) await chain.produceBlock();
      await server.attachment!.synced();
    };
    let seqno = 0;
    const send = async (messages: ReturnType<typeof internal>[]) => {
      const body = W.wallet.createTransfer({ seqno, secretKey: W.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
      const ext = external({ to: W.wallet.address, body, init: seqno === 0 ? W.wallet.init : undefined });
      const sent = await server.post('/api/v3/message', { boc: beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64') });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      seqno++;
      await seal(3);
    };
    const toItem = (domain: string, body: Cell) => internal({ to: item(domain), value: toNano('0.05'), body });
    const site = Buffer.alloc(32, 0x5a);
    const bag = Buffer.alloc(32, 0xb4);
    const resolver = Address.parse(`0:${'cd'.repeat(32)}`);

    await Promise.all([chain.fund(W.wallet.address, toNano('20')), seal()]);
    await seal(2);
    await send(
      ['alice', 'al', 'zed'].map((domain, i) =>
        internal({
          to: root,
          value: toNano('0.3'),
          bounce: false,
          init: i === 0 ? rootInit : undefined,
          body: deployDomainBody({ domain, owner: W.wallet.address, amount: toNano('0.1') }),
        }),
      ),
    );
    await send([
      toItem('alice', changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(W.wallet.address))),
      toItem('alice', changeDnsRecordBody(DNS_CATEGORY.site, adnlRecord(site))),
      toItem('alice', changeDnsRecordBody(DNS_CATEGORY.storage, storageRecord(bag))),
      toItem('alice', changeDnsRecordBody(DNS_CATEGORY.nextResolver, nextResolverRecord(resolver))),
    ]);
    // A wallet v4 sends at most 4 messages at once.
    await send([
      toItem('al', changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(X))),
      toItem('zed', changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(X))),
    ]);

    const w = raw(W.wallet.address);
    const alice = await get('/api/v3/dns/records?domain=alice.ton');
    assert.deepEqual(alice.records, [
      {
        nft_item_address: raw(item('alice')),
        nft_item_owner: w,
        domain: 'alice.ton',
        dns_next_resolver: raw(resolver),
        dns_wallet: w,
        dns_site_adnl: site.toString('hex'),
        dns_storage_bag_id: bag.toString('hex'),
      },
    ]);
    assert.equal(alice.metadata, undefined, 'no metadata key, as toncenter');
    assert.equal(alice.address_book[w].domain, 'alice.ton', 'W owns alice.ton and its wallet record points back');
    assert.equal(alice.address_book[raw(item('alice'))].domain, null);
    assert.deepEqual(alice.address_book[raw(item('alice'))].interfaces, ['dns', 'nft_item']);

    // By wallet: shortest domain first, then alphabetical; paging.
    assert.deepEqual(
      (await get(`/api/v3/dns/records?wallet=${X.toString()}`)).records.map((r: any) => r.domain),
      ['al.ton', 'zed.ton'],
    );
    assert.deepEqual(
      (await get(`/api/v3/dns/records?wallet=${raw(X)}&limit=1&offset=1`)).records.map((r: any) => r.domain),
      ['zed.ton'],
    );
    assert.deepEqual((await get(`/api/v3/dns/records?wallet=${raw(bob)}`)).records, []);
    assert.deepEqual((await get('/api/v3/dns/records?domain=alice')).records, [], 'the exact domain only');

    // The item itself: content gains the domain (toncenter's); its metadata is valid and carries it.
    const items = await get(`/api/v3/nft/items?address=${raw(item('alice'))}`);
    assert.equal(items.nft_items[0].content.domain, 'alice.ton');
    assert.equal(items.nft_items[0].collection_address, raw(root));
    assert.equal(items.metadata[raw(item('alice'))].token_info[0].valid, true, 'an item with a domain is valid without a name');
    assert.equal(items.metadata[raw(item('alice'))].token_info[0].extra.domain, 'alice.ton');
    assert.deepEqual(
      (await get(`/api/v3/addressBook?address=${W.wallet.address.toString()}`))[W.wallet.address.toString()].domain,
      'alice.ton',
    );

    // change_dns_record: al's wallet record now points at W (shorter than alice: W's domain becomes al.ton); a
    // record deleted (no ref) is null again.
    await send([
      toItem('al', changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord(W.wallet.address))),
      toItem('alice', changeDnsRecordBody(DNS_CATEGORY.storage, null)),
    ]);
    assert.deepEqual(
      (await get(`/api/v3/dns/records?wallet=${w}`)).records.map((r: any) => r.domain),
      ['al.ton', 'alice.ton'],
    );
    assert.deepEqual(
      (await get(`/api/v3/dns/records?wallet=${raw(X)}`)).records.map((r: any) => r.domain),
      ['zed.ton'],
    );
    assert.equal((await get('/api/v3/dns/records?domain=alice.ton')).records[0].dns_storage_bag_id, null);
    const book = await get(`/api/v3/addressBook?address=${w}`);
    assert.equal(book[w].domain, 'al.ton');
    const txs = await get(`/api/v3/transactions?account=${w}&limit=1`);
    assert.equal(txs.address_book[w].domain, 'al.ton', 'every address book has the domain');
    assert.equal((await get(`/api/v3/traces?account=${w}&limit=1`)).address_book[w].domain, 'al.ton');

    // al goes to bob: still W's wallet record, but not W's domain any more.
    await send([toItem('al', nftTransferBody({ newOwner: bob, response: W.wallet.address }))]);
    const al = (await get('/api/v3/dns/records?domain=al.ton')).records[0];
    assert.deepEqual([al.nft_item_owner, al.dns_wallet], [raw(bob), w]);
    assert.equal((await get(`/api/v3/addressBook?address=${w}`))[w].domain, 'alice.ton');

    // Bad input: 422 with what was wrong, never 500.
    const bad: [string, RegExp][] = [
      ['/api/v3/dns/records', /either wallet address or domain is required/],
      [`/api/v3/dns/records?wallet=${w}&domain=alice.ton`, /provide either wallet address or domain, not both/],
      ['/api/v3/dns/records?wallet=nonsense', /wallet/],
      ['/api/v3/dns/records?domain=alice.ton&limit=1001', /limit/],
      ['/api/v3/dns/records?domain=alice.ton&offset=x', /offset/],
    ];
    for (const [path, message] of bad) {
      const reply = await server.get(path);
      assert.equal(reply.status, 422, `${path}: ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.error, message, path);
    }
    // The default limit is toncenter's 100 (documented in our openapi.json).
    const spec = (await server.get('/api/v3/openapi.json')).body;
    const limit = spec.paths['/api/v3/dns/records'].get.parameters.find((p: any) => p.name === 'limit');
    assert.equal(limit.schema.default, 100);
  });
}
