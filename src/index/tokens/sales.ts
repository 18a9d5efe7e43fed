/**
 * NFT sale contracts, detected as toncenter's indexer does (GetGemsNftFixPriceSale, smc-interfaces/NftSale.cpp):
 * `get_sale_data` answering at least 11 values, bottom first
 *   (int magic = 0x46495850 "FIXP", int is_complete, int created_at, slice marketplace, slice nft,
 *    slice nft_owner (addr_none: not active yet), int full_price, slice marketplace_fee_address,
 *    int marketplace_fee, slice royalty_address, int royalty_amount)
 * getgems' auctions answer get_sale_data too, with magic 0x415543 "AUC" (or get_auction_data_v4, tried first, as
 * toncenter does): `readSaleContract` asks once and reads the answer as a sale or an auction (auctions.ts) by its
 * magic. Another magic, another shape: neither (remembered by code hash, as every detector's miss). getgems' v4
 * sales answer no get_sale_data: get_fix_price_data_v4 (`fixPriceSaleOfV4`), asked when get_sale_data is missing or
 * answers neither, as toncenter's GetGemsNftFixPriceSaleV4 detector does beside the others.
 */
import type { Address } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { VmValue } from '../../ton/vm-stack.js';
import type { InsertBatch } from '../sql/driver.js';
import { AUCTION_MAGIC, auctionOfSaleData, auctionOfV4Data, type NftAuctionRow } from './auctions.js';
import type { TokenAccountCandidate } from './block-tokens.js';
import type { GetMethodRunner } from './get-methods.js';

export const FIX_PRICE_SALE_MAGIC = 0x46495850n;

export interface NftSaleRow {
  address: string;
  /** toncenter's sale type: getgems_sale (fixed price). */
  type: 'getgems_sale';
  isComplete: boolean;
  createdAt: bigint;
  marketplace: string | null;
  nft: string;
  /** The seller; null until the NFT arrived. */
  nftOwner: string | null;
  fullPrice: bigint;
  marketplaceFeeAddress: string | null;
  marketplaceFee: bigint;
  royaltyAddress: string | null;
  royaltyAmount: bigint;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const raw = (address: Address | null) => (address ? formatRawUpper(address) : null);

/** What a getgems sale contract is: a fixed-price sale or an auction. */
export interface SaleContract {
  sale?: NftSaleRow;
  auction?: NftAuctionRow;
}

/**
 * The sale or auction a candidate is (get_auction_data_v4 first when the code has it, then one get_sale_data read by
 * its magic, then get_fix_price_data_v4 when the code has it); throws NotThatContract when it is neither.
 */
export async function readSaleContract(runner: GetMethodRunner, c: TokenAccountCandidate, seqno: number): Promise<SaleContract> {
  const methods = c.methods as string[];
  if (methods.includes('get_auction_data_v4')) {
    const v4 = await runner.run(c.account, 'get_auction_data_v4', [], seqno);
    if (v4 !== null) {
      try {
        return { auction: auctionOfV4Data(v4, c) };
      } catch (error) {
        // toncenter falls back to get_sale_data when the v4 answer does not fit.
        if (!(error instanceof NotThatContract)) throw error;
      }
    }
  }
  const v4Sale = methods.includes('get_fix_price_data_v4');
  if (methods.includes('get_sale_data')) {
    try {
      return await saleDataContract(runner, c, seqno);
    } catch (error) {
      // A code with both is read by get_sale_data when that answers as a sale or an auction (toncenter keeps the v4
      // reading only when it is of a later state), else by get_fix_price_data_v4.
      if (!(error instanceof NotThatContract) || !v4Sale) throw error;
    }
  }
  if (!v4Sale) throw new NotThatContract('get_auction_data_v4: not an auction');
  const values = await runner.run(c.account, 'get_fix_price_data_v4', [], seqno);
  if (values === null) throw new NotThatContract('get_fix_price_data_v4 failed');
  return { sale: fixPriceSaleOfV4(values, c) };
}

async function saleDataContract(runner: GetMethodRunner, c: TokenAccountCandidate, seqno: number): Promise<SaleContract> {
  const values = await runner.run(c.account, 'get_sale_data', [], seqno);
  if (values === null) throw new NotThatContract('get_sale_data failed');
  if (new StackReader(values, 'get_sale_data').int(0) === AUCTION_MAGIC) return { auction: auctionOfSaleData(values, c) };
  return { sale: fixPriceSaleOf(values, c) };
}

/** The sale a get_sale_data answer describes; throws NotThatContract when it is not a fixed-price sale's. */
export function fixPriceSaleOf(values: VmValue[], c: TokenAccountCandidate): NftSaleRow {
  const s = new StackReader(values, 'get_sale_data');
  if (s.int(0) !== FIX_PRICE_SALE_MAGIC) throw new NotThatContract('get_sale_data: not a fixed-price sale');
  return saleAt(s, 'get_sale_data', 1, c);
}

/**
 * The sale a getgems v4 sale's get_fix_price_data_v4 answer describes (toncenter's GetGemsNftFixPriceSaleV4,
 * smc-interfaces/NftSaleV4.cpp): 13 values, bottom first: get_sale_data's ten after its magic, then int sold_at, int
 * sold_query_id, cell jetton prices or null. getgems' v4r1 answers its fee and royalty there as shares of 100,000, and
 * toncenter stores them as they come, in the same columns as an older sale's amounts: so does tongate. sold_at,
 * sold_query_id and the jetton prices are toncenter's v4-only columns, which its API does not answer: not stored.
 */
export function fixPriceSaleOfV4(values: VmValue[], c: TokenAccountCandidate): NftSaleRow {
  const what = 'get_fix_price_data_v4';
  const s = new StackReader(values, what);
  // toncenter's reader wants all 13, typed as above (the last a cell or null).
  const prices = values.length > 12 ? values[12] : undefined;
  if (prices === undefined || (prices.type !== 'null' && prices.type !== 'cell'))
    throw new NotThatContract(`${what}: expected 13 values, the last a cell or null`);
  s.int(10);
  s.int(11);
  return saleAt(s, what, 0, c);
}

/**
 * The ten values both getters answer in this order from `first` on: int is_complete, int created_at, slice
 * marketplace, slice nft, slice nft_owner (addr_none until the NFT arrived), int full_price, slice
 * marketplace_fee_address, int marketplace_fee, slice royalty_address, int royalty_amount.
 */
function saleAt(s: StackReader, what: string, first: number, c: TokenAccountCandidate): NftSaleRow {
  const nft = raw(s.address(first + 3));
  if (!nft) throw new NotThatContract(`${what}: no nft`);
  const createdAt = s.int(first + 1);
  // Stored as a 64-bit integer: an answer beyond it is no sale's (getgems writes a uint32).
  if (createdAt < 0n || createdAt >= 1n << 63n) throw new NotThatContract(`${what}: created_at out of range`);
  return {
    address: c.account,
    type: 'getgems_sale',
    isComplete: s.int(first) !== 0n,
    createdAt,
    marketplace: raw(s.address(first + 2)),
    nft,
    nftOwner: raw(s.address(first + 4)),
    fullPrice: s.int(first + 5),
    marketplaceFeeAddress: raw(s.address(first + 6)),
    marketplaceFee: s.int(first + 7),
    royaltyAddress: raw(s.address(first + 8)),
    royaltyAmount: s.int(first + 9),
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
}

const SALE_COLUMNS = [
  'address',
  'type',
  'is_complete',
  'created_at',
  'marketplace_address',
  'nft_address',
  'nft_owner_address',
  'full_price',
  'marketplace_fee_address',
  'marketplace_fee',
  'royalty_address',
  'royalty_amount',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];

/** A newer state replaces an older one; first_lt (insertion order) stays, as for every token table. */
export function saleBatch(rows: NftSaleRow[]): InsertBatch {
  const updates = SALE_COLUMNS.filter((c) => c !== 'address' && c !== 'first_lt').map((c) => `${c} = excluded.${c}`);
  return {
    table: 'nft_sales',
    columns: SALE_COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.type,
      r.isComplete ? 1 : 0,
      r.createdAt,
      r.marketplace,
      r.nft,
      r.nftOwner,
      r.fullPrice.toString(),
      r.marketplaceFeeAddress,
      r.marketplaceFee.toString(),
      r.royaltyAddress,
      r.royaltyAmount.toString(),
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.lastTxLt,
    ]),
    conflict: `ON CONFLICT (address) DO UPDATE SET ${updates.join(', ')} WHERE excluded.last_transaction_lt >= nft_sales.last_transaction_lt`,
  };
}
