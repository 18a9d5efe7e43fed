/**
 * tongate's fixed-price NFT sale (src/contracts/nft-sale) on a real local chain, driven by wallets v4 through
 * TonClient: what it refuses (buying before the NFT arrived, too little money, an ownership_assigned not from its
 * NFT, a cancel by a stranger, anything once complete), and get_sale_data through every step. The happy paths
 * (buy, cancel) as the index sees them are test/api/v3/nft-sales.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent } from '../../src/contracts/content.js';
import { deployItemBody, NFT_OP, nftCollectionInit, nftItemAddress, nftTransferBody } from '../../src/contracts/nft/nft.js';
import { buySaleBody, cancelSaleBody, FIX_PRICE_SALE_MAGIC, nftSaleInit } from '../../src/contracts/nft-sale/sale.js';
import { nftCode, nftSaleCode } from './support/code.js';
import { outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

async function saleData(client: TonClient, sale: Address) {
  const { stack } = await client.runMethod(sale, 'get_sale_data');
  return {
    magic: stack.readNumber(),
    complete: stack.readNumber(),
    createdAt: stack.readNumber(),
    marketplace: stack.readAddress(),
    nft: stack.readAddress(),
    owner: stack.readAddressOpt(),
    fullPrice: stack.readBigNumber(),
    marketplaceFeeAddress: stack.readAddress(),
    marketplaceFee: stack.readBigNumber(),
    royaltyAddress: stack.readAddress(),
    royaltyAmount: stack.readBigNumber(),
  };
}

test('nft sale: inactive until its NFT arrives, refuses strangers and short payments, complete after a buy', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await nftCode();
  const [seller, buyer, stranger] = [await env.actor(151), await env.actor(152), await env.actor(153)];
  const collectionInit = nftCollectionInit(code.collection, {
    owner: seller.address,
    content: offchainContent('https://sale.example/c.json'),
    commonContent: beginCell().endCell(),
    itemCode: code.item,
    royalty: { numerator: 0, denominator: 100, destination: seller.address },
  });
  const collection = contractAddress(0, collectionInit);
  const nft = nftItemAddress(collection, code.item, 0);
  await seller.send(
    collection,
    toNano('0.2'),
    deployItemBody({ index: 0, amount: toNano('0.1'), owner: seller.address, content: beginCell().endCell() }),
    collectionInit,
  );
  const params = {
    marketplace: stranger.address,
    nft,
    fullPrice: toNano(2),
    marketplaceFeeAddress: stranger.address,
    marketplaceFee: 0n,
    royaltyAddress: seller.address,
    royaltyAmount: 0n,
    createdAt: 1_760_000_000,
  };
  const init = nftSaleInit(await nftSaleCode(), params);
  const sale = contractAddress(0, init);
  const lastExit = async () => outcome((await transactionsOf(client, sale, 1))[0]).exitCode;

  await seller.send(sale, toNano('0.1'), undefined, init);
  let data = await saleData(client, sale);
  assert.deepEqual(
    [data.magic, data.complete, data.createdAt, data.owner],
    [FIX_PRICE_SALE_MAGIC, 0, 1_760_000_000, null],
    'deployed, no seller yet',
  );
  assert.ok(data.nft.equals(nft) && data.marketplace.equals(stranger.address));
  assert.equal(data.fullPrice, toNano(2));

  await buyer.send(sale, toNano(3), buySaleBody());
  assert.equal(await lastExit(), 406, 'nothing to buy before the NFT arrived');
  // ownership_assigned from anyone but the NFT.
  await stranger.send(
    sale,
    toNano('0.1'),
    beginCell().storeUint(NFT_OP.ownershipAssigned, 32).storeUint(0, 64).storeAddress(stranger.address).storeBit(0).endCell(),
  );
  assert.equal(await lastExit(), 407);
  assert.equal((await saleData(client, sale)).owner, null);

  await seller.send(nft, toNano('0.1'), nftTransferBody({ newOwner: sale, response: seller.address, forwardAmount: toNano('0.02') }));
  data = await saleData(client, sale);
  assert.ok(data.owner?.equals(seller.address), 'the NFT named its previous owner: the seller');

  await buyer.send(sale, toNano('2.05'), buySaleBody());
  assert.equal(await lastExit(), 709, 'the price plus 0.1 TON for the messages');
  await buyer.send(sale, toNano('0.1'), cancelSaleBody());
  assert.equal(await lastExit(), 705, 'only the seller or the marketplace cancels');
  assert.equal((await saleData(client, sale)).complete, 0);

  await buyer.send(sale, toNano('2.2'), buySaleBody());
  assert.equal(await lastExit(), 0);
  assert.equal((await saleData(client, sale)).complete, 1);
  const { stack } = await client.runMethod(nft, 'get_nft_data');
  stack.skip(3);
  assert.ok(stack.readAddress().equals(buyer.address), 'the buyer owns the NFT');
  await seller.send(sale, toNano('0.1'), cancelSaleBody());
  assert.equal(await lastExit(), 404, 'a complete sale refuses everything');
});
