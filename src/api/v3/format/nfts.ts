/**
 * NFT rows as toncenter's v3 writes them (ton-index-go models/nft.go: field order, lts as strings, hashes
 * and BoCs in base64, null for what is absent). An item a sale contract owns and sells is `on_sale`, with
 * `sale_contract_address` and `real_owner` (the seller); one an auction contract owns and auctions is `on_sale` with
 * `auction_contract_address` and `real_owner` (ton-index-go's ScanNFTItemWithCollection: the sale first, else the
 * auction); toncenter leaves those out when empty (omitempty).
 */
import type {
  NftAuctionRecord,
  NftCollectionRecord,
  NftItemRecord,
  NftSaleRecord,
  NftTransferRecord,
} from '../../../index/tokens/nft-reader.js';
import { b64, decodedPayload } from './jettons.js';

export function nftCollectionJson(c: NftCollectionRecord) {
  return {
    address: c.address,
    owner_address: c.ownerAddress,
    last_transaction_lt: c.lastTransactionLt.toString(),
    next_item_index: c.nextItemIndex,
    collection_content: JSON.parse(c.collectionContent) as Record<string, string>,
    data_hash: b64(c.dataHash),
    code_hash: b64(c.codeHash),
  };
}

/** `withSale`: false inside /nft/sales, whose nft_item ton-index-go builds without the sale fields. */
export function nftItemJson(i: NftItemRecord, collection: NftCollectionRecord | undefined, withSale = true) {
  const sale = withSale && i.saleAddress !== null;
  const auction = withSale && !sale && i.auctionAddress !== null;
  const realOwner = sale ? i.saleOwner : auction ? i.auctionOwner : null;
  return {
    address: i.address,
    init: i.init,
    index: i.index,
    collection_address: i.collectionAddress,
    owner_address: i.ownerAddress,
    content: i.content === null ? null : (JSON.parse(i.content) as Record<string, string>),
    last_transaction_lt: i.lastTransactionLt.toString(),
    code_hash: b64(i.codeHash),
    data_hash: b64(i.dataHash),
    collection: collection ? nftCollectionJson(collection) : null,
    on_sale: sale || auction,
    ...(sale ? { sale_contract_address: i.saleAddress } : {}),
    ...(auction ? { auction_contract_address: i.auctionAddress } : {}),
    ...(realOwner !== null ? { real_owner: realOwner } : {}),
  };
}

/** ton-index-go's NFTSale of type getgems_sale (models/nft.go): the sale, its details, and its item when indexed. */
export function nftSaleJson(s: NftSaleRecord, item: NftItemRecord | undefined, collection: NftCollectionRecord | undefined) {
  return {
    type: s.type,
    address: s.address,
    nft_address: s.nftAddress,
    ...(s.nftOwnerAddress !== null ? { nft_owner_address: s.nftOwnerAddress } : {}),
    ...(s.marketplaceAddress !== null ? { marketplace_address: s.marketplaceAddress } : {}),
    created_at: s.createdAt,
    last_transaction_lt: s.lastTransactionLt.toString(),
    code_hash: b64(s.codeHash),
    data_hash: b64(s.dataHash),
    details: {
      is_complete: s.isComplete,
      full_price: s.fullPrice,
      ...(s.marketplaceFeeAddress !== null ? { marketplace_fee_address: s.marketplaceFeeAddress } : {}),
      marketplace_fee: s.marketplaceFee,
      ...(s.royaltyAddress !== null ? { royalty_address: s.royaltyAddress } : {}),
      royalty_amount: s.royaltyAmount,
    },
    ...(item ? { nft_item: nftItemJson(item, collection, false) } : {}),
  };
}

/**
 * ton-index-go's NFTSale of type getgems_auction (models/nft.go NFTSaleDetailsGetgemsAuction): the auction's
 * columns it reads, its details (every one present: they are never null in the table), and its item when indexed.
 */
export function nftAuctionJson(a: NftAuctionRecord, item: NftItemRecord | undefined, collection: NftCollectionRecord | undefined) {
  return {
    type: 'getgems_auction',
    address: a.address,
    nft_address: a.nftAddress,
    ...(a.nftOwnerAddress !== null ? { nft_owner_address: a.nftOwnerAddress } : {}),
    marketplace_address: a.marketplaceAddress,
    created_at: a.createdAt,
    last_transaction_lt: a.lastTransactionLt.toString(),
    code_hash: b64(a.codeHash),
    data_hash: b64(a.dataHash),
    details: {
      end_flag: a.end,
      end_time: a.endTime,
      last_bid: a.lastBid,
      ...(a.lastMember !== null ? { last_member: a.lastMember } : {}),
      min_step: a.minStep,
      mp_fee_address: a.mpFeeAddress,
      mp_fee_factor: a.mpFeeFactor,
      mp_fee_base: a.mpFeeBase,
      royalty_fee_address: a.royaltyFeeAddress,
      royalty_fee_factor: a.royaltyFeeFactor,
      royalty_fee_base: a.royaltyFeeBase,
      max_bid: a.maxBid,
      min_bid: a.minBid,
      last_bid_at: a.lastBidAt,
      is_canceled: a.isCanceled,
    },
    ...(item ? { nft_item: nftItemJson(item, collection, false) } : {}),
  };
}

export function nftTransferJson(t: NftTransferRecord) {
  return {
    query_id: t.queryId,
    nft_address: t.itemAddress,
    nft_collection: t.collectionAddress,
    transaction_hash: b64(t.txHash),
    transaction_lt: t.txLt.toString(),
    transaction_now: t.txNow,
    transaction_aborted: t.txAborted,
    old_owner: t.oldOwner,
    new_owner: t.newOwner,
    response_destination: t.responseDestination,
    custom_payload: b64(t.customPayload),
    decoded_custom_payload: decodedPayload(t.customPayload),
    forward_amount: t.forwardAmount,
    forward_payload: b64(t.forwardPayload),
    decoded_forward_payload: decodedPayload(t.forwardPayload),
    trace_id: b64(t.traceId),
  };
}
