/**
 * tongate's fixed-price NFT sale (sale.fc.ts, getgems' get_sale_data layout): data, StateInit and message bodies.
 * The code is the caller's (tests compile the source with func-js).
 */
import { beginCell, contractAddress, type Address, type Cell, type StateInit } from '@ton/core';

export const NFT_SALE_OP = { buy: 2, cancel: 3, update: 0x6c6c2080 } as const;
/** "FIXP": the first value of get_sale_data, how toncenter's indexer knows a fixed-price sale. */
export const FIX_PRICE_SALE_MAGIC = 0x46495850;
/** What a buyer pays on top of the price (the sale's messages); what is left comes back with the NFT. */
export const SALE_GAS = 100_000_000n;

export interface NftSaleParams {
  marketplace: Address;
  nft: Address;
  fullPrice: bigint;
  marketplaceFeeAddress: Address;
  marketplaceFee: bigint;
  royaltyAddress: Address;
  royaltyAmount: bigint;
  /** Unix time the sale was made (get_sale_data's created_at). */
  createdAt: number;
}

/** The sale as deployed: not complete, no owner yet (the NFT's ownership_assigned names the seller). */
export function nftSaleData(p: NftSaleParams): Cell {
  return beginCell()
    .storeUint(0, 1)
    .storeUint(p.createdAt, 32)
    .storeAddress(p.marketplace)
    .storeAddress(p.nft)
    .storeAddress(null)
    .storeCoins(p.fullPrice)
    .storeRef(
      beginCell()
        .storeAddress(p.marketplaceFeeAddress)
        .storeCoins(p.marketplaceFee)
        .storeAddress(p.royaltyAddress)
        .storeCoins(p.royaltyAmount)
        .endCell(),
    )
    .endCell();
}

export function nftSaleInit(code: Cell, p: NftSaleParams): StateInit {
  return { code, data: nftSaleData(p) };
}

export const nftSaleAddress = (code: Cell, p: NftSaleParams): Address => contractAddress(0, nftSaleInit(code, p));

export const buySaleBody = (queryId = 0n): Cell => beginCell().storeUint(NFT_SALE_OP.buy, 32).storeUint(queryId, 64).endCell();
export const cancelSaleBody = (queryId = 0n): Cell => beginCell().storeUint(NFT_SALE_OP.cancel, 32).storeUint(queryId, 64).endCell();

/** sale_update: the seller's new price, marketplace fee and royalty (toncenter's `nft_update_sale`). */
export const saleUpdateBody = (terms: { fullPrice: bigint; marketplaceFee: bigint; royaltyAmount: bigint }, queryId = 0n): Cell =>
  beginCell()
    .storeUint(NFT_SALE_OP.update, 32)
    .storeUint(queryId, 64)
    .storeCoins(terms.fullPrice)
    .storeCoins(terms.marketplaceFee)
    .storeCoins(terms.royaltyAmount)
    .endCell();
