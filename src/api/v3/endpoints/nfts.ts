/**
 * /nft/collections, /nft/items, /nft/transfers, /nft/sales: the NFT tables the index fills (src/index/tokens), with
 * toncenter's parameters, defaults, 422s and orders (ton-index-go main.go, crud_nft.go, crud_sales.go).
 * Fixed-price sales and auctions are indexed (getgems' get_sale_data layouts, get_auction_data_v4); Telemint items
 * are not.
 */
import { ApiError } from '../../../http/api-error.js';
import { defineEndpoint, indexOf, ref } from '../endpoint.js';
import { nftAuctionJson, nftCollectionJson, nftItemJson, nftSaleJson, nftTransferJson } from '../format/nfts.js';
import { PAGE_PARAMS, SORT_PARAM, WINDOW_PARAMS, windowOf } from '../params.js';
import { answer } from './jettons.js';

export const nftCollections = defineEndpoint({
  path: '/nft/collections',
  tag: 'nfts',
  summary: 'NFT collections, in the order they were first indexed',
  params: {
    collection_address: { type: 'address[]', maxItems: 1024, description: 'Collection address in any form. Max: 1024.' },
    owner_address: { type: 'address[]', maxItems: 1024, description: 'Address of NFT collection owner in any form. Max: 1024.' },
    ...PAGE_PARAMS,
  },
  response: ref('NFTCollectionsResponse'),
  async handle(p, network) {
    const collections = await indexOf(network).nfts.collections({ addresses: p.collection_address, owners: p.owner_address }, p);
    return answer(
      network,
      'nft_collections',
      collections.map(nftCollectionJson),
      collections.flatMap((c) => [c.address, c.ownerAddress]),
    );
  },
});

export const nftItems = defineEndpoint({
  path: '/nft/items',
  tag: 'nfts',
  summary: 'NFT items, by address, owner, collection and index',
  params: {
    address: { type: 'address[]', maxItems: 1000, description: 'NFT item address in any form. Max: 1000.' },
    owner_address: { type: 'address[]', maxItems: 1000, description: 'Address of NFT item owner in any form. Max: 1000.' },
    collection_address: { type: 'address[]', maxItems: 1000, description: 'Collection address in any form.' },
    index: { type: 'string[]', maxItems: 1000, description: 'Index of item for given collection. Max: 1000.' },
    include_on_sale: {
      type: 'bool',
      default: false,
      description: 'With owner_address: also the NFTs the owners listed on a sale contract (the filter reads real_owner).',
    },
    sort_by_last_transaction_lt: { type: 'bool', default: false, description: 'Sort NFT items by last transaction lt descending.' },
    ...PAGE_PARAMS,
  },
  response: ref('NFTItemsResponse'),
  async handle(p, network) {
    if (p.index.some((i) => !/^[0-9]+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
    if (p.collection_address.length > 1 && p.owner_address.length !== 1)
      throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
    if (p.index.length > 0 && p.collection_address.length === 0)
      throw new ApiError(422, 'index parameter is not allowed without the collection_address');
    if (p.index.some((i) => i.length > 80)) throw new ApiError(422, 'index: at most 80 digits');
    const reader = indexOf(network);
    const items = await reader.nfts.items(
      {
        addresses: p.address,
        owners: p.owner_address,
        collections: p.collection_address,
        indexes: p.index,
        includeOnSale: p.include_on_sale,
        sortByLastTransactionLt: p.sort_by_last_transaction_lt,
      },
      p,
    );
    const collections = new Map(
      (await reader.nfts.collectionsByAddress(items.flatMap((i) => (i.collectionAddress ? [i.collectionAddress] : [])))).map((c) => [
        c.address,
        c,
      ]),
    );
    return answer(
      network,
      'nft_items',
      items.map((i) => nftItemJson(i, i.collectionAddress ? collections.get(i.collectionAddress) : undefined)),
      items.flatMap((i) => [i.address, i.collectionAddress, i.ownerAddress]),
    );
  },
});

export const nftTransfers = defineEndpoint({
  path: '/nft/transfers',
  tag: 'nfts',
  summary: 'NFT transfers (one row per item transaction; aborted ones included, as toncenter does)',
  params: {
    owner_address: { type: 'address[]', maxItems: 1000, description: 'Address of NFT owner in any form. Max 1000' },
    address: { type: 'address', description: 'An owner address (used when owner_address is absent, as toncenter accepts it).' },
    item_address: { type: 'address[]', maxItems: 1000, description: 'Address of NFT item in any form. Max: 1000.' },
    collection_address: { type: 'address', description: 'Collection address in any form.' },
    direction: {
      type: 'direction|both',
      description: 'Direction of transfer (in: new owner, out: old owner, both). *Note:* applied only with owner_address.',
    },
    ...WINDOW_PARAMS,
    ...PAGE_PARAMS,
    ...SORT_PARAM,
  },
  response: ref('NFTTransfersResponse'),
  async handle(p, network) {
    const owners = p.owner_address.length > 0 ? p.owner_address : p.address !== undefined ? [p.address] : [];
    const transfers = await indexOf(network).nfts.transfers(
      {
        owners,
        direction: p.direction === 'both' ? undefined : p.direction,
        items: p.item_address,
        collection: p.collection_address,
        ...windowOf(p),
      },
      p.sort,
      p,
    );
    return answer(
      network,
      'nft_transfers',
      transfers.map(nftTransferJson),
      transfers.flatMap((t) => [t.itemAddress, t.collectionAddress, t.oldOwner, t.newOwner, t.responseDestination]),
    );
  },
});

export const nftSales = defineEndpoint({
  path: '/nft/sales',
  tag: 'nfts',
  summary: 'NFT sale contracts by address (getgems fixed-price sales, then getgems auctions; Telemint items are not indexed)',
  params: {
    address: {
      type: 'address[]',
      required: true,
      maxItems: 1000,
      missing: 'at least 1 address required',
      description: 'Sale contract address in any form. Max: 1000.',
    },
  },
  response: ref('NFTSalesResponse'),
  async handle(p, network) {
    const reader = indexOf(network);
    // ton-index-go asks sales, then auctions, and answers them in that order.
    const [sales, auctions] = await Promise.all([reader.nfts.sales(p.address), reader.nfts.auctions(p.address)]);
    const items = new Map(
      (await reader.nfts.itemsByAddress([...sales.map((s) => s.nftAddress), ...auctions.map((a) => a.nftAddress)])).map((i) => [
        i.address,
        i,
      ]),
    );
    const collections = new Map(
      (await reader.nfts.collectionsByAddress([...items.values()].flatMap((i) => (i.collectionAddress ? [i.collectionAddress] : [])))).map(
        (c) => [c.address, c],
      ),
    );
    const itemOf = (nft: string) => {
      const item = items.get(nft);
      return [item, item?.collectionAddress ? collections.get(item.collectionAddress) : undefined] as const;
    };
    const rows = [
      ...sales.map((s) => nftSaleJson(s, ...itemOf(s.nftAddress))),
      ...auctions.map((a) => nftAuctionJson(a, ...itemOf(a.nftAddress))),
    ];
    const itemAddresses = (nft: string) => [items.get(nft)?.collectionAddress ?? null, items.get(nft)?.ownerAddress ?? null];
    return answer(network, 'nft_sales', rows, [
      ...sales.flatMap((s) => [
        s.address,
        s.nftAddress,
        s.nftOwnerAddress,
        s.marketplaceAddress,
        s.marketplaceFeeAddress,
        s.royaltyAddress,
        ...itemAddresses(s.nftAddress),
      ]),
      ...auctions.flatMap((a) => [
        a.address,
        a.nftAddress,
        a.nftOwnerAddress,
        a.marketplaceAddress,
        a.lastMember,
        a.mpFeeAddress,
        a.royaltyFeeAddress,
        ...itemAddresses(a.nftAddress),
      ]),
    ]);
  },
});
