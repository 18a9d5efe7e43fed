/**
 * Telegram's items sold on Fragment (usernames and numbers: telemint's NFT items) and .ton DNS items (ton-indexer's
 * `blocks/auction.py`, `messages/nft.py`), on NFT items the index detected:
 *   start auction   teleitem_start_auction#487a8e81 to a Telegram item (its answer teleitem_ok#a37a0983 taken
 *                   along): `teleitem_start_auction`, the bids read from the body's auction config
 *   cancel auction  teleitem_cancel_auction#371638ae to a Telegram item (teleitem_ok taken along):
 *                   `teleitem_cancel_auction`
 *   purchase        auction_fill_up#370fec51 sent by a .ton DNS item right after a contract call into it (the call
 *                   that found its auction over): `dns_purchase`, the caller the new owner, the fill-up's value the
 *                   price; only the fill-up is folded, the call stays an action of its own
 *   release         dns_balance_release#4ed14b65 to a .ton DNS item: `dns_release`
 *   sold            ownership_assigned#05138d91 an NFT item sends by itself (no transfer asked for it): an
 *                   `nft_transfer` (toncenter's `TelegramNftPurchaseBlockMatcher`, for any item the index detected);
 *                   when its payload is teleitem_bid_info#38127de1 (a Telegram item's auction won) it is marked
 *                   `is_purchase` at the bid, and after the winning bid (a TON transfer, or an external) the bid and
 *                   the item's auction_fill_up#370fec51 payouts are taken along: two or more, the first by lt the
 *                   royalty and the second the payout; one, the payout. Never failed, as toncenter builds it.
 * A bid on either item (a plain TON transfer into it) is an `auction_bid` of nft-auctions.ts, its refund to the bidder
 * it outbid (outbid_notification#557cea20) an `auction_outbid`.
 *
 * Which items are which is toncenter's rule, applied to what token detection stored (`telemintFlags`): a Telegram
 * item's content uri is on nft.fragment.com; a .ton DNS item has the .ton DNS item's code or collection.
 */
import type { Slice } from '@ton/core';
import { folded, isCallContract, TonTransferBlock, type Block, type CallContractBlock } from './blocks.js';
import { OP, ownershipAssigned, readAddress } from './bodies.js';
import { BlockTypeMatcher, ContractMatcher, type Matcher } from './matcher.js';
import type { NftAuctionTradeData, NftPutOnAuctionData } from './nft-auctions.js';
import type { NftTransferData } from './nfts.js';
import type { KnownContracts, NftItemInfo } from './trace-input.js';
import { str, type ActionParts } from './details-common.js';

const OP_START_AUCTION = 0x487a8e81;
const OP_CANCEL_AUCTION = 0x371638ae;
const OP_TELEITEM_OK = 0xa37a0983;
const OP_FILL_UP = 0x370fec51;
const OP_DNS_RELEASE = 0x4ed14b65;
/** What telemint's collection sends the item it deploys (toncenter's check for a mint before a sale). */
const OP_TELEITEM_DEPLOY = 0x299a3e15;

/** The .ton DNS item's code hash and collection, as toncenter names them. */
export const DNS_ITEM_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';
export const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
/** What a Telegram item's content uri contains (trace-source.ts reads only the contents that contain it). */
export const FRAGMENT_URI = 'https://nft.fragment.com';

/**
 * The flags of an NFT item the index stored (its content as the v3 JSON text or object, its code hash in base64),
 * only those that hold: most items get none, so they stay as small as before.
 */
export function telemintFlags(
  content: string | Readonly<Record<string, string>> | null,
  codeHash: string | null,
  collection: string | null,
): Pick<NftItemInfo, 'teleitem' | 'dns'> {
  const flags: Pick<NftItemInfo, 'teleitem' | 'dns'> = {};
  // The substring first: parsing every item's content to find out would cost more than the classifier.
  if (typeof content === 'string' ? content.includes(FRAGMENT_URI) : content !== null) {
    let uri: unknown;
    try {
      uri = (typeof content === 'string' ? (JSON.parse(content) as Record<string, unknown>) : content!).uri;
    } catch {
      uri = undefined;
    }
    if (typeof uri === 'string' && uri.includes(FRAGMENT_URI)) flags.teleitem = true;
  }
  if (codeHash === DNS_ITEM_CODE_HASH || collection === DNS_COLLECTION) flags.dns = true;
  return flags;
}

export interface DnsPurchaseData {
  item: string;
  index: string;
  collection: string | null;
  newOwner: string | null;
  queryId: bigint | null;
  /** The fill-up's value: both `price` and `payout_amount`. */
  price: bigint | null;
}

export interface DnsReleaseData {
  item: string;
  index: string;
  collection: string | null;
  source: string | null;
  queryId: bigint | null;
  value: bigint | null;
}

interface AuctionConfig {
  beneficiary: string | null;
  minBid: bigint;
  maxBid: bigint;
}

/** The start's auction config; toncenter takes zeros and no beneficiary when it does not parse. */
function auctionConfig(cs: Slice): AuctionConfig {
  try {
    const beneficiary = readAddress(cs);
    const minBid = cs.loadCoins();
    const maxBid = cs.loadCoins();
    cs.skip(8 + 32 + 32); // min_bid_step, min_extend_time, duration
    return { beneficiary, minBid, maxBid };
  } catch {
    return { beneficiary: null, minBid: 0n, maxBid: 0n };
  }
}

/** query_id when the body has one (toncenter reads it only when 64 bits are left). */
function queryIdOf(block: CallContractBlock): bigint | null {
  const cs = block.message.body().beginParse();
  cs.skip(32);
  return cs.remainingBits >= 64 ? cs.loadUintBig(64) : null;
}

const aborted = (block: Block): boolean => block.eventNodes[0].tx.aborted;
const teleitemOk = (): Matcher => new ContractMatcher(OP_TELEITEM_OK, { optional: true });

class TeleitemStartAuctionMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP_START_AUCTION, { child: teleitemOk(), includeExcess: false });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const address = block.message.destination;
    const item = address === null ? undefined : this.contracts.nftItems.get(address);
    if (!item?.teleitem) return [];
    const cs = block.message.body().beginParse();
    cs.skip(32 + 64); // op, query_id
    const config = auctionConfig(cs.loadRef().beginParse());
    // toncenter's listing shape for an auction with no listing contract, no fee factors and no royalty.
    const data: NftPutOnAuctionData = {
      item: address!,
      index: item.index,
      collection: item.collection,
      owner: block.message.source,
      listing: null,
      auction: address!,
      mpFeeAddress: config.beneficiary,
      mpFeeFactor: 0n,
      mpFeeBase: 0n,
      royaltyFeeAddress: null,
      royaltyFeeBase: 0n,
      maxBid: config.maxBid,
      minBid: config.minBid,
    };
    return folded('teleitem_start_auction', data, [block, ...others], aborted(block));
  }
}

class TeleitemCancelAuctionMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP_CANCEL_AUCTION, { child: teleitemOk(), includeExcess: false });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const address = block.message.destination;
    const item = address === null ? undefined : this.contracts.nftItems.get(address);
    if (!item?.teleitem) return [];
    const data: NftAuctionTradeData = {
      item: address!,
      collection: item.collection,
      owner: block.message.source,
      auction: address!,
      marketplaceAddress: null,
    };
    return folded('teleitem_cancel_auction', data, [block, ...others], aborted(block));
  }
}

class DnsPurchaseMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP_FILL_UP, { parent: new BlockTypeMatcher('call_contract') });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const address = block.message.source;
    const item = address === null ? undefined : this.contracts.nftItems.get(address);
    if (!item?.dns) return [];
    const call = others[0];
    const data: DnsPurchaseData = {
      item: address!,
      index: item.index,
      collection: item.collection,
      newOwner: call.eventNodes[0].message.source,
      queryId: queryIdOf(block),
      price: block.message.value,
    };
    // Only the fill-up: the call that set it off stays an action of its own, as toncenter leaves it.
    return folded('dns_purchase', data, [block], aborted(block));
  }
}

class DnsReleaseMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP_DNS_RELEASE);
  }

  override build(block: CallContractBlock, _others: Block[]): Block[] {
    const address = block.message.destination;
    const item = address === null ? undefined : this.contracts.nftItems.get(address);
    if (!item?.dns) return [];
    const data: DnsReleaseData = {
      item: address!,
      index: item.index,
      collection: item.collection,
      source: block.message.source,
      queryId: queryIdOf(block),
      value: block.message.value,
    };
    return folded('dns_release', data, [block], aborted(block));
  }
}

class TelegramPurchaseMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.nftOwnershipAssigned);
  }

  override build(block: CallContractBlock, _others: Block[]): Block[] {
    const body = ownershipAssigned(block.message.body());
    const address = block.message.source;
    const item = address === null ? undefined : this.contracts.nftItems.get(address);
    if (!item) return [];
    const data: NftTransferData = {
      previousOwner: body.previousOwner,
      newOwner: block.message.destination,
      queryId: body.queryId,
      forwardAmount: null,
      response: null,
      customPayload: null,
      forwardPayload: body.payload,
      item: address!,
      index: item.index,
      collection: item.collection,
    };
    const include: Block[] = [block];
    const previous = block.previousBlock;
    // The item's first owner, right after its deployment, bought nothing (toncenter's mint check).
    const minted = isCallContract(previous, OP_TELEITEM_DEPLOY) || previous?.type === 'nft_mint';
    if (body.bid !== null && !minted)
      data.purchase = { marketplace: 'fragment', marketplaceAddress: null, price: body.bid.toString(), realPreviousOwner: null };
    const afterBid = previous instanceof TonTransferBlock || (isCallContract(previous) && previous.message.source === null);
    if (body.bid !== null && afterBid) {
      const payouts = previous.nextBlocks
        .filter((b): b is CallContractBlock => isCallContract(b, OP_FILL_UP))
        .sort((a, b) => Number((a.message.createdLt ?? 0n) - (b.message.createdLt ?? 0n)));
      // The first fill-up is always the royalty when there are two (toncenter's rule for telemint's items).
      const [royalty, payout] = payouts.length > 1 ? payouts : [undefined, payouts[0]];
      if (royalty) {
        data.royaltyAmount = royalty.message.value ?? 0n;
        data.royaltyAddress = royalty.message.destination;
      }
      if (payout) {
        data.payoutAmount = payout.message.value ?? 0n;
        data.payoutAddress = payout.message.destination;
      }
      include.push(...payouts, previous);
    }
    // toncenter leaves its `failed` at the default.
    return folded('nft_transfer', data, include, false);
  }
}

export const telegramPurchaseMatcher = (contracts: KnownContracts): Matcher => new TelegramPurchaseMatcher(contracts);
export const teleitemStartAuctionMatcher = (contracts: KnownContracts): Matcher => new TeleitemStartAuctionMatcher(contracts);
export const teleitemCancelAuctionMatcher = (contracts: KnownContracts): Matcher => new TeleitemCancelAuctionMatcher(contracts);
export const dnsPurchaseMatcher = (contracts: KnownContracts): Matcher => new DnsPurchaseMatcher(contracts);
export const dnsReleaseMatcher = (contracts: KnownContracts): Matcher => new DnsReleaseMatcher(contracts);

/**
 * A .ton DNS item bought at its auction's end (ton-index-go's ActionDetailsDnsPurchase). toncenter serializes it as a
 * purchase without a previous owner: the new owner is its only end.
 */
export function dnsPurchaseParts(d: DnsPurchaseData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      new_owner: d.newOwner,
      price: str(d.price),
      query_id: str(d.queryId),
      payout_amount: str(d.price),
    },
    ends: [null, null, d.newOwner, null],
  };
}

export function dnsReleaseParts(d: DnsReleaseData): ActionParts {
  return {
    details: {
      query_id: str(d.queryId),
      source: d.source,
      nft_item: d.item,
      nft_collection: d.collection,
      nft_item_index: d.index,
      value: str(d.value),
    },
    ends: [d.source, null, d.item, null],
  };
}
