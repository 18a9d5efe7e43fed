/**
 * tongate's listing contract and the v4r1-layout sale it deploys (src/contracts/nft-sale/listing.fc.ts,
 * sale-v4r1.fc.ts) on a real local chain, driven by wallets v4 through TonClient: an NFT handed to the listing with
 * the seller's terms becomes a sale of exactly the data toncenter reads (the StateInit the listing wrote, at the
 * address the NFT now names), get_fix_price_data_v4 through listing and purchase, the payouts by shares, a cancel, and what
 * the listing and the sale refuse. What the index makes of it: test/api/v3/nft-put-on-sale.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent } from '../../src/contracts/content.js';
import { deployItemBody, nftCollectionInit, nftItemAddress, nftTransferBody } from '../../src/contracts/nft/nft.js';
import { listingInit, listingTermsPayload, saleV4r1Data, SHARE_BASE } from '../../src/contracts/nft-sale/listing.js';
import { buySaleBody, cancelSaleBody } from '../../src/contracts/nft-sale/sale.js';
import { nftCode, nftListingCode } from './support/code.js';
import { outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

async function ownerOf(client: TonClient, nft: Address): Promise<Address> {
  const { stack } = await client.runMethod(nft, 'get_nft_data');
  stack.skip(3);
  return stack.readAddress();
}

/** getgems' v4 getter, the one a v4 sale answers (no get_sale_data): its fee and royalty as shares of SHARE_BASE. */
async function saleData(client: TonClient, sale: Address) {
  const { stack } = await client.runMethod(sale, 'get_fix_price_data_v4');
  return {
    complete: stack.readNumber(),
    createdAt: stack.readNumber(),
    marketplace: stack.readAddress(),
    nft: stack.readAddress(),
    owner: stack.readAddress(),
    fullPrice: stack.readBigNumber(),
    feeAddress: stack.readAddress(),
    fee: stack.readBigNumber(),
    royaltyAddress: stack.readAddress(),
    royalty: stack.readBigNumber(),
    soldAt: stack.readNumber(),
  };
}

const balanceOf = async (client: TonClient, a: Address) => client.getBalance(a);

test('nft listing: the NFT handed over deploys a v4r1-layout sale and moves to it; bought by shares, cancelled, refusals', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await nftCode();
  const { listing: listingCode, sale: saleCode } = await nftListingCode();
  const [seller, buyer, market, creator] = [await env.actor(161), await env.actor(162), await env.actor(163), await env.actor(164)];
  const collectionInit = nftCollectionInit(code.collection, {
    owner: seller.address,
    content: offchainContent('https://listing.example/c.json'),
    commonContent: beginCell().endCell(),
    itemCode: code.item,
    royalty: { numerator: 0, denominator: 100, destination: creator.address },
  });
  const collection = contractAddress(0, collectionInit);
  const nft = (index: number) => nftItemAddress(collection, code.item, index);
  for (const index of [0, 1, 2]) {
    await seller.send(
      collection,
      toNano('0.2'),
      deployItemBody({ index, amount: toNano('0.1'), owner: seller.address, content: beginCell().endCell() }),
      index === 0 ? collectionInit : undefined,
    );
  }
  const listingParams = { marketplace: market.address, feeAddress: market.address, feeShare: 5000, saleCode };
  const init = listingInit(listingCode, listingParams);
  const listing = contractAddress(0, init);
  await market.send(listing, toNano('0.1'), undefined, init);
  const listingBalance = await balanceOf(client, listing);

  const terms = { fullPrice: toNano(2), royaltyAddress: creator.address, royaltyShare: 2500 };
  const list = (index: number, payload = listingTermsPayload(terms), forwardAmount = toNano('0.2')) =>
    seller.send(
      nft(index),
      forwardAmount + toNano('0.1'),
      nftTransferBody({ newOwner: listing, response: seller.address, forwardAmount, forwardPayload: payload }),
    );

  await list(0);
  const sale = await ownerOf(client, nft(0));
  assert.ok(!sale.equals(listing) && !sale.equals(seller.address), 'the NFT moved on from the listing');
  const data = await saleData(client, sale);
  assert.deepEqual(
    [data.complete, data.fullPrice, data.fee, data.royalty],
    [0, toNano(2), 5000n, 2500n],
    'the price, and the shares (5 % and 2.5 % of SHARE_BASE)',
  );
  for (const [got, want] of [
    [data.marketplace, market.address],
    [data.nft, nft(0)],
    [data.owner, seller.address],
    [data.feeAddress, market.address],
    [data.royaltyAddress, creator.address],
  ] as const)
    assert.ok(got.equals(want), `${got} = ${want}`);
  const deployed = saleV4r1Data({
    ...terms,
    marketplace: market.address,
    seller: seller.address,
    feeAddress: market.address,
    feeShare: 5000,
    nft: nft(0),
    createdAt: data.createdAt,
  });
  assert.ok(contractAddress(0, { code: saleCode, data: deployed }).equals(sale), 'the sale is the StateInit of the documented layout');
  const kept = await balanceOf(client, listing);
  assert.ok(kept <= listingBalance && kept > listingBalance - toNano('0.001'), 'the listing keeps its own balance (less storage), no more');
  const lastExit = async (a: Address) => outcome((await transactionsOf(client, a, 1))[0]).exitCode;

  // The sale refuses short payments and a stranger's cancel.
  await buyer.send(sale, toNano('2.05'));
  assert.equal(await lastExit(sale), 709, 'the price plus 0.1 TON for the messages');
  await buyer.send(sale, toNano('0.1'), cancelSaleBody());
  assert.equal(await lastExit(sale), 705, 'only the seller or the marketplace cancels');

  const before = {
    seller: await balanceOf(client, seller.address),
    market: await balanceOf(client, market.address),
    creator: await balanceOf(client, creator.address),
  };
  await buyer.send(sale, toNano('2.2'));
  assert.equal(await lastExit(sale), 0);
  assert.ok((await ownerOf(client, nft(0))).equals(buyer.address), 'the buyer owns the NFT');
  const sold = await saleData(client, sale);
  assert.equal(sold.complete, 1, 'complete');
  assert.ok(sold.soldAt > 0, 'sold_at');
  // Each payee's wallet pays its own small receiving gas out of what it got.
  const got = async (a: Address, was: bigint, want: bigint, what: string) => {
    const delta = (await balanceOf(client, a)) - was;
    assert.ok(delta <= want && delta > want - toNano('0.001'), `${what}: ${delta} of ${want}`);
  };
  await got(market.address, before.market, (toNano(2) * 5000n) / SHARE_BASE, 'the marketplace fee');
  await got(creator.address, before.creator, (toNano(2) * 2500n) / SHARE_BASE, 'the royalty');
  await got(seller.address, before.seller, toNano(2) - toNano('0.15'), 'the seller');
  await seller.send(sale, toNano('0.1'), buySaleBody());
  assert.equal(await lastExit(sale), 404, 'a complete sale refuses everything');

  // Listed, then cancelled by the marketplace: back to the seller.
  await list(1);
  const sale1 = await ownerOf(client, nft(1));
  await market.send(sale1, toNano('0.1'), cancelSaleBody());
  assert.equal(await lastExit(sale1), 0);
  assert.ok((await ownerOf(client, nft(1))).equals(seller.address));

  // Terms that do not parse, or shares above 100 %: the NFT comes back; too little forwarded: refused (709).
  await list(2, beginCell().storeUint(1, 3).endCell());
  assert.ok((await ownerOf(client, nft(2))).equals(seller.address), 'a payload that does not parse');
  await list(2, listingTermsPayload({ ...terms, royaltyShare: 96_000 }));
  assert.ok((await ownerOf(client, nft(2))).equals(seller.address), 'shares above 100 %');
  await list(2, listingTermsPayload(terms), toNano('0.1'));
  assert.equal(await lastExit(listing), 709);
  assert.ok((await ownerOf(client, nft(2))).equals(listing), 'the NFT stays with the listing');
});
