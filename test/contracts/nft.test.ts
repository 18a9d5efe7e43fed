/**
 * tongate's NFT collection and item (TEP-62, royalties TEP-66) on a real local chain, driven by wallets v4
 * through TonClient: deploy with a first item, batch deploy, transfer with ownership_assigned and excesses,
 * static data and royalty reports, refusals; tonweb's NftCollection and NftItem, and v2's getTokenData, read the
 * same values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano, TupleBuilder } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent, onchainContent } from '../../src/contracts/content.js';
import {
  batchDeployItemsBody,
  deployItemBody,
  getRoyaltyParamsBody,
  getStaticDataBody,
  NFT_OP,
  nftCollectionInit,
  nftItemAddress,
  nftTransferBody,
} from '../../src/contracts/nft/nft.js';
import { nftCode } from './support/code.js';
import { getJson } from '../support/tongate.js';
import { fromTonweb, inboundOp, outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

const TonWeb = ((await import('tonweb')) as any).default;

async function nftData(client: TonClient, item: Address) {
  const { stack } = await client.runMethod(item, 'get_nft_data');
  return {
    init: stack.readNumber(),
    index: stack.readBigNumber(),
    collection: stack.readAddress(),
    owner: stack.readAddressOpt(),
    content: stack.readCellOpt(),
  };
}

test('nft: a collection deployed with its first item, a batch, transfer with notification and excesses, royalties; tonweb agrees', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await nftCode();
  const [creator, alice, bob] = [await env.actor(121), await env.actor(122), await env.actor(123)];
  const collectionContent = offchainContent('https://nft.example/collection.json');
  const init = nftCollectionInit(code.collection, {
    owner: creator.address,
    content: collectionContent,
    commonContent: beginCell().storeStringTail('https://nft.example/items/').endCell(),
    itemCode: code.item,
    royalty: { numerator: 5, denominator: 100, destination: creator.address },
  });
  const collection = contractAddress(0, init);
  const item = (index: number) => nftItemAddress(collection, code.item, index);

  await creator.send(
    collection,
    toNano('0.2'),
    deployItemBody({ index: 0, amount: toNano('0.1'), owner: alice.address, content: beginCell().storeStringTail('0.json').endCell() }),
    init,
  );
  let { stack } = await client.runMethod(collection, 'get_collection_data');
  assert.equal(stack.readNumber(), 1, 'next_item_index');
  assert.equal(stack.readCell().hash().toString('hex'), collectionContent.hash().toString('hex'));
  assert.ok(stack.readAddress().equals(creator.address));
  const index0 = new TupleBuilder();
  index0.writeNumber(0);
  assert.ok((await client.runMethod(collection, 'get_nft_address_by_index', index0.build())).stack.readAddress().equals(item(0)));
  let data = await nftData(client, item(0));
  assert.deepEqual([data.init, data.index], [-1, 0n]);
  assert.ok(data.collection.equals(collection) && data.owner?.equals(alice.address));
  const full = new TupleBuilder();
  full.writeNumber(0);
  full.writeCell(data.content!);
  const itemContent = (await client.runMethod(collection, 'get_nft_content', full.build())).stack.readCell().beginParse();
  assert.equal(itemContent.loadUint(8), 1, 'offchain');
  assert.equal(itemContent.loadStringTail(), 'https://nft.example/items/0.json', 'the common prefix and the item suffix');

  // A batch of two (one with onchain content, answered as it is); an index beyond next_item_index is refused.
  const onchain = onchainContent({ name: 'Item 2', description: 'onchain' });
  await creator.send(
    collection,
    toNano('0.5'),
    batchDeployItemsBody([
      { index: 1, amount: toNano('0.1'), owner: bob.address, content: beginCell().storeStringTail('1.json').endCell() },
      { index: 2, amount: toNano('0.1'), owner: bob.address, content: onchain },
    ]),
  );
  assert.equal((await client.runMethod(collection, 'get_collection_data')).stack.readNumber(), 3);
  assert.ok((await nftData(client, item(1))).owner?.equals(bob.address));
  const two = new TupleBuilder();
  two.writeNumber(2);
  two.writeCell(onchain);
  assert.equal(
    (await client.runMethod(collection, 'get_nft_content', two.build())).stack.readCell().hash().toString('hex'),
    onchain.hash().toString('hex'),
  );
  await creator.send(
    collection,
    toNano('0.2'),
    deployItemBody({ index: 5, amount: toNano('0.1'), owner: bob.address, content: beginCell().endCell() }),
  );
  assert.equal(outcome((await transactionsOf(client, collection, 1))[0]).exitCode, 402);
  await alice.send(
    collection,
    toNano('0.2'),
    deployItemBody({ index: 3, amount: toNano('0.1'), owner: alice.address, content: beginCell().endCell() }),
  );
  assert.equal(outcome((await transactionsOf(client, collection, 1))[0]).exitCode, 705, 'only the owner deploys items');

  // transfer item 0 alice -> bob, 0.01 TON and a payload forwarded, excesses to alice
  await alice.send(
    item(0),
    toNano('0.1'),
    nftTransferBody({
      newOwner: bob.address,
      response: alice.address,
      forwardAmount: toNano('0.01'),
      forwardPayload: beginCell().storeUint(0, 32).storeStringTail('yours').endCell(),
      queryId: 21n,
    }),
  );
  data = await nftData(client, item(0));
  assert.ok(data.owner?.equals(bob.address));
  const [assigned] = await transactionsOf(client, bob.address, 1);
  assert.equal(inboundOp(assigned), NFT_OP.ownershipAssigned);
  const a = assigned.inMessage!.body.beginParse().skip(32);
  assert.equal(a.loadUintBig(64), 21n);
  assert.ok(a.loadAddress().equals(alice.address), 'prev_owner');
  assert.equal(a.loadBit(), true);
  assert.equal(a.loadRef().beginParse().skip(32).loadStringTail(), 'yours');
  const [excess] = await transactionsOf(client, alice.address, 1);
  assert.equal(inboundOp(excess), NFT_OP.excesses);
  assert.ok(excess.inMessage?.info.type === 'internal' && excess.inMessage.info.src.equals(item(0)));
  await alice.send(item(0), toNano('0.1'), nftTransferBody({ newOwner: alice.address }));
  assert.equal(outcome((await transactionsOf(client, item(0), 1))[0]).exitCode, 705, 'alice no longer owns it');

  // get_static_data -> report_static_data; get_royalty_params -> report_royalty_params
  await alice.send(item(1), toNano('0.05'), getStaticDataBody(31n));
  let [report] = await transactionsOf(client, alice.address, 1);
  assert.equal(inboundOp(report), NFT_OP.reportStaticData);
  let r = report.inMessage!.body.beginParse().skip(32);
  assert.deepEqual([r.loadUintBig(64), r.loadUintBig(256)], [31n, 1n]);
  assert.ok(r.loadAddress().equals(collection));
  await alice.send(collection, toNano('0.05'), getRoyaltyParamsBody(32n));
  [report] = await transactionsOf(client, alice.address, 1);
  assert.equal(inboundOp(report), NFT_OP.reportRoyaltyParams);
  r = report.inMessage!.body.beginParse().skip(32);
  assert.deepEqual([r.loadUintBig(64), r.loadUint(16), r.loadUint(16)], [32n, 5, 100]);
  assert.ok(r.loadAddress().equals(creator.address));
  ({ stack } = await client.runMethod(collection, 'royalty_params'));
  assert.deepEqual([stack.readNumber(), stack.readNumber()], [5, 100]);
  assert.ok(stack.readAddress().equals(creator.address));

  // tongate's own v2 getTokenData reads the same (the item's content through its collection)
  const v2collection = await getJson(`${env.url}/api/v2/getTokenData?address=${collection.toString()}`);
  assert.equal(v2collection.body.result.contract_type, 'nft_collection');
  assert.equal(v2collection.body.result.next_item_index, '3');
  assert.deepEqual(v2collection.body.result.collection_content, { type: 'offchain', data: 'https://nft.example/collection.json' });
  const v2item = await getJson(`${env.url}/api/v2/getTokenData?address=${item(0).toString()}`);
  assert.equal(v2item.body.result.contract_type, 'nft_item');
  assert.ok(Address.parse(v2item.body.result.owner_address).equals(bob.address));
  assert.deepEqual(v2item.body.result.content, { type: 'offchain', data: 'https://nft.example/items/0.json' });

  // tonweb reads the same values
  const twCollection = new TonWeb.token.nft.NftCollection(env.tonweb.provider, { address: collection.toString() });
  const tw = await twCollection.getCollectionData();
  assert.equal(tw.nextItemIndex, 3);
  assert.equal(tw.collectionContentUri, 'https://nft.example/collection.json');
  assert.ok(fromTonweb(tw.ownerAddress)!.equals(creator.address));
  assert.ok(fromTonweb(await twCollection.getNftItemAddressByIndex(1))!.equals(item(1)));
  const royalty = await twCollection.getRoyaltyParams();
  assert.deepEqual([royalty.royalty, royalty.royaltyFactor, royalty.royaltyBase], [0.05, 5, 100]);
  assert.ok(fromTonweb(royalty.royaltyAddress)!.equals(creator.address));
  const twItem = new TonWeb.token.nft.NftItem(env.tonweb.provider, { address: item(0).toString() });
  const itemData = await twCollection.getNftItemContent(twItem);
  assert.equal(itemData.isInitialized, true);
  assert.equal(itemData.itemIndex.toString(), '0');
  assert.ok(fromTonweb(itemData.ownerAddress)!.equals(bob.address));
  assert.ok(fromTonweb(itemData.collectionAddress)!.equals(collection));
  assert.equal(itemData.contentUri, 'https://nft.example/items/0.json');
});
