/**
 * getgems NFT auctions (ton-indexer's `blocks/auction.py`, `messages/getgems.py`), on auctions the index detected
 * (`../tokens/auctions.ts`, toncenter's `get_nft_auction`):
 *   bid            a plain TON transfer (no deployment; not the comments "cancel", "finish", "stop") into a detected
 *                  auction: `auction_bid`, with the auction's NFT (its index and collection when the index knows it)
 *   outbid         after a bid, the auction's one TON transfer whose comment says "Your bid has been outbid by
 *                  another user": `auction_outbid` to the bidder it refunds (more than one such transfer: none)
 *   finish         "finish"/"stop" (a comment, or op 0x20c9eb18 / 0xb95616b6) to an auction whose NFT's purchase
 *                  follows (the NFT's transfer marked as one in nfts.ts, with the payout to the seller):
 *                  `nft_finish_auction` without the marketplace address, as toncenter builds it there
 *   cancel         "cancel"/"finish"/"stop" (a comment, or op 0x5616c572 / 0x20c9eb18 / 0xb95616b6) to an auction
 *                  whose NFT's transfer follows: `nft_cancel_auction`, or `nft_finish_auction` for finish and stop,
 *                  with the auction's marketplace address
 *   put on auction an NFT transfer to a listing contract that deploys a detected auction and hands it the NFT
 *                  (nft-sales.ts's listing matcher, which asks for a sale first): `nft_put_on_auction`, the fees and
 *                  bids read from the auction's StateInit in the layout its code hash names (`auctionTerms`)
 * Only the request is folded into a cancel or finish (the NFT's way stays an `nft_transfer` or `nft_purchase`), as
 * toncenter does. A Telegram or .ton DNS item (telemint.ts) is its own auction: a plain TON transfer into it is a
 * bid too (a DNS item's only when it refunded the bid it outbid, toncenter's guard), and its
 * outbid_notification#557cea20 to that bidder the `auction_outbid` (no comment).
 */
import type { Cell } from '@ton/core';
import { CallContractBlock, folded, TonTransferBlock, type Block } from './blocks.js';
import { readAddress } from './bodies.js';
import { BlockTypeMatcher, Matcher } from './matcher.js';
import type { NftTransferData } from './nfts.js';
import type { KnownContracts } from './trace-input.js';
import { str, omitEmpty, type ActionParts } from './details-common.js';

const OP_CANCEL = 0x5616c572;
const OP_FINISH = 0x20c9eb18;
const OP_STOP = 0xb95616b6;
const OUTBID_COMMENT = 'Your bid has been outbid by another user';
/** What a Telegram or DNS item (telemint.ts) sends the bidder a new bid outbid, with the refund. */
const OP_OUTBID_NOTIFICATION = 0x557cea20;

export interface AuctionBidData {
  /** getgems' auction contract, or a Telegram or DNS item auctioning itself (toncenter's `auction_type`). */
  kind: 'getgems' | 'fragment';
  amount: bigint | null;
  bidder: string | null;
  auction: string;
  item: string;
  index: string | null;
  collection: string | null;
}

export interface AuctionOutbidData {
  auction: string;
  item: string;
  collection: string | null;
  /** The bidder refunded. */
  bidder: string | null;
  /** The bid that outbid them. */
  newBidder: string | null;
  amount: bigint | null;
  comment: string | null;
}

export interface NftAuctionTradeData {
  item: string;
  collection: string | null;
  owner: string | null;
  auction: string;
  marketplaceAddress: string | null;
}

export interface NftPutOnAuctionData {
  item: string;
  index: string;
  collection: string | null;
  owner: string | null;
  listing: string | null;
  auction: string;
  mpFeeAddress: string | null;
  mpFeeFactor: bigint | null;
  mpFeeBase: bigint | null;
  royaltyFeeAddress: string | null;
  royaltyFeeBase: bigint | null;
  maxBid: bigint | null;
  minBid: bigint | null;
}

/** What an auction's StateInit says of its terms (the part of toncenter's NftAuctionData the actions show). */
export interface AuctionTerms {
  mpFeeAddress: string | null;
  mpFeeFactor: bigint;
  mpFeeBase: bigint;
  royaltyFeeAddress: string | null;
  royaltyFeeBase: bigint;
  maxBid: bigint;
  minBid: bigint;
}

/** getgems' auction versions by code hash (`messages/getgems.py`); any other code is read as v3r3, as toncenter. */
const AUCTION_LAYOUTS: Readonly<Record<string, 'v1' | 'v2' | 'v3r2' | 'v3r3' | 'v4r1'>> = {
  'zlp4U06qps7tja/UhtB262CpsNbb+1Nnb2YmScBomVY=': 'v4r1',
  'ZmiHL6eXBUQ//UdSPo6eqfdquZ+aC1nSfej4GhwnudQ=': 'v2',
  'G9nFo5v/t6DzQViLXdkrgTqEK/Ze8UEJOCIAzq+Pct8=': 'v3r2',
  'u29ireD+stefqzuK6/CTCvmFU99gCTsgJ/Covxab/Ow=': 'v3r3',
  '/ACindAgW83MDT/7nKOMw8jBWexg2KpUMkCpLxBZLUA=': 'v1',
};

/**
 * The auction's terms from its StateInit's data, in the layout its code hash names; throws when it does not parse
 * or the layout is one toncenter does not read (v2: no listing action there either).
 *   v1    ^[fees: mp_fee_addr mp_fee_factor:32 mp_fee_base:32 royalty_fee_addr royalty_fee_factor:32 royalty_fee_base:32]
 *         ^[bids: min_bid:Coins max_bid:Coins ...]
 *   v3r2  end,activated,canceled:3 last_member last_bid:Coins last_bid_at:32 end_time:32 ^fees(as v1)
 *         ^[constants: sub_gas:32 mp_addr min_bid:Coins max_bid:Coins ...]
 *   v3r3  end,canceled:2 last_member last_bid:Coins last_bid_at:32 end_time:32 nft_owner last_query_id:64
 *         mp_fee_factor:32 mp_fee_base:32 royalty_fee_factor:32 royalty_fee_base:32 ^[mp_fee_addr royalty_fee_addr]
 *         ^[mp_addr min_bid:Coins max_bid:Coins ...]
 *   v4r1  as v3r3 up to last_query_id, then ^[mp_fee_addr royalty_fee_addr mp_fee_factor:32 mp_fee_base:32
 *         royalty_fee_factor:32 royalty_fee_base:32] ^[mp_addr min_bid:Coins max_bid:Coins ...]
 */
export function auctionTerms(stateInit: Cell, codeHash: string): AuctionTerms {
  const init = stateInit.beginParse();
  if (init.loadBit()) init.skip(5); // split_depth
  if (init.loadBit()) init.skip(2); // special
  init.loadMaybeRef(); // code
  const data = init.loadMaybeRef();
  if (!data) throw new Error('an auction StateInit without data');
  const cs = data.beginParse();
  const layout = AUCTION_LAYOUTS[codeHash] ?? 'v3r3';
  if (layout === 'v2') throw new Error('an auction of getgems v2: its data is not read');
  if (layout === 'v1') {
    const fees = cs.loadRef().beginParse();
    const bids = cs.loadRef().beginParse();
    const mpFeeAddress = readAddress(fees);
    const [mpFeeFactor, mpFeeBase] = [BigInt(fees.loadUint(32)), BigInt(fees.loadUint(32))];
    const royaltyFeeAddress = readAddress(fees);
    fees.skip(32); // royalty_fee_factor
    const royaltyFeeBase = BigInt(fees.loadUint(32));
    const minBid = bids.loadCoins();
    return { mpFeeAddress, mpFeeFactor, mpFeeBase, royaltyFeeAddress, royaltyFeeBase, minBid, maxBid: bids.loadCoins() };
  }
  cs.skip(layout === 'v3r2' ? 3 : 2); // end?, (activated?), is_canceled?
  readAddress(cs); // last_member
  cs.loadCoins(); // last_bid
  cs.skip(32 + 32); // last_bid_at, end_time
  if (layout === 'v3r2') {
    const fees = cs.loadRef().beginParse();
    const constants = cs.loadRef().beginParse();
    constants.skip(32); // sub_gas_price_from_bid
    readAddress(constants); // mp_addr
    const minBid = constants.loadCoins();
    const maxBid = constants.loadCoins();
    const mpFeeAddress = readAddress(fees);
    const [mpFeeFactor, mpFeeBase] = [BigInt(fees.loadUint(32)), BigInt(fees.loadUint(32))];
    const royaltyFeeAddress = readAddress(fees);
    fees.skip(32); // royalty_fee_factor
    return { mpFeeAddress, mpFeeFactor, mpFeeBase, royaltyFeeAddress, royaltyFeeBase: BigInt(fees.loadUint(32)), minBid, maxBid };
  }
  readAddress(cs); // nft_owner
  cs.skip(64); // last_query_id
  let factors: bigint[] = [];
  if (layout === 'v3r3') factors = [0, 1, 2, 3].map(() => BigInt(cs.loadUint(32)));
  const fees = cs.loadRef().beginParse();
  const constants = cs.loadRef().beginParse();
  const mpFeeAddress = readAddress(fees);
  const royaltyFeeAddress = readAddress(fees);
  if (layout === 'v4r1') factors = [0, 1, 2, 3].map(() => BigInt(fees.loadUint(32)));
  readAddress(constants); // mp_addr
  const minBid = constants.loadCoins();
  const maxBid = constants.loadCoins();
  return { mpFeeAddress, mpFeeFactor: factors[0], mpFeeBase: factors[1], royaltyFeeAddress, royaltyFeeBase: factors[3], minBid, maxBid };
}

/** A bid: a plain TON transfer into a detected auction, or into a Telegram or DNS item (toncenter asks in that order). */
class AuctionBidMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super({ includeExcess: false });
  }

  override test(block: Block): boolean {
    return block instanceof TonTransferBlock;
  }

  override build(block: Block, _others: Block[]): Block[] {
    const transfer = block as TonTransferBlock;
    const destination = transfer.message.destination;
    if (destination === null || block.contractDeployments.size > 0) return [];
    if (transfer.comment === 'cancel' || transfer.comment === 'finish' || transfer.comment === 'stop') return [];
    const auction = this.contracts.nftAuctions?.get(destination);
    if (!auction) return this.itemBid(transfer, destination);
    const item = this.contracts.nftItems.get(auction.nft);
    const data: AuctionBidData = {
      kind: 'getgems',
      amount: transfer.message.value,
      bidder: transfer.message.source,
      auction: destination!,
      item: auction.nft,
      index: item?.index ?? null,
      collection: item?.collection ?? null,
    };
    return folded('auction_bid', data, [block], block.failed);
  }

  /** A bid on a Telegram or DNS item, which holds its own auction. */
  private itemBid(transfer: TonTransferBlock, address: string): Block[] {
    const item = this.contracts.nftItems.get(address);
    if (!item || !(item.teleitem || item.dns)) return [];
    // A DNS item's bid counts only with the refund of the bid it outbid (toncenter's guard against other transfers).
    if (item.dns && !transfer.nextBlocks.some((b) => isOutbidNotification(b, address))) return [];
    const data: AuctionBidData = {
      kind: 'fragment',
      amount: transfer.message.value,
      bidder: transfer.message.source,
      auction: address,
      item: address,
      index: item.index,
      collection: item.collection,
    };
    return folded('auction_bid', data, [transfer], transfer.failed);
  }
}

const isOutbidNotification = (block: Block, item: string): block is CallContractBlock =>
  block instanceof CallContractBlock && block.opcode === OP_OUTBID_NOTIFICATION && block.message.source === item;

/** The refund of the bid a new bid outbid. */
class AuctionOutbidMatcher extends Matcher {
  constructor() {
    super({ includeExcess: false });
  }

  override test(block: Block): boolean {
    return block.type === 'auction_bid';
  }

  override build(block: Block, _others: Block[]): Block[] {
    const bid = block.data as AuctionBidData;
    if (bid.kind === 'fragment') return this.itemOutbid(block, bid);
    const refunds = block.nextBlocks.filter(
      (b): b is TonTransferBlock =>
        b instanceof TonTransferBlock && b.message.source === bid.auction && (b.comment ?? '').includes(OUTBID_COMMENT),
    );
    // toncenter takes exactly one such transfer, to avoid false positives.
    if (refunds.length !== 1) return [];
    const [refund] = refunds;
    const data: AuctionOutbidData = {
      auction: bid.auction,
      item: bid.item,
      collection: bid.collection,
      bidder: refund.message.destination,
      newBidder: bid.bidder,
      amount: refund.message.value,
      comment: refund.comment,
    };
    return folded('auction_outbid', data, [refund], false);
  }

  /** A Telegram or DNS item's refund: its one outbid notification. */
  private itemOutbid(block: Block, bid: AuctionBidData): Block[] {
    const refunds = block.nextBlocks.filter((b) => isOutbidNotification(b, bid.auction));
    if (refunds.length !== 1) return [];
    const [refund] = refunds as CallContractBlock[];
    const data: AuctionOutbidData = {
      auction: bid.auction,
      item: bid.item,
      collection: bid.collection,
      bidder: refund.message.destination,
      newBidder: bid.bidder,
      amount: refund.message.value,
      comment: null,
    };
    return folded('auction_outbid', data, [refund], false);
  }
}

/** "finish" or "stop" by comment; "cancel" too when `cancel`. */
function auctionCommand(block: Block, cancel: boolean): 'cancel' | 'finish' | null {
  if (block instanceof TonTransferBlock) {
    if (block.comment === 'finish' || block.comment === 'stop') return 'finish';
    return cancel && block.comment === 'cancel' ? 'cancel' : null;
  }
  if (block instanceof CallContractBlock) {
    if (block.opcode === OP_FINISH || block.opcode === OP_STOP) return 'finish';
    return cancel && block.opcode === OP_CANCEL ? 'cancel' : null;
  }
  return null;
}

const destinationOf = (block: Block): string | null => block.eventNodes[0].message.destination;

/** A finish whose NFT was sold to the winner (an nft_purchase follows). */
class NftFinishAuctionMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super({ child: new BlockTypeMatcher('nft_purchase') });
  }

  override test(block: Block): boolean {
    return auctionCommand(block, false) !== null;
  }

  override build(block: Block, others: Block[]): Block[] {
    // nft-sales.ts's NftPurchaseData (not imported: nft-sales.ts reads this room's auction layouts).
    const purchase = others.find((b) => b.type === 'nft_purchase')!.data as { transfer: NftTransferData };
    const address = destinationOf(block);
    const auction = address === null ? undefined : this.contracts.nftAuctions?.get(address);
    if (!auction || auction.nft !== purchase.transfer.item) return [];
    const data: NftAuctionTradeData = {
      item: purchase.transfer.item,
      collection: purchase.transfer.collection,
      owner: purchase.transfer.newOwner,
      auction: address!,
      // toncenter leaves the marketplace address out of this one.
      marketplaceAddress: null,
    };
    return folded('nft_finish_auction', data, [block], false);
  }
}

/** A cancel (or a finish without a purchase): the auction sends its NFT on. */
class NftCancelAuctionMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super({ child: new BlockTypeMatcher('nft_transfer') });
  }

  override test(block: Block): boolean {
    return auctionCommand(block, true) !== null;
  }

  override build(block: Block, others: Block[]): Block[] {
    const sent = others.find((b) => b.type === 'nft_transfer')!.data as NftTransferData;
    const address = destinationOf(block);
    const auction = address === null ? undefined : this.contracts.nftAuctions?.get(address);
    if (!auction || auction.nft !== sent.item) return [];
    const data: NftAuctionTradeData = {
      item: sent.item,
      collection: sent.collection,
      owner: sent.newOwner,
      auction: address!,
      marketplaceAddress: auction.marketplace,
    };
    const type = auctionCommand(block, true) === 'finish' ? 'nft_finish_auction' : 'nft_cancel_auction';
    return folded(type, data, [block], false);
  }
}

export const auctionBidMatcher = (contracts: KnownContracts): Matcher => new AuctionBidMatcher(contracts);
export const auctionOutbidMatcher = (): Matcher => new AuctionOutbidMatcher();
export const nftFinishAuctionMatcher = (contracts: KnownContracts): Matcher => new NftFinishAuctionMatcher(contracts);
export const nftCancelAuctionMatcher = (contracts: KnownContracts): Matcher => new NftCancelAuctionMatcher(contracts);

/**
 * ton-index-go's ActionDetailsNftPutOnAuction: the auction's fees and bids (its royalty factor is not shown); a
 * Telegram item's `teleitem_start_auction` too (no listing, the item its own auction).
 */
export function nftPutOnAuctionParts(d: NftPutOnAuctionData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      owner: d.owner,
      listing_address: d.listing,
      auction_address: d.auction,
      // As for a sale: read from destination_secondary, which toncenter's serializer never fills. Null, kept.
      marketplace_address: null,
      marketplace_fee_factor: str(d.mpFeeFactor),
      marketplace_fee_base: str(d.mpFeeBase),
      royalty_fee_base: str(d.royaltyFeeBase),
      max_bid: str(d.maxBid),
      min_bid: str(d.minBid),
      marketplace_fee_address: d.mpFeeAddress,
      royalty_address: d.royaltyFeeAddress,
      marketplace: null,
    },
    ends: [d.owner, d.listing, d.auction, null],
  };
}

export function auctionBidParts(d: AuctionBidData): ActionParts {
  return {
    details: {
      amount: str(d.amount),
      bidder: d.bidder,
      auction: d.auction,
      nft_item: d.item,
      nft_collection: d.collection,
      nft_item_index: d.index,
    },
    ends: [d.bidder, null, d.auction, null],
    accounts: [d.item],
  };
}

export function auctionOutbidParts(d: AuctionOutbidData): ActionParts {
  return {
    details: {
      auction_address: d.auction,
      bidder: d.bidder,
      new_bidder: d.newBidder,
      nft_item: d.item,
      nft_collection: d.collection,
      amount: str(d.amount),
      // comment and marketplace are omitempty in ton-index-go; the marketplace is never named here.
      ...omitEmpty({ comment: d.comment }),
    },
    ends: [d.auction, d.newBidder, d.bidder, null],
    accounts: [d.item],
  };
}

/**
 * nft_cancel_auction, nft_finish_auction and teleitem_cancel_auction (ton-index-go's ActionDetailsNftCancelAuction /
 * ...FinishAuction).
 */
export function nftAuctionTradeParts(d: NftAuctionTradeData): ActionParts {
  return {
    details: {
      owner: d.owner,
      nft_item: d.item,
      nft_collection: d.collection,
      auction_address: d.auction,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
    },
    ends: [d.owner, null, d.auction, null],
    accounts: [d.item],
  };
}
