/**
 * NFT sales on the local chain, through a real server, on both stores: tongate's own collection (src/contracts/nft)
 * mints three items to a seller, who lists two of them on tongate's fixed-price sale contract (src/contracts/nft-sale,
 * getgems' get_sale_data layout), all sent through @ton/ton's TonClient. The index detects the sales by their
 * get-method, as toncenter's does: a listed item is owned by its sale, `on_sale` with `sale_contract_address` and
 * `real_owner`; `owner_address=<seller>` leaves it out unless `include_on_sale=true`. A buyer buys one (the item is
 * the buyer's, not on sale, the sale complete, the seller paid); the seller cancels the other (the item comes
 * back). Answers are checked against toncenter's v3 spec (where it has the path) and ours; bad input is a 422.
 * An index written before migration 8 (nft_sales) opens upgraded in place; a devnet snapshot restore puts a bought
 * item back on sale (rewind-tokens.ts covers nft_sales).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { nftCollectionInit, deployItemBody, nftItemAddress, nftTransferBody } from '../../../src/contracts/nft/nft.js';
import {
  buySaleBody,
  cancelSaleBody,
  FIX_PRICE_SALE_MAGIC,
  nftSaleInit,
  type NftSaleParams,
} from '../../../src/contracts/nft-sale/sale.js';
import { offchainContent } from '../../../src/contracts/content.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { nftCode, nftSaleCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { openIndex, type IndexOptions } from '../../../src/index/open-index.js';
import { MIGRATIONS, migrate } from '../../../src/index/schema.js';
import type { SqlDriver } from '../../../src/index/sql/driver.js';
import { PostgresDriver } from '../../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../../src/index/sql/sqlite-driver.js';
import { saleBatch } from '../../../src/index/tokens/sales.js';
import { NFT_SALES_MIGRATION } from '../../../src/index/tokens/sales-schema.js';
import { itemBatch } from '../../../src/index/tokens/token-rows.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';
import { startContractsChain } from '../../contracts/support/contracts-chain.js';
import { indexedUpTo, until } from '../../devnet/support/manual-tongate.js';
import { getJson } from '../../support/tongate.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/nft/items and /nft/sales: an item listed on a fixed-price sale, bought, and a listing cancelled [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const get = async (path: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      const bare = path.split('?')[0];
      // toncenter's published spec has no /nft/sales (ton-index-go serves it): ours only there.
      if (bare === '/api/v3/nft/sales') assert.deepEqual(ours.errors(bare, reply.body), [], `${path} against our openapi.json`);
      else checkAgainstSpecs(ours, bare, reply.body);
      return reply.body;
    };
    const seal = (blocks = 6) => sealBlocks(server, blocks);
    const [seller, buyer] = [testWallet(141), testWallet(142)];
    const marketplace = testWallet(143).wallet.address;
    const creator = testWallet(144).wallet.address;
    const send = transferAndSeal(server);

    await Promise.all([server.chain.fund(seller.wallet.address, toNano(50)), server.chain.fund(buyer.wallet.address, toNano(50)), seal(1)]);
    await seal(2);
    const code = await nftCode();
    const collectionInit = nftCollectionInit(code.collection, {
      owner: seller.wallet.address,
      content: offchainContent('https://sale.example/collection.json'),
      commonContent: beginCell().storeStringTail('https://sale.example/').endCell(),
      itemCode: code.item,
      royalty: { numerator: 2, denominator: 100, destination: creator },
    });
    const C = contractAddress(0, collectionInit);
    const item = (index: number) => nftItemAddress(C, code.item, index);
    await send(
      seller,
      C,
      toNano('0.2'),
      deployItemBody({
        index: 0,
        amount: toNano('0.1'),
        owner: seller.wallet.address,
        content: beginCell().storeStringTail('0.json').endCell(),
      }),
      collectionInit,
    );
    for (const index of [1, 2]) {
      await send(
        seller,
        C,
        toNano('0.2'),
        deployItemBody({
          index,
          amount: toNano('0.1'),
          owner: seller.wallet.address,
          content: beginCell().storeStringTail(`${index}.json`).endCell(),
        }),
      );
    }

    // Two sales: item 0 and item 1, 1 TON each (marketplace fee 0.05, royalty 0.02).
    const saleCode = await nftSaleCode();
    const saleOf = (index: number): NftSaleParams => ({
      marketplace,
      nft: item(index),
      fullPrice: toNano(1),
      marketplaceFeeAddress: marketplace,
      marketplaceFee: toNano('0.05'),
      royaltyAddress: creator,
      royaltyAmount: toNano('0.02'),
      createdAt: 1_750_000_000 + index,
    });
    const [S0, S1] = [0, 1].map((index) => contractAddress(0, nftSaleInit(saleCode, saleOf(index))));
    for (const index of [0, 1]) {
      const init = nftSaleInit(saleCode, saleOf(index));
      await send(seller, contractAddress(0, init), toNano('0.1'), undefined, init);
      // The NFT goes to the sale with a forward amount: its ownership_assigned names the seller, the sale is active.
      await send(
        seller,
        item(index),
        toNano('0.1'),
        nftTransferBody({ newOwner: contractAddress(0, init), response: seller.wallet.address, forwardAmount: toNano('0.02') }),
      );
    }
    const saleData = (await client.runMethod(S0, 'get_sale_data')).stack;
    assert.equal(saleData.readNumber(), FIX_PRICE_SALE_MAGIC, 'get_sale_data starts with "FIXP"');
    assert.equal(saleData.readNumber(), 0, 'not complete');

    const SELLER = raw(seller.wallet.address);
    const listed = (await get(`/api/v3/nft/items?address=${raw(item(0))}`)).nft_items[0];
    assert.equal(listed.owner_address, raw(S0), "owned by the sale, as the item's get_nft_data says");
    assert.equal(listed.on_sale, true);
    assert.equal(listed.sale_contract_address, raw(S0));
    assert.equal(listed.real_owner, SELLER);
    assert.equal('auction_contract_address' in listed, false);

    const mine = await get(`/api/v3/nft/items?owner_address=${SELLER}`);
    assert.deepEqual(
      mine.nft_items.map((i: any) => [i.address, i.on_sale]),
      [[raw(item(2)), false]],
      'the listed items are not the seller’s by owner_address',
    );
    const plain = mine.nft_items[0];
    assert.equal('sale_contract_address' in plain || 'real_owner' in plain, false, 'omitted when not on sale (omitempty)');
    const withSales = await get(`/api/v3/nft/items?owner_address=${SELLER}&include_on_sale=true`);
    assert.deepEqual(
      withSales.nft_items.map((i: any) => [i.address, i.owner_address, i.on_sale, i.real_owner ?? null]).sort(),
      [
        [raw(item(0)), raw(S0), true, SELLER],
        [raw(item(1)), raw(S1), true, SELLER],
        [raw(item(2)), SELLER, false, null],
      ].sort(),
      'include_on_sale: the owner filter reads real_owner',
    );
    assert.equal(
      (await get(`/api/v3/nft/items?owner_address=${raw(S0)}&include_on_sale=true`)).nft_items.length,
      0,
      'a sale is not the real owner of what it sells',
    );
    assert.equal(
      (await get(`/api/v3/nft/items?owner_address=${raw(S0)}`)).nft_items.length,
      1,
      'without include_on_sale: owner_address as stored',
    );

    const sales = await get(`/api/v3/nft/sales?address=${raw(S0)}&address=${S1.toString()}`);
    const sale0 = sales.nft_sales.find((s: any) => s.address === raw(S0));
    assert.equal(sales.nft_sales.length, 2);
    assert.deepEqual(
      [sale0.type, sale0.nft_address, sale0.nft_owner_address, sale0.marketplace_address, sale0.created_at],
      ['getgems_sale', raw(item(0)), SELLER, raw(marketplace), 1_750_000_000],
    );
    assert.deepEqual(sale0.details, {
      is_complete: false,
      full_price: toNano(1).toString(),
      marketplace_fee_address: raw(marketplace),
      marketplace_fee: toNano('0.05').toString(),
      royalty_address: raw(creator),
      royalty_amount: toNano('0.02').toString(),
    });
    assert.equal(sale0.nft_item.address, raw(item(0)));
    assert.equal(sale0.nft_item.collection.address, raw(C));
    assert.ok(sales.address_book[raw(S0)].interfaces.includes('nft_sale'));

    // Buy item 0: the buyer owns it, it is not on sale, the sale is complete, the seller got price - fees.
    const sellerBefore = await client.getBalance(seller.wallet.address);
    const marketplaceBefore = await client.getBalance(marketplace);
    await send(buyer, S0, toNano('1.2'), buySaleBody(7n));
    const bought = (await get(`/api/v3/nft/items?address=${raw(item(0))}`)).nft_items[0];
    assert.deepEqual(
      [bought.owner_address, bought.on_sale, 'sale_contract_address' in bought, 'real_owner' in bought],
      [raw(buyer.wallet.address), false, false, false],
    );
    // The price less the marketplace fee and royalty, less what the receiving wallets spend on gas (under 0.001 TON).
    const paid = (await client.getBalance(seller.wallet.address)) - sellerBefore;
    assert.ok(paid <= toNano('0.93') && paid > toNano('0.929'), `the seller got ${paid}`);
    const fee = (await client.getBalance(marketplace)) - marketplaceBefore;
    assert.ok(fee <= toNano('0.05') && fee > toNano('0.049'), `the marketplace got ${fee}`);
    assert.equal((await get(`/api/v3/nft/sales?address=${raw(S0)}`)).nft_sales[0].details.is_complete, true);
    assert.deepEqual(
      (await get(`/api/v3/nft/items?owner_address=${raw(buyer.wallet.address)}&include_on_sale=true`)).nft_items.map((i: any) => i.address),
      [raw(item(0))],
    );

    // Cancel item 1's sale: the NFT comes back to the seller.
    await send(seller, S1, toNano('0.1'), cancelSaleBody());
    const back = (await get(`/api/v3/nft/items?address=${raw(item(1))}`)).nft_items[0];
    assert.deepEqual([back.owner_address, back.on_sale], [SELLER, false]);
    assert.equal((await get(`/api/v3/nft/sales?address=${raw(S1)}`)).nft_sales[0].details.is_complete, true);
    assert.deepEqual(
      (await get(`/api/v3/nft/items?owner_address=${SELLER}`)).nft_items.map((i: any) => i.address).sort(),
      [raw(item(1)), raw(item(2))].sort(),
    );

    // An address that is no sale: an empty list. Bad input: 422 naming the parameter.
    assert.deepEqual((await get(`/api/v3/nft/sales?address=${raw(item(2))}`)).nft_sales, []);
    for (const [path, words] of [
      ['/api/v3/nft/sales', 'at least 1 address required'],
      ['/api/v3/nft/sales?address=nope', 'address'],
      ['/api/v3/nft/items?owner_address=' + SELLER + '&include_on_sale=maybe', 'include_on_sale'],
    ] as const) {
      const reply = await server.get(path);
      assert.equal(reply.status, 422, `${path}: ${JSON.stringify(reply.body)}`);
      assert.match(reply.body.error, new RegExp(words), path);
    }
  });
}

for (const store of ['sqlite', 'postgres'] as const) {
  test(`sales migration (8): an index written before it opens upgraded in place; its statements run twice change nothing [${store}]`, async (t) => {
    let options: IndexOptions;
    let driver: () => Promise<SqlDriver>;
    if (store === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'tongate-sales-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      options = { network: 'testnet', dataDir: dir };
      driver = async () => SqliteDriver.open(join(dir, 'testnet', 'index.sqlite'));
    } else {
      if (!(await requireService(t, 'postgres'))) return;
      const schema = uniqueName('tongate_sales');
      t.after(() => dropSchema(schema));
      options = { network: 'testnet', databaseUrl: POSTGRES_URL, schema };
      driver = () => PostgresDriver.open(POSTGRES_URL, schema);
    }
    const [ITEM, SALE, SELLER] = ['1', '2', '3'].map((d) => `0:${d.repeat(64)}`);
    const hash = Buffer.alloc(32, 7);
    // What the previous tongate wrote: every migration but this one, and an item a (not yet known) sale owns.
    const old = await driver();
    await migrate(
      old,
      MIGRATIONS.filter((m) => m !== NFT_SALES_MIGRATION),
    );
    await old.write([
      itemBatch([
        {
          address: ITEM,
          init: true,
          index: 0n,
          collection: null,
          owner: SALE,
          content: { uri: 'x' },
          lastTxLt: 10n,
          codeHash: hash,
          dataHash: hash,
        },
      ]),
    ]);
    await old.close();

    const page = { limit: 10, offset: 0 };
    let index = await openIndex(options);
    let [item] = await index.reader.nfts.items({ addresses: [ITEM] }, page);
    assert.deepEqual([item.ownerAddress, item.saleAddress, item.saleOwner], [SALE, null, null], 'no sale known yet');
    await index.close();

    const again = await driver();
    await again.write([], NFT_SALES_MIGRATION.statements(store));
    await again.write([
      saleBatch([
        {
          address: SALE,
          type: 'getgems_sale',
          isComplete: false,
          createdAt: 1n,
          marketplace: null,
          nft: ITEM,
          nftOwner: SELLER,
          fullPrice: 5n,
          marketplaceFeeAddress: null,
          marketplaceFee: 0n,
          royaltyAddress: null,
          royaltyAmount: 0n,
          lastTxLt: 11n,
          codeHash: hash,
          dataHash: hash,
        },
      ]),
    ]);
    assert.deepEqual((await again.all('SELECT version FROM index_migrations WHERE version = 8')).length, 1);
    await again.close();

    index = await openIndex(options);
    t.after(() => index.close());
    [item] = await index.reader.nfts.items({ owners: [SELLER], includeOnSale: true }, page);
    assert.deepEqual([item.address, item.saleAddress, item.saleOwner], [ITEM, SALE, SELLER]);
    assert.deepEqual(await index.reader.nfts.items({ owners: [SELLER] }, page), []);
  });
}

test('a devnet snapshot restore puts a bought item back on sale, its sale not complete (nft_sales rewound)', async (t) => {
  const env = await startContractsChain(t);
  const code = await nftCode();
  const [seller, buyer] = [await env.actor(161), await env.actor(162)];
  const collectionInit = nftCollectionInit(code.collection, {
    owner: seller.address,
    content: offchainContent('https://sale.example/r.json'),
    commonContent: beginCell().endCell(),
    itemCode: code.item,
    royalty: { numerator: 0, denominator: 100, destination: seller.address },
  });
  const C = contractAddress(0, collectionInit);
  const I = nftItemAddress(C, code.item, 0);
  await seller.send(
    C,
    toNano('0.2'),
    deployItemBody({ index: 0, amount: toNano('0.1'), owner: seller.address, content: beginCell().endCell() }),
    collectionInit,
  );
  const init = nftSaleInit(await nftSaleCode(), {
    marketplace: seller.address,
    nft: I,
    fullPrice: toNano(1),
    marketplaceFeeAddress: seller.address,
    marketplaceFee: 0n,
    royaltyAddress: seller.address,
    royaltyAmount: 0n,
    createdAt: 1,
  });
  const S = contractAddress(0, init);
  await seller.send(S, toNano('0.1'), undefined, init);
  await seller.send(I, toNano('0.1'), nftTransferBody({ newOwner: S, response: seller.address, forwardAmount: toNano('0.02') }));
  const state = async () => {
    const item = (await getJson(`${env.url}/api/v3/nft/items?address=${raw(I)}`)).body.nft_items[0];
    const sale = (await getJson(`${env.url}/api/v3/nft/sales?address=${raw(S)}`)).body.nft_sales[0];
    return JSON.stringify([item?.owner_address, item?.on_sale, item?.real_owner ?? null, sale?.details.is_complete]);
  };
  const listed = JSON.stringify([raw(S), true, raw(seller.address), false]);
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  assert.equal(await until(state, (v) => v === listed), listed);

  await env.devnet.snapshot('listed');
  await buyer.send(S, toNano('1.2'), buySaleBody());
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  const sold = JSON.stringify([raw(buyer.address), false, null, true]);
  assert.equal(await until(state, (v) => v === sold), sold);

  await env.devnet.restoreSnapshot('listed');
  assert.equal(await until(state, (v) => v === listed), listed, 'the sale and the item as the restored chain has them');
});
