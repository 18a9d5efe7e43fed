/**
 * NFT rows as toncenter's v3 writes them (ton-index-go models/nft.go: field order, lts as strings, hashes
 * and BoCs in base64, null for what is absent). No sales are indexed: `on_sale` is false and the sale
 * fields are left out (toncenter omits them when empty).
 */
import type { NftCollectionRecord, NftItemRecord, NftTransferRecord } from '../../../index/tokens/nft-reader.js';
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

export function nftItemJson(i: NftItemRecord, collection: NftCollectionRecord | undefined) {
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
    on_sale: false,
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
