/**
 * tongate's listing contract and the v4r1-layout sale it deploys (listing.fc.ts, sale-v4r1.fc.ts): the listing's
 * data and StateInit, the seller's terms (the forward payload of the NFT's transfer to the listing), the sale's data
 * as the listing writes it. The code is the caller's (tests compile the sources with func-js).
 */
import { beginCell, contractAddress, type Address, type Cell, type StateInit } from '@ton/core';

/** The fee and royalty shares are in 1/100000 of the price. */
export const SHARE_BASE = 100_000n;
/** What the NFT's transfer to the listing must forward: the sale's deployment and the NFT's next transfer. */
export const LISTING_MIN_FORWARD = 150_000_000n;

export interface ListingParams {
  marketplace: Address;
  feeAddress: Address;
  /** The marketplace's share of every price, in 1/100000. */
  feeShare: number;
  saleCode: Cell;
}

export function listingData(p: ListingParams): Cell {
  return beginCell().storeAddress(p.marketplace).storeAddress(p.feeAddress).storeUint(p.feeShare, 17).storeRef(p.saleCode).endCell();
}

export function listingInit(code: Cell, p: ListingParams): StateInit {
  return { code, data: listingData(p) };
}

export const listingAddress = (code: Cell, p: ListingParams): Address => contractAddress(0, listingInit(code, p));

export interface ListingTerms {
  fullPrice: bigint;
  royaltyAddress: Address;
  /** The creator's share of the price, in 1/100000. */
  royaltyShare: number;
}

/** The seller's terms, the forward payload (inline) of the NFT's transfer to the listing. */
export const listingTermsPayload = (t: ListingTerms): Cell =>
  beginCell().storeCoins(t.fullPrice).storeAddress(t.royaltyAddress).storeUint(t.royaltyShare, 17).endCell();

export interface SaleV4r1Params extends ListingTerms {
  marketplace: Address;
  seller: Address;
  feeAddress: Address;
  feeShare: number;
  nft: Address;
  createdAt: number;
}

/** A v4r1-layout sale as the listing deploys it: not complete, not sold, the NFT not arrived yet. */
export function saleV4r1Data(p: SaleV4r1Params): Cell {
  return beginCell()
    .storeUint(0, 1)
    .storeAddress(p.marketplace)
    .storeAddress(p.seller)
    .storeCoins(p.fullPrice)
    .storeUint(0, 32)
    .storeUint(0, 64)
    .storeRef(
      beginCell()
        .storeAddress(p.feeAddress)
        .storeAddress(p.royaltyAddress)
        .storeUint(p.feeShare, 17)
        .storeUint(p.royaltyShare, 17)
        .storeAddress(p.nft)
        .storeUint(p.createdAt, 32)
        .endCell(),
    )
    .storeUint(0, 1)
    .endCell();
}
