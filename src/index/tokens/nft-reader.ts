/**
 * The NFT tables' queries, with ton-index-go's filters and orders (crud_nft.go):
 *   collections  insertion order (first_lt, address)
 *   items        insertion order; owner -> (owner, collection, index); one collection -> (collection, index);
 *                sort_by_last_transaction_lt -> last_transaction_lt desc
 *   transfers    tx_lt (tx_now when a utime bound is given), then tx_hash; aborted ones kept
 * An item is on sale when its owner is a sale contract of that item (nft_sales, sales.ts) or an auction of that item
 * (nft_auctions, auctions.ts): ton-index-go's joins, whatever the sale's is_complete or the auction's end says; its
 * real_owner is then the sale's (auction's) seller, else its owner.
 */
import type { SqlReads, SqlRow, SqlValue } from '../sql/driver.js';
import { bigint, bytes, int, optionalBytes, optionalText, text } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import type { Page, SortOrder, Window } from '../types.js';
import { eitherColumnPage } from './either-column-page.js';
import { indexOrder } from './token-rows.js';

export interface NftCollectionRecord {
  address: string;
  ownerAddress: string | null;
  nextItemIndex: string;
  /** JSON text. */
  collectionContent: string;
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

export interface NftItemRecord {
  address: string;
  init: boolean;
  index: string;
  collectionAddress: string | null;
  ownerAddress: string | null;
  /** JSON text, null for an item not initialized yet. */
  content: string | null;
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
  /** The sale contract that owns the item and sells it (nft_sales); null when not on sale. */
  saleAddress: string | null;
  /** That sale's seller (null while the sale has none). */
  saleOwner: string | null;
  /** The auction contract that owns the item and auctions it (nft_auctions); null when not on auction. */
  auctionAddress: string | null;
  /** That auction's seller (null while it has none). */
  auctionOwner: string | null;
}

export interface NftSaleRecord {
  address: string;
  type: string;
  isComplete: boolean;
  createdAt: number;
  marketplaceAddress: string | null;
  nftAddress: string;
  nftOwnerAddress: string | null;
  fullPrice: string;
  marketplaceFeeAddress: string | null;
  marketplaceFee: string;
  royaltyAddress: string | null;
  royaltyAmount: string;
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

/** An auction as ton-index-go answers it (getgems_nft_auctions' columns it reads). */
export interface NftAuctionRecord {
  address: string;
  nftAddress: string;
  nftOwnerAddress: string | null;
  marketplaceAddress: string;
  createdAt: number;
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
  end: boolean;
  endTime: number;
  lastBid: string;
  lastMember: string | null;
  minStep: number;
  mpFeeAddress: string;
  mpFeeFactor: number;
  mpFeeBase: number;
  royaltyFeeAddress: string;
  royaltyFeeFactor: number;
  royaltyFeeBase: number;
  maxBid: string;
  minBid: string;
  lastBidAt: number;
  isCanceled: boolean;
}

export interface NftTransferRecord {
  txHash: Buffer;
  txLt: bigint;
  txNow: number;
  txAborted: boolean;
  queryId: string;
  itemAddress: string;
  collectionAddress: string | null;
  oldOwner: string | null;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: Buffer | null;
  forwardAmount: string | null;
  forwardPayload: Buffer | null;
  traceId: Buffer | null;
}

export interface NftItemFilter {
  addresses?: string[];
  owners?: string[];
  collections?: string[];
  /** Decimal item indexes (with collections only). */
  indexes?: string[];
  /** The owner filter reads real_owner (the seller of an item on sale) instead of owner_address. */
  includeOnSale?: boolean;
  sortByLastTransactionLt?: boolean;
}

export interface NftTransferFilter extends Window {
  owners?: string[];
  /** With owners: in = they became the owner, out = they gave it; absent = either. */
  direction?: 'in' | 'out';
  items?: string[];
  collection?: string;
}

function collectionOf(row: SqlRow): NftCollectionRecord {
  return {
    address: text(row.address),
    ownerAddress: optionalText(row.owner_address),
    nextItemIndex: text(row.next_item_index),
    collectionContent: text(row.collection_content),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
  };
}

function itemOf(row: SqlRow): NftItemRecord {
  return {
    address: text(row.address),
    init: int(row.init) !== 0,
    index: text(row.item_index),
    collectionAddress: optionalText(row.collection_address),
    ownerAddress: optionalText(row.owner_address),
    content: optionalText(row.content),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
    saleAddress: optionalText(row.sale_address),
    saleOwner: optionalText(row.sale_owner),
    auctionAddress: optionalText(row.auction_address),
    auctionOwner: optionalText(row.auction_owner),
  };
}

function auctionOf(row: SqlRow): NftAuctionRecord {
  return {
    address: text(row.address),
    nftAddress: text(row.nft_addr),
    nftOwnerAddress: optionalText(row.nft_owner),
    marketplaceAddress: text(row.mp_addr),
    createdAt: int(row.created_at),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
    end: int(row.end_flag) !== 0,
    endTime: int(row.end_time),
    lastBid: text(row.last_bid),
    lastMember: optionalText(row.last_member),
    minStep: int(row.min_step),
    mpFeeAddress: text(row.mp_fee_addr),
    mpFeeFactor: int(row.mp_fee_factor),
    mpFeeBase: int(row.mp_fee_base),
    royaltyFeeAddress: text(row.royalty_fee_addr),
    royaltyFeeFactor: int(row.royalty_fee_factor),
    royaltyFeeBase: int(row.royalty_fee_base),
    maxBid: text(row.max_bid),
    minBid: text(row.min_bid),
    lastBidAt: int(row.last_bid_at),
    isCanceled: int(row.is_canceled) !== 0,
  };
}

function saleOf(row: SqlRow): NftSaleRecord {
  return {
    address: text(row.address),
    type: text(row.type),
    isComplete: int(row.is_complete) !== 0,
    createdAt: int(row.created_at),
    marketplaceAddress: optionalText(row.marketplace_address),
    nftAddress: text(row.nft_address),
    nftOwnerAddress: optionalText(row.nft_owner_address),
    fullPrice: text(row.full_price),
    marketplaceFeeAddress: optionalText(row.marketplace_fee_address),
    marketplaceFee: text(row.marketplace_fee),
    royaltyAddress: optionalText(row.royalty_address),
    royaltyAmount: text(row.royalty_amount),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
  };
}

/**
 * Items with the sale or auction that owns them, if any (ton-index-go: left joins on owner = sale and sale.nft =
 * item, owner = auction and auction.nft_addr = item).
 */
const ITEMS_WITH_SALE = `SELECT N.*, S.address AS sale_address, S.nft_owner_address AS sale_owner, A.address AS auction_address, A.nft_owner AS auction_owner
  FROM nft_items N LEFT JOIN nft_sales S ON S.address = N.owner_address AND S.nft_address = N.address
  LEFT JOIN nft_auctions A ON A.address = N.owner_address AND A.nft_addr = N.address`;

export class NftReader {
  constructor(private readonly reads: SqlReads) {}

  async collections(filter: { addresses?: string[]; owners?: string[] }, p: Page): Promise<NftCollectionRecord[]> {
    const where = new Where().in('address', filter.addresses).in('owner_address', filter.owners);
    return (await this.reads.all(`SELECT * FROM nft_collections ${where} ORDER BY first_lt, address ${pageSql(p)}`, where.params)).map(
      collectionOf,
    );
  }

  /** Collections by address (the `collection` of items, metadata). */
  async collectionsByAddress(addresses: readonly string[]): Promise<NftCollectionRecord[]> {
    const list = [...new Set(addresses)];
    if (list.length === 0) return [];
    return (await this.reads.all(`SELECT * FROM nft_collections WHERE address IN (${placeholders(list)})`, list)).map(collectionOf);
  }

  async items(filter: NftItemFilter, p: Page): Promise<NftItemRecord[]> {
    const where = new Where().in('N.address', filter.addresses).in('N.collection_address', filter.collections);
    const owners = filter.owners ?? [];
    if (owners.length > 0 && filter.includeOnSale) {
      // real_owner IN owners. The first condition narrows to the candidates through indexes (items by owner,
      // sales and auctions by seller); the second is the exact rule (an item a sale owns belongs to its seller, not
      // to the sale; the same for an auction). As a UNION, not an OR: PostgreSQL turns `owner IN (..) OR address IN (subquery)` into a walk of
      // the whole owner index (200 ms at 100k items for an owner late in it; 1 ms as a UNION; README).
      where.add(
        `N.address IN (SELECT address FROM nft_items WHERE owner_address IN (${placeholders(owners)}) UNION SELECT nft_address FROM nft_sales WHERE nft_owner_address IN (${placeholders(owners)}) UNION SELECT nft_addr FROM nft_auctions WHERE nft_owner IN (${placeholders(owners)}))`,
        ...owners,
        ...owners,
        ...owners,
      );
      where.add(`COALESCE(S.nft_owner_address, A.nft_owner, N.owner_address) IN (${placeholders(owners)})`, ...owners);
    } else {
      where.in('N.owner_address', owners);
    }
    where.in(
      'N.index_order',
      filter.indexes?.map((i) => indexOrder(BigInt(i))),
    );
    let orderBy = 'N.first_lt, N.address';
    if (owners.length > 0) orderBy = 'N.owner_address, N.collection_address, N.index_order';
    else if (filter.collections?.length === 1) orderBy = 'N.collection_address, N.index_order';
    else if (filter.addresses?.length) orderBy = 'N.address';
    if (filter.sortByLastTransactionLt) orderBy = 'N.last_transaction_lt DESC, N.address';
    return (await this.reads.all(`${ITEMS_WITH_SALE} ${where} ORDER BY ${orderBy} ${pageSql(p)}`, where.params)).map(itemOf);
  }

  async itemsByAddress(addresses: readonly string[]): Promise<NftItemRecord[]> {
    const list = [...new Set(addresses)];
    if (list.length === 0) return [];
    return (await this.reads.all(`${ITEMS_WITH_SALE} WHERE N.address IN (${placeholders(list)})`, list as SqlValue[])).map(itemOf);
  }

  /** Sales by contract address (/nft/sales), in address order. */
  async sales(addresses: readonly string[]): Promise<NftSaleRecord[]> {
    const list = [...new Set(addresses)];
    if (list.length === 0) return [];
    return (
      await this.reads.all(`SELECT * FROM nft_sales WHERE address IN (${placeholders(list)}) ORDER BY address`, list as SqlValue[])
    ).map(saleOf);
  }

  /** Auctions by contract address (/nft/sales), in address order. */
  async auctions(addresses: readonly string[]): Promise<NftAuctionRecord[]> {
    const list = [...new Set(addresses)];
    if (list.length === 0) return [];
    return (
      await this.reads.all(`SELECT * FROM nft_auctions WHERE address IN (${placeholders(list)}) ORDER BY address`, list as SqlValue[])
    ).map(auctionOf);
  }

  async transfers(filter: NftTransferFilter, sort: SortOrder, p: Page): Promise<NftTransferRecord[]> {
    const where = new Where();
    const owners = filter.owners ?? [];
    if (filter.direction === 'in') where.in('new_owner', owners);
    else if (filter.direction === 'out') where.in('old_owner', owners);
    where.in('nft_item_address', filter.items).add('nft_collection_address = ?', filter.collection);
    where
      .add('tx_now >= ?', filter.startUtime)
      .add('tx_now <= ?', filter.endUtime)
      .add('tx_lt >= ?', filter.startLt)
      .add('tx_lt <= ?', filter.endLt);
    const column = filter.startUtime !== undefined || filter.endUtime !== undefined ? 'tx_now' : 'tx_lt';
    const orderBy = `${column} ${orderSql(sort)}, tx_hash ${orderSql(sort)}`;
    // Either side: two index scans merged (either-column-page.ts), not an OR.
    const { sql, params } =
      owners.length > 0 && !filter.direction
        ? eitherColumnPage({ table: 'nft_transfers', columns: ['old_owner', 'new_owner'], values: owners, shared: where, orderBy, page: p })
        : { sql: `SELECT * FROM nft_transfers ${where} ORDER BY ${orderBy} ${pageSql(p)}`, params: where.params };
    const rows = await this.reads.all(sql, params);
    return rows.map((row) => ({
      txHash: bytes(row.tx_hash),
      txLt: bigint(row.tx_lt),
      txNow: int(row.tx_now),
      txAborted: int(row.tx_aborted) !== 0,
      queryId: text(row.query_id),
      itemAddress: text(row.nft_item_address),
      collectionAddress: optionalText(row.nft_collection_address),
      oldOwner: optionalText(row.old_owner),
      newOwner: optionalText(row.new_owner),
      responseDestination: optionalText(row.response_destination),
      customPayload: optionalBytes(row.custom_payload),
      forwardAmount: optionalText(row.forward_amount),
      forwardPayload: optionalBytes(row.forward_payload),
      traceId: optionalBytes(row.trace_id),
    }));
  }
}
