/**
 * getgems NFT auctions, detected as toncenter's indexer does (GetGemsNftAuction, smc-interfaces/NftSale.cpp):
 *   v4        `get_auction_data_v4`, at least 26 values, no magic, bottom first
 *             (int activated, int end, int end_time, slice marketplace, slice nft, slice nft_owner, int last_bid,
 *              slice last_member, int min_step, slice mp_fee_address, int mp_fee_factor, int mp_fee_base,
 *              slice royalty_fee_address, int royalty_fee_factor, int royalty_fee_base, int max_bid, int min_bid,
 *              int created_at, int last_bid_at, int is_canceled, int step_time, int last_query_id,
 *              slice jetton_wallet, slice jetton_master, int is_broken_state, int public_key)
 *   v1...v3   `get_sale_data`, at least 20 values (int magic = 0x415543 "AUC", int end, int end_time,
 *              slice marketplace, slice nft, slice nft_owner, int last_bid, slice last_member, int min_step,
 *              slice mp_fee_address, int mp_fee_factor, int mp_fee_base, slice royalty_fee_address,
 *              int royalty_fee_factor, int royalty_fee_base, int max_bid, int min_bid, int created_at,
 *              int last_bid_at, int is_canceled)
 * toncenter tries v4 first and falls back to get_sale_data. `nft_owner`, `last_member`, `jetton_wallet` and
 * `jetton_master` may be addr_none (null); the other addresses must be addresses. The v4-only values are null for
 * older auctions. Stored in nft_auctions (auctions-schema.ts), toncenter's getgems_nft_auctions.
 */
import type { Address } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { VmValue } from '../../ton/vm-stack.js';
import type { InsertBatch } from '../sql/driver.js';
import type { TokenAccountCandidate } from './block-tokens.js';

export const AUCTION_MAGIC = 0x415543n;

export interface NftAuctionRow {
  address: string;
  nft: string;
  /** The seller; null until the NFT arrived. */
  nftOwner: string | null;
  marketplace: string;
  end: boolean;
  endTime: bigint;
  lastBid: bigint;
  /** The last bidder; null before the first bid. */
  lastMember: string | null;
  minStep: bigint;
  mpFeeAddress: string;
  mpFeeFactor: bigint;
  mpFeeBase: bigint;
  royaltyFeeAddress: string;
  royaltyFeeFactor: bigint;
  royaltyFeeBase: bigint;
  maxBid: bigint;
  minBid: bigint;
  createdAt: bigint;
  lastBidAt: bigint;
  isCanceled: boolean;
  /** v4 only (null for v1...v3). */
  v4: {
    activated: boolean;
    stepTime: bigint;
    lastQueryId: bigint;
    jettonWallet: string | null;
    jettonMaster: string | null;
    isBrokenState: boolean;
    publicKey: bigint;
  } | null;
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const raw = (address: Address | null) => (address ? formatRawUpper(address) : null);

/** Stored as a 64-bit integer: toncenter reads these as C++ longs (uint32 / uint64 in getgems' contracts). */
function int64(s: StackReader, index: number, what: string): bigint {
  const value = s.int(index);
  if (value < 0n || value >= 1n << 63n) throw new NotThatContract(`${what}: value ${index} out of range`);
  return value;
}

function required(s: StackReader, index: number, what: string): string {
  const address = raw(s.address(index));
  if (!address) throw new NotThatContract(`${what}: no address at ${index}`);
  return address;
}

/**
 * The values both layouts share, at the same places 1...19: end, end_time, marketplace, nft, nft_owner, last_bid,
 * last_member, min_step, fees, bids, created_at, last_bid_at, is_canceled (place 0 is the magic in v1...v3,
 * `activated` in v4).
 */
function common(s: StackReader, what: string, c: TokenAccountCandidate): Omit<NftAuctionRow, 'v4'> {
  return {
    address: c.account,
    end: s.int(1) !== 0n,
    endTime: int64(s, 2, what),
    marketplace: required(s, 3, what),
    nft: required(s, 4, what),
    nftOwner: raw(s.address(5)),
    lastBid: s.int(6),
    lastMember: raw(s.address(7)),
    minStep: int64(s, 8, what),
    mpFeeAddress: required(s, 9, what),
    mpFeeFactor: int64(s, 10, what),
    mpFeeBase: int64(s, 11, what),
    royaltyFeeAddress: required(s, 12, what),
    royaltyFeeFactor: int64(s, 13, what),
    royaltyFeeBase: int64(s, 14, what),
    maxBid: s.int(15),
    minBid: s.int(16),
    createdAt: int64(s, 17, what),
    lastBidAt: int64(s, 18, what),
    isCanceled: s.int(19) !== 0n,
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
}

/** An auction of getgems' v1...v3 from its get_sale_data answer; throws NotThatContract when it is not one. */
export function auctionOfSaleData(values: VmValue[], c: TokenAccountCandidate): NftAuctionRow {
  const what = 'get_sale_data';
  const s = new StackReader(values, what);
  if (s.int(0) !== AUCTION_MAGIC) throw new NotThatContract(`${what}: not an auction`);
  return { ...common(s, what, c), v4: null };
}

/** A v4 auction from its get_auction_data_v4 answer; throws NotThatContract when the shape is not v4's. */
export function auctionOfV4Data(values: VmValue[], c: TokenAccountCandidate): NftAuctionRow {
  const what = 'get_auction_data_v4';
  const s = new StackReader(values, what);
  const v4 = {
    activated: s.int(0) !== 0n,
    stepTime: int64(s, 20, what),
    lastQueryId: s.int(21),
    jettonWallet: raw(s.address(22)),
    jettonMaster: raw(s.address(23)),
    isBrokenState: s.int(24) !== 0n,
    publicKey: s.int(25),
  };
  if (v4.lastQueryId < 0n || v4.lastQueryId >= 1n << 64n) throw new NotThatContract(`${what}: last_query_id out of range`);
  return { ...common(s, what, c), v4 };
}

const AUCTION_COLUMNS = [
  'address',
  'nft_addr',
  'nft_owner',
  'mp_addr',
  'end_flag',
  'end_time',
  'last_bid',
  'last_member',
  'min_step',
  'mp_fee_addr',
  'mp_fee_factor',
  'mp_fee_base',
  'royalty_fee_addr',
  'royalty_fee_factor',
  'royalty_fee_base',
  'max_bid',
  'min_bid',
  'created_at',
  'last_bid_at',
  'is_canceled',
  'activated',
  'step_time',
  'last_query_id',
  'jetton_wallet',
  'jetton_master',
  'is_broken_state',
  'public_key',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];

const flag = (value: boolean | undefined) => (value === undefined ? null : value ? 1 : 0);

/** A newer state replaces an older one; first_lt (insertion order) stays, as for every token table. */
export function auctionBatch(rows: NftAuctionRow[]): InsertBatch {
  const updates = AUCTION_COLUMNS.filter((c) => c !== 'address' && c !== 'first_lt').map((c) => `${c} = excluded.${c}`);
  return {
    table: 'nft_auctions',
    columns: AUCTION_COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.nft,
      r.nftOwner,
      r.marketplace,
      r.end ? 1 : 0,
      r.endTime,
      r.lastBid.toString(),
      r.lastMember,
      r.minStep,
      r.mpFeeAddress,
      r.mpFeeFactor,
      r.mpFeeBase,
      r.royaltyFeeAddress,
      r.royaltyFeeFactor,
      r.royaltyFeeBase,
      r.maxBid.toString(),
      r.minBid.toString(),
      r.createdAt,
      r.lastBidAt,
      r.isCanceled ? 1 : 0,
      flag(r.v4?.activated),
      r.v4?.stepTime ?? null,
      r.v4 ? r.v4.lastQueryId.toString() : null,
      r.v4?.jettonWallet ?? null,
      r.v4?.jettonMaster ?? null,
      flag(r.v4?.isBrokenState),
      r.v4 ? r.v4.publicKey.toString() : null,
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.lastTxLt,
    ]),
    conflict: `ON CONFLICT (address) DO UPDATE SET ${updates.join(', ')} WHERE excluded.last_transaction_lt >= nft_auctions.last_transaction_lt`,
  };
}
