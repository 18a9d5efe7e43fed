/**
 * tongate's NFT auction (auction.fc.ts, getgems' auction get_sale_data layout): data, StateInit and message bodies.
 * The code is the caller's (tests compile the source with func-js).
 */
import { beginCell, contractAddress, type Address, type Cell, type StateInit } from '@ton/core';

/** "AUC": the first value of get_sale_data, how toncenter's indexer knows a getgems auction. */
export const AUCTION_MAGIC = 0x415543;
export const NFT_AUCTION_OP = { cancel: 0x5616c572, finish: 0x20c9eb18, stop: 0xb95616b6 } as const;
/** The comment of the TON transfer that gives an outbid bidder their bid back. */
export const OUTBID_COMMENT = 'Your bid has been outbid by another user.';

export interface NftAuctionParams {
  marketplace: Address;
  nft: Address;
  /** Unix time the auction was made (get_sale_data's created_at). */
  createdAt: number;
  /** Answered, not enforced. */
  endTime: number;
  minBid: bigint;
  /** 0: no maximum. */
  maxBid: bigint;
  minStep: bigint;
  marketplaceFeeAddress: Address;
  marketplaceFeeFactor: number;
  marketplaceFeeBase: number;
  royaltyAddress: Address;
  royaltyFactor: number;
  royaltyBase: number;
}

/** The auction as deployed: not over, no bid, no seller yet (the NFT's ownership_assigned names them). */
export function nftAuctionData(p: NftAuctionParams): Cell {
  return beginCell()
    .storeUint(0, 1)
    .storeUint(0, 1)
    .storeAddress(null)
    .storeCoins(0)
    .storeUint(0, 32)
    .storeUint(p.endTime, 32)
    .storeAddress(null)
    .storeRef(
      beginCell()
        .storeAddress(p.marketplace)
        .storeAddress(p.nft)
        .storeUint(p.createdAt, 32)
        .storeCoins(p.minBid)
        .storeCoins(p.maxBid)
        .storeCoins(p.minStep)
        .endCell(),
    )
    .storeRef(
      beginCell()
        .storeAddress(p.marketplaceFeeAddress)
        .storeUint(p.marketplaceFeeFactor, 32)
        .storeUint(p.marketplaceFeeBase, 32)
        .storeAddress(p.royaltyAddress)
        .storeUint(p.royaltyFactor, 32)
        .storeUint(p.royaltyBase, 32)
        .endCell(),
    )
    .endCell();
}

export function nftAuctionInit(code: Cell, p: NftAuctionParams): StateInit {
  return { code, data: nftAuctionData(p) };
}

export const nftAuctionAddress = (code: Cell, p: NftAuctionParams): Address => contractAddress(0, nftAuctionInit(code, p));

/** A command by op (cancel, finish, stop) with a query id. */
export const auctionCommandBody = (op: number, queryId = 0n): Cell => beginCell().storeUint(op, 32).storeUint(queryId, 64).endCell();
