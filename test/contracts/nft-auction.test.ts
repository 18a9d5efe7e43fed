/**
 * tongate's NFT auction (src/contracts/nft-auction) on a real local chain, driven by wallets v4 through TonClient:
 * what it refuses (a bid below the minimum or the step, an ownership_assigned not from its NFT, a command from a
 * stranger, a cancel once bid on, anything once over), and get_sale_data through the steps. What the index makes of
 * it (detection, bids, outbids, finishes, cancels as actions) is test/api/v3/nft-auctions.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import type { TonClient } from '@ton/ton';
import { offchainContent } from '../../src/contracts/content.js';
import { deployItemBody, NFT_OP, nftCollectionInit, nftItemAddress, nftTransferBody } from '../../src/contracts/nft/nft.js';
import { AUCTION_MAGIC, auctionCommandBody, NFT_AUCTION_OP, nftAuctionInit } from '../../src/contracts/nft-auction/auction.js';
import { nftAuctionCode, nftCode } from './support/code.js';
import { outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

async function auctionData(client: TonClient, auction: Address) {
  const { stack } = await client.runMethod(auction, 'get_sale_data');
  const magic = stack.readNumber();
  const end = stack.readNumber();
  stack.skip(3); // end_time, marketplace, nft
  const owner = stack.readAddressOpt();
  const lastBid = stack.readBigNumber();
  const lastMember = stack.readAddressOpt();
  stack.skip(11); // min_step, fees, max_bid, min_bid, created_at, last_bid_at
  return { magic, end, owner, lastBid, lastMember, canceled: stack.readNumber() };
}

test('nft auction: inactive until its NFT arrives, refuses low bids and strangers, a cancel once bid on, anything once over', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await nftCode();
  const [seller, alice, bob, stranger] = [await env.actor(171), await env.actor(172), await env.actor(173), await env.actor(174)];
  const collectionInit = nftCollectionInit(code.collection, {
    owner: seller.address,
    content: offchainContent('https://auction.example/c.json'),
    commonContent: beginCell().endCell(),
    itemCode: code.item,
    royalty: { numerator: 0, denominator: 100, destination: seller.address },
  });
  const nft = nftItemAddress(contractAddress(0, collectionInit), code.item, 0);
  await seller.send(
    contractAddress(0, collectionInit),
    toNano('0.2'),
    deployItemBody({ index: 0, amount: toNano('0.1'), owner: seller.address, content: beginCell().endCell() }),
    collectionInit,
  );
  const init = nftAuctionInit(await nftAuctionCode(), {
    marketplace: stranger.address,
    nft,
    createdAt: 1_760_000_000,
    endTime: 1_770_000_000,
    minBid: toNano(1),
    maxBid: 0n,
    minStep: toNano('0.5'),
    marketplaceFeeAddress: stranger.address,
    marketplaceFeeFactor: 0,
    marketplaceFeeBase: 100,
    royaltyAddress: seller.address,
    royaltyFactor: 0,
    royaltyBase: 100,
  });
  const auction = contractAddress(0, init);
  const lastExit = async () => outcome((await transactionsOf(client, auction, 1))[0]).exitCode;

  await seller.send(auction, toNano('0.2'), undefined, init);
  let data = await auctionData(client, auction);
  assert.deepEqual([data.magic, data.end, data.owner, data.lastBid, data.lastMember], [AUCTION_MAGIC, 0, null, 0n, null], 'no seller yet');
  await stranger.send(
    auction,
    toNano('0.1'),
    beginCell().storeUint(NFT_OP.ownershipAssigned, 32).storeUint(0, 64).storeAddress(stranger.address).storeBit(0).endCell(),
  );
  assert.equal(await lastExit(), 407, 'ownership_assigned only from its NFT');
  await seller.send(auction, toNano('0.1'), auctionCommandBody(NFT_AUCTION_OP.cancel));
  assert.equal(await lastExit(), 406, 'nothing to cancel before the NFT arrived');

  await seller.send(nft, toNano('0.1'), nftTransferBody({ newOwner: auction, response: seller.address, forwardAmount: toNano('0.02') }));
  data = await auctionData(client, auction);
  assert.ok(data.owner?.equals(seller.address), 'the NFT named its previous owner: the seller');

  await alice.send(auction, toNano('0.9'));
  assert.equal(await lastExit(), 411, 'below min_bid');
  // The wallets here pay the forwarding fee from the value: a bid is its value less that fee.
  await alice.send(auction, toNano('1.1'));
  assert.equal(await lastExit(), 0);
  await bob.send(auction, toNano('1.5'));
  assert.equal(await lastExit(), 411, 'below last_bid + min_step');
  await bob.send(auction, toNano('1.7'));
  assert.equal(await lastExit(), 0);
  data = await auctionData(client, auction);
  assert.ok(data.lastMember?.equals(bob.address));
  assert.ok(data.lastBid > toNano('1.69') && data.lastBid <= toNano('1.7'), `the last bid is Bob's: ${data.lastBid}`);

  await stranger.send(auction, toNano('0.1'), auctionCommandBody(NFT_AUCTION_OP.finish));
  assert.equal(await lastExit(), 0, 'the marketplace may finish');
  data = await auctionData(client, auction);
  assert.deepEqual([data.end, data.canceled], [1, 0]);
  const { stack } = await client.runMethod(nft, 'get_nft_data');
  stack.skip(3);
  assert.ok(stack.readAddress().equals(bob.address), 'the last bidder owns the NFT');
  await alice.send(auction, toNano(3));
  assert.equal(await lastExit(), 410, 'an auction over refuses everything');

  // A second auction of the NFT, now Bob's: a stranger may not cancel; once bid on, the seller may not either.
  const second = nftAuctionInit(await nftAuctionCode(), {
    marketplace: seller.address,
    nft,
    createdAt: 1_760_000_001,
    endTime: 1_770_000_000,
    minBid: toNano(1),
    maxBid: toNano(2),
    minStep: toNano('0.1'),
    marketplaceFeeAddress: seller.address,
    marketplaceFeeFactor: 0,
    marketplaceFeeBase: 100,
    royaltyAddress: seller.address,
    royaltyFactor: 0,
    royaltyBase: 100,
  });
  const other = contractAddress(0, second);
  const otherExit = async () => outcome((await transactionsOf(client, other, 1))[0]).exitCode;
  await bob.send(other, toNano('0.2'), undefined, second);
  await bob.send(nft, toNano('0.1'), nftTransferBody({ newOwner: other, response: bob.address, forwardAmount: toNano('0.02') }));
  await stranger.send(other, toNano('0.1'), beginCell().storeUint(0, 32).storeStringTail('cancel').endCell());
  assert.equal(await otherExit(), 705, 'only the seller or the marketplace');
  await alice.send(other, toNano('1.2'));
  await bob.send(other, toNano('0.1'), auctionCommandBody(NFT_AUCTION_OP.cancel));
  assert.equal(await otherExit(), 413, 'no cancel once bid on');
  // A bid at max_bid ends it at once: the NFT is Alice's.
  await stranger.send(other, toNano('2.1'));
  assert.equal(await otherExit(), 0);
  assert.equal((await auctionData(client, other)).end, 1);
  const after = (await client.runMethod(nft, 'get_nft_data')).stack;
  after.skip(3);
  assert.ok(after.readAddress().equals(stranger.address), 'the bid at the maximum won');
});
