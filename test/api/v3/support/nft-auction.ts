/**
 * The auction terms the tests put an NFT up with (tongate's auction contract, src/contracts/nft-auction): bids from
 * 1 to 10 TON in steps of 0.1, a 5 % marketplace fee and a 2 % royalty, open until 1_760_000_000.
 */
import { toNano, type Address } from '@ton/core';
import type { NftAuctionParams } from '../../../../src/contracts/nft-auction/auction.js';

export function testAuctionParams(o: { marketplace: Address; creator: Address; nft: Address; createdAt: number }): NftAuctionParams {
  return {
    marketplace: o.marketplace,
    nft: o.nft,
    createdAt: o.createdAt,
    endTime: 1_760_000_000,
    minBid: toNano(1),
    maxBid: toNano(10),
    minStep: toNano('0.1'),
    marketplaceFeeAddress: o.marketplace,
    marketplaceFeeFactor: 5,
    marketplaceFeeBase: 100,
    royaltyAddress: o.creator,
    royaltyFactor: 2,
    royaltyBase: 100,
  };
}
