/**
 * /api/v3/nft/* on the local chain, through a real server, on both stores. A wallet deploys the fixture
 * NFT contracts (test/api/v2/support/contracts.ts): a collection with onchain content, an item it vouches for
 * (initialized with an owner and individual content), an item not initialized yet, and a standalone-looking
 * item its collection does not vouch for. Then it sends the initialized item an NFT `transfer` body: the
 * fixture item cannot read it (its transaction aborts), and toncenter keeps aborted NFT transfers, so the
 * row is there. Answers are checked against toncenter's v3 spec and ours, v2 getTokenData and tonweb's
 * NftItem/NftCollection read the same values; bad input is a 422.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, internal, toNano, type Cell } from '@ton/core';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { addressOf, compileContracts, onchainContent } from '../v2/support/contracts.js';
import { sealBlocks, sendFromWallet, serveIndex } from './support/server.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

const TonWeb = ((await import('tonweb')) as any).default;
const raw = formatRawUpper;

const check = checkAgainstSpecs;

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/nft/*: collections and items detected by get-methods, transfers with their traces, metadata [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const { chain } = server;
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const get = async (path: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      check(ours, path.split('?')[0], reply.body);
      return reply.body;
    };
    const owner = testWallet(93);
    const buyer = testWallet(94).wallet.address;
    const c = await compileContracts();
    // The collection's common content is onchain: get_nft_content prefixes 0x01 (offchain) to it in the fixture,
    // so the item's full content is "offchain" common + individual: a uri.
    const collectionInit = {
      code: c.nftCollection,
      data: beginCell()
        .storeUint(2, 64)
        .storeAddress(owner.wallet.address)
        .storeRef(onchainContent({ name: 'Tongate Cats', description: 'test cats' }))
        .storeRef(c.nftItem)
        .storeRef(beginCell().storeStringTail('https://cats.example/').endCell())
        .endCell(),
    };
    const C = addressOf(collectionInit);
    const itemInit = (index: number, collection = C) => ({
      code: c.nftItem,
      data: beginCell().storeUint(index, 64).storeAddress(collection).endCell(),
    });
    const [I0, I1] = [itemInit(0), itemInit(1)].map(addressOf);
    // Claims to be item 5 of the collection, whose get_nft_address_by_index(5) is another address.
    const impostor = { code: c.nftItem, data: beginCell().storeUint(5, 64).storeAddress(C).storeUint(1, 1).endCell() };
    const X = addressOf(impostor);

    const seal = (blocks = 1) => sealBlocks(server, blocks);
    const send = (seqno: number, messages: ReturnType<typeof internal>[], deploy = false) =>
      sendFromWallet(server, owner, seqno, messages, deploy);
    const deploy = (init: { code: Cell; data: Cell }, body?: Cell) =>
      internal({ to: addressOf(init), value: toNano('0.2'), bounce: false, init, body });

    await Promise.all([chain.fund(owner.wallet.address, toNano('20')), seal()]);
    await seal(2);
    await send(
      0,
      [
        deploy(collectionInit),
        deploy(
          itemInit(0),
          beginCell().storeAddress(owner.wallet.address).storeRef(beginCell().storeStringTail('0.json').endCell()).endCell(),
        ),
        deploy(itemInit(1)),
        deploy(impostor),
      ],
      true,
    );
    await seal(3);
    const transferBody = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(11, 64)
      .storeAddress(buyer)
      .storeAddress(owner.wallet.address)
      .storeBit(false)
      .storeCoins(toNano('0.01'))
      .storeBit(false)
      .storeUint(0, 32)
      .storeStringTail('yours')
      .endCell();
    await send(1, [internal({ to: I0, value: toNano('0.1'), body: transferBody })]);
    await seal(3);

    const collections = await get('/api/v3/nft/collections');
    assert.equal(collections.nft_collections.length, 1);
    const col = collections.nft_collections[0];
    assert.deepEqual(
      { ...col, last_transaction_lt: typeof col.last_transaction_lt, data_hash: typeof col.data_hash },
      {
        address: raw(C),
        owner_address: raw(owner.wallet.address),
        last_transaction_lt: 'string',
        next_item_index: '2',
        collection_content: { name: 'Tongate Cats', description: 'test cats' },
        data_hash: 'string',
        code_hash: c.nftCollection.hash().toString('base64'),
      },
    );
    assert.deepEqual(collections.address_book[raw(C)].interfaces, ['nft_collection']);
    assert.deepEqual(collections.metadata[raw(C)].token_info, [
      { valid: true, type: 'nft_collections', name: 'Tongate Cats', description: 'test cats', is_nsfw: false, is_scam: false },
    ]);
    assert.equal((await get(`/api/v3/nft/collections?owner_address=${owner.wallet.address.toString()}`)).nft_collections.length, 1);
    assert.equal((await get(`/api/v3/nft/collections?collection_address=${raw(buyer)}`)).nft_collections.length, 0);

    const items = await get(`/api/v3/nft/items?collection_address=${raw(C)}`);
    assert.deepEqual(
      items.nft_items.map((i: any) => [i.address, i.index, i.init]),
      [
        [raw(I0), '0', true],
        [raw(I1), '1', false],
      ],
      'by index; the impostor is not an item',
    );
    const i0 = items.nft_items[0];
    assert.equal(i0.owner_address, raw(owner.wallet.address));
    assert.deepEqual(i0.content, { uri: 'https://cats.example/0.json' }, "the collection's get_nft_content");
    assert.equal(i0.collection.address, raw(C));
    assert.equal(i0.on_sale, false);
    assert.equal(items.nft_items[1].owner_address, null);
    assert.equal(items.nft_items[1].content, null);
    assert.deepEqual(
      items.metadata[raw(I0)],
      { is_indexed: false, token_info: [{ type: 'nft_items', nft_index: '0' }] },
      'offchain content is not fetched',
    );
    assert.deepEqual(items.address_book[raw(I0)].interfaces, ['nft_item']);
    const v2 = await server.get(`/api/v2/getTokenData?address=${I0.toString()}`);
    assert.equal(v2.body.result.owner_address, owner.wallet.address.toString({ testOnly: true }), 'v2 getTokenData and the index agree');
    // tonweb's NftItem and NftCollection, through our v2 jsonRPC, read what the index shows.
    const tonweb = new TonWeb(new TonWeb.HttpProvider(`${server.base}/api/v2/jsonRPC`));
    const tonwebItem = await new TonWeb.token.nft.NftItem(tonweb.provider, { address: I0.toString() }).getData();
    assert.deepEqual(
      [tonwebItem.isInitialized, tonwebItem.index, Address.parse(tonwebItem.ownerAddress.toString(false)).equals(owner.wallet.address)],
      [true, 0, true],
    );
    const tonwebCollection = await new TonWeb.token.nft.NftCollection(tonweb.provider, { address: C.toString() }).getCollectionData();
    assert.equal(tonwebCollection.nextItemIndex, Number(col.next_item_index));
    assert.deepEqual(
      (await get(`/api/v3/nft/items?collection_address=${raw(C)}&index=1`)).nft_items.map((i: any) => i.address),
      [raw(I1)],
    );
    assert.deepEqual(
      (await get(`/api/v3/nft/items?owner_address=${raw(owner.wallet.address)}`)).nft_items.map((i: any) => i.address),
      [raw(I0)],
    );
    assert.deepEqual((await get(`/api/v3/nft/items?address=${raw(X)}`)).nft_items, []);
    assert.equal((await get(`/api/v3/nft/items?sort_by_last_transaction_lt=true&limit=1&offset=1`)).nft_items.length, 1);

    // The transfer the fixture item could not process: kept, aborted, with its trace.
    const transfers = await get(`/api/v3/nft/transfers?owner_address=${raw(owner.wallet.address)}&direction=out`);
    assert.equal(transfers.nft_transfers.length, 1);
    const tr = transfers.nft_transfers[0];
    const tx = (await get(`/api/v3/transactions?hash=${encodeURIComponent(tr.transaction_hash)}`)).transactions[0];
    assert.deepEqual(tr, {
      query_id: '11',
      nft_address: raw(I0),
      nft_collection: raw(C),
      transaction_hash: tx.hash,
      transaction_lt: tx.lt,
      transaction_now: tx.now,
      transaction_aborted: true,
      old_owner: raw(owner.wallet.address),
      new_owner: raw(buyer),
      response_destination: raw(owner.wallet.address),
      custom_payload: null,
      decoded_custom_payload: null,
      forward_amount: toNano('0.01').toString(),
      forward_payload: tr.forward_payload,
      decoded_forward_payload: { '@type': 'text_comment', comment: 'yours', type: 'text_comment' },
      trace_id: tx.trace_id,
    });
    assert.ok(tr.trace_id);
    assert.equal((await get(`/api/v3/nft/transfers?owner_address=${raw(buyer)}&direction=in`)).nft_transfers.length, 1);
    assert.equal((await get(`/api/v3/nft/transfers?address=${raw(buyer)}&direction=out`)).nft_transfers.length, 0);
    assert.equal(
      (await get(`/api/v3/nft/transfers?item_address=${raw(I0)}&collection_address=${raw(C)}&sort=asc`)).nft_transfers.length,
      1,
    );
    assert.equal((await get(`/api/v3/nft/transfers?end_lt=${BigInt(tx.lt) - 1n}`)).nft_transfers.length, 0);

    const metadata = await get(`/api/v3/metadata?address=${raw(I0)}&address=${raw(C)}&address=${raw(buyer)}`);
    assert.deepEqual(Object.keys(metadata).sort(), [raw(I0), raw(C)].sort());

    const bad: [string, RegExp][] = [
      [`/api/v3/nft/items?collection_address=${raw(C)}&index=x1`, /^index should contain digits only$/],
      ['/api/v3/nft/items?index=1', /^index parameter is not allowed without the collection_address$/],
      [
        `/api/v3/nft/items?collection_address=${raw(C)}&collection_address=${raw(I0)}`,
        /^exact one owner_address required for multiple collection_address$/,
      ],
      ['/api/v3/nft/items?include_on_sale=sure', /include_on_sale/],
      ['/api/v3/nft/collections?collection_address=0:1', /collection_address/],
      ['/api/v3/nft/transfers?direction=up', /direction/],
      ['/api/v3/nft/transfers?collection_address=nope', /collection_address/],
      ['/api/v3/nft/transfers?limit=5000', /limit is not allowed/],
    ];
    for (const [path, message] of bad) {
      const reply = await server.get(path);
      assert.equal(reply.status, 422, `${path}: ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.error, message, path);
    }
  });
}
