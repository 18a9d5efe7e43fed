/**
 * getgems fixed-price sales (ton-indexer's `blocks/nft.py` purchase parts, `blocks/auction.py`, `messages/getgems.py`),
 * on sales the index detected by their get_sale_data (`../tokens/sales.ts`, toncenter's `get_nft_sale`):
 *   purchase       an NFT transfer sent by a sale of that NFT right after a plain TON transfer into the sale from
 *                  the NFT's new owner (the buy), the new owner not the seller: the transfer is marked
 *                  `is_purchase` (nfts.ts); `nft_purchase` is that transfer with the sale's TON transfer to the
 *                  seller (the payout)
 *   put on sale    an NFT transfer to a "listing" contract that deploys a sale and hands the NFT on to it:
 *                  `nft_put_on_sale`, the price and fees read from the sale's StateInit in the layout its code
 *                  hash names (getgems' published versions; any other code: the newest, v4r1, as toncenter)
 *   cancel         op 3 to a sale of the NFT it sends back: `nft_cancel_sale`
 *   update         sale_update#6c6c2080 to a detected sale (its seller changes the price): `nft_update_sale`, the new
 *                  price, fee and royalty from the body
 *   put on auction the same listing when the contract deployed is a detected auction, not a sale:
 *                  `nft_put_on_auction` (its terms: nft-auctions.ts `auctionTerms`)
 * A purchase the auction's "finish"/"stop" comment made pays the seller from that comment's transaction, not the
 * NFT's: the payout is found among the comment's next blocks and tied to the transfer through an empty block, as
 * toncenter does (`insert_between`). Bids, cancels and finishes of auctions: nft-auctions.ts.
 */
import { Cell } from '@ton/core';
import { Block, folded, TonTransferBlock, type CallContractBlock } from './blocks.js';
import { payloadComment, readAddress } from './bodies.js';
import { ContractMatcher, Matcher } from './matcher.js';
import { auctionTerms, type NftPutOnAuctionData } from './nft-auctions.js';
import type { NftPurchaseInfo, NftTransferData } from './nfts.js';
import type { KnownContracts, NftSaleInfo } from './trace-input.js';
import { str, omitEmpty, type ActionParts, type Json } from './details-common.js';

export const NFT_CANCEL_SALE_OP = 0x3;
const SALE_UPDATE_OP = 0x6c6c2080;

export interface NftPurchaseData {
  transfer: NftTransferData;
  payoutAmount: bigint | null;
  payoutComment: string | null;
  payoutEncrypted: boolean;
}

export interface NftPutOnSaleData {
  item: string;
  index: string;
  collection: string | null;
  owner: string | null;
  listing: string | null;
  sale: string;
  fullPrice: bigint | null;
  marketplaceAddress: string | null;
  marketplaceFeeAddress: string | null;
  marketplaceFee: bigint | null;
  royaltyAddress: string | null;
  royaltyAmount: bigint | null;
}

export interface NftCancelSaleData {
  item: string;
  collection: string | null;
  owner: string | null;
  sale: string;
  marketplaceAddress: string | null;
}

export interface NftUpdateSaleData {
  sender: string | null;
  sale: string;
  item: string;
  marketplaceAddress: string | null;
  fullPrice: bigint;
  marketplaceFee: bigint;
  royaltyAmount: bigint;
}

const nftTransferOf = (block: Block): (NftTransferData & { purchase?: NftPurchaseInfo }) | null =>
  block.type === 'nft_transfer' ? (block.data as NftTransferData & { purchase?: NftPurchaseInfo }) : null;

/** A getgems purchase: the transfer marked as one, with the sale's payout to the seller. */
class GetgemsPurchaseMatcher extends Matcher {
  override test(block: Block): boolean {
    // A Telegram item's sale (marketplace fragment) stays a transfer marked as a purchase, as toncenter leaves it.
    return nftTransferOf(block)?.purchase?.marketplace === 'getgems';
  }

  override build(block: Block, _others: Block[]): Block[] {
    const data = nftTransferOf(block)!;
    const seller = data.purchase!.realPreviousOwner;
    if (seller === null) return [];
    // An auction finished by a comment pays the seller from the comment's transaction, beside the NFT's transfer.
    const previous = block.previousBlock;
    const proxied = previous instanceof TonTransferBlock && (previous.comment === 'finish' || previous.comment === 'stop');
    const candidates = proxied ? previous.nextBlocks : block.nextBlocks;
    const payout = candidates.find((b): b is TonTransferBlock => b instanceof TonTransferBlock && b.message.destination === seller);
    if (!payout) return [];
    const include: Block[] = [block, payout];
    if (proxied) {
      const proxy = new Block('empty', []);
      previous.insertBetween([block, payout], proxy);
      include.push(proxy);
    }
    const purchase: NftPurchaseData = {
      transfer: data,
      payoutAmount: payout.message.value,
      payoutComment: payout.comment,
      payoutEncrypted: payout.encrypted,
    };
    // toncenter leaves a purchase's `failed` at its default: not failed.
    return folded('nft_purchase', purchase, include, false);
  }
}

/** getgems' sale versions by code hash (`messages/getgems.py`): which data layout a sale's StateInit has. */
const SALE_LAYOUTS: Readonly<Record<string, 'v1' | 'v2' | 'v3' | 'v4r1'>> = {
  '2pufziLofEllctIDZSWVebzO+RpyA1fMvowFLvyb4I8=': 'v1',
  'gnj0xSM95vvtyWmvUZNEp6m//FRIVtuphqlcC8+Fcck=': 'v2',
  'MgUN+sRPZIZrzIbyzZ4TBf6dyts5WcACI3z7CQLUQyM=': 'v3',
  '3rU7bFdlwebNI4v0e8XoO6WWvcwEsLhM1Qqx5HSgjzE=': 'v3',
  'JCIfpXHlQuBVx3vt/b9SfHr0YM/cfzRMRQeHtM+h600=': 'v3',
  'a5WmQYucnSNZBF0edVm41UmuDlBvJMqrWPowyPsf64Y=': 'v4r1',
};

interface SaleTerms {
  fullPrice: bigint;
  marketplaceAddress: string | null;
  marketplaceFeeAddress: string | null;
  marketplaceFee: bigint | null;
  royaltyAddress: string | null;
  royaltyAmount: bigint | null;
}

/** The sale's terms from its StateInit's data (v4r1 keeps percentages, so no fee amounts); throws when it does not parse. */
export function saleTerms(stateInit: Cell, codeHash: string): SaleTerms {
  const init = stateInit.beginParse();
  if (init.loadBit()) init.skip(5); // split_depth
  if (init.loadBit()) init.skip(2); // special
  init.loadMaybeRef(); // code
  const data = init.loadMaybeRef();
  if (!data) throw new Error('a sale StateInit without data');
  const cs = data.beginParse();
  const layout = SALE_LAYOUTS[codeHash] ?? 'v4r1';
  cs.skip(1); // is_complete
  if (layout === 'v4r1') {
    const marketplaceAddress = readAddress(cs);
    readAddress(cs); // nft_owner_address
    const fullPrice = cs.loadCoins();
    cs.skip(32 + 64); // sold_at, query_id
    const fees = cs.loadRef().beginParse();
    return {
      fullPrice,
      marketplaceAddress,
      marketplaceFeeAddress: readAddress(fees),
      marketplaceFee: null,
      royaltyAddress: readAddress(fees),
      royaltyAmount: null,
    };
  }
  if (layout !== 'v1') cs.skip(32); // created_at
  const marketplaceAddress = readAddress(cs);
  readAddress(cs); // nft_address
  readAddress(cs); // nft_owner_address
  const fullPrice = cs.loadCoins();
  const fees = cs.loadRef().beginParse();
  if (layout === 'v1') {
    const marketplaceFee = fees.loadCoins();
    const marketplaceFeeAddress = readAddress(fees);
    return {
      fullPrice,
      marketplaceAddress,
      marketplaceFeeAddress,
      marketplaceFee,
      royaltyAddress: readAddress(fees),
      royaltyAmount: fees.loadCoins(),
    };
  }
  const marketplaceFeeAddress = readAddress(fees);
  const marketplaceFee = fees.loadCoins();
  return {
    fullPrice,
    marketplaceAddress,
    marketplaceFeeAddress,
    marketplaceFee,
    royaltyAddress: readAddress(fees),
    royaltyAmount: fees.loadCoins(),
  };
}

const deploysContract = (block: Block): boolean =>
  (block.type === 'ton_transfer' || block.type === 'call_contract') && block.contractDeployments.size > 0;

/** Any block that deployed a contract (the sale the listing made). */
class DeploymentMatcher extends Matcher {
  override test(block: Block): boolean {
    return deploysContract(block);
  }
}

class NftTransferTypeMatcher extends Matcher {
  override test(block: Block): boolean {
    return block.type === 'nft_transfer';
  }
}

class PutOnSaleMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super({ children: [new DeploymentMatcher(), new NftTransferTypeMatcher()], includeExcess: false });
  }

  override test(block: Block): boolean {
    return block.type === 'nft_transfer';
  }

  override build(block: Block, others: Block[]): Block[] {
    const toListing = block.data as NftTransferData;
    const toSale = others.find((b) => b.type === 'nft_transfer')!.data as NftTransferData;
    const saleInit = others.find(deploysContract)!;
    const saleMessage = saleInit.eventNodes[0].message;
    const saleAddress = saleMessage.destination;
    if (toSale.item !== toListing.item || saleAddress === null || toSale.newOwner !== saleAddress) return [];
    const sale: NftSaleInfo | undefined = this.contracts.nftSales?.get(saleAddress);
    if (!sale) return this.putOnAuction(block, others, toListing, toSale, saleAddress);
    if (sale.nft !== toSale.item || sale.owner !== toListing.previousOwner) throw new Error('the sale is not of this NFT or its owner');
    const stateInit = saleMessage.initState?.() ?? null;
    if (stateInit === null) throw new Error('the sale was deployed without a StateInit in its message');
    const terms = saleTerms(stateInit, sale.codeHash);
    const data: NftPutOnSaleData = {
      item: toSale.item,
      index: toSale.index,
      collection: toSale.collection,
      owner: sale.owner,
      listing: toListing.newOwner,
      sale: saleAddress,
      ...terms,
    };
    return folded('nft_put_on_sale', data, [block, ...others], false);
  }

  /** The listing deployed a detected auction instead (toncenter asks for a sale first, then an auction). */
  private putOnAuction(block: Block, others: Block[], toListing: NftTransferData, toSale: NftTransferData, address: string): Block[] {
    const auction = this.contracts.nftAuctions?.get(address);
    if (!auction) return [];
    if (auction.nft !== toSale.item || auction.owner !== toListing.previousOwner)
      throw new Error('the auction is not of this NFT or its owner');
    const stateInit = others.find(deploysContract)!.eventNodes[0].message.initState?.() ?? null;
    if (stateInit === null) throw new Error('the auction was deployed without a StateInit in its message');
    const terms = auctionTerms(stateInit, auction.codeHash);
    const data: NftPutOnAuctionData = {
      item: toSale.item,
      index: toSale.index,
      collection: toSale.collection,
      owner: auction.owner,
      listing: toListing.newOwner,
      auction: address,
      mpFeeAddress: terms.mpFeeAddress,
      mpFeeFactor: terms.mpFeeFactor,
      mpFeeBase: terms.mpFeeBase,
      royaltyFeeAddress: terms.royaltyFeeAddress,
      royaltyFeeBase: terms.royaltyFeeBase,
      maxBid: terms.maxBid,
      minBid: terms.minBid,
    };
    return folded('nft_put_on_auction', data, [block, ...others], false);
  }
}

class CancelSaleMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(NFT_CANCEL_SALE_OP, { child: new NftTransferTypeMatcher() });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const returned = others.find((b) => b.type === 'nft_transfer')!.data as NftTransferData;
    const saleAddress = block.message.destination;
    const sale = saleAddress === null ? undefined : this.contracts.nftSales?.get(saleAddress);
    if (!sale || sale.nft !== returned.item) return [];
    const data: NftCancelSaleData = {
      item: returned.item,
      collection: returned.collection,
      owner: returned.newOwner,
      sale: saleAddress!,
      marketplaceAddress: sale.marketplace,
    };
    // Only the request is folded: the NFT's way back stays an nft_transfer of its own (toncenter's choice).
    return folded('nft_cancel_sale', data, [block], false);
  }
}

/** A price change: sale_update query_id:uint64 full_price:Coins marketplace_fee:Coins royalty_amount:Coins. */
class UpdateSaleMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(SALE_UPDATE_OP);
  }

  override build(block: CallContractBlock, _others: Block[]): Block[] {
    const saleAddress = block.message.destination;
    const sale = saleAddress === null ? undefined : this.contracts.nftSales?.get(saleAddress);
    if (!sale) return [];
    const cs = block.message.body().beginParse();
    cs.skip(32 + 64); // op, query_id
    const data: NftUpdateSaleData = {
      sender: block.message.source,
      sale: saleAddress!,
      item: sale.nft,
      marketplaceAddress: sale.marketplace,
      fullPrice: cs.loadCoins(),
      marketplaceFee: cs.loadCoins(),
      royaltyAmount: cs.loadCoins(),
    };
    // toncenter: failed when the sale's transaction aborted.
    return folded('nft_update_sale', data, [block], block.eventNodes[0].tx.aborted);
  }
}

export const getgemsPurchaseMatcher = (): Matcher => new GetgemsPurchaseMatcher();
export const nftPutOnSaleMatcher = (contracts: KnownContracts): Matcher => new PutOnSaleMatcher(contracts);
export const nftCancelSaleMatcher = (contracts: KnownContracts): Matcher => new CancelSaleMatcher(contracts);
export const nftUpdateSaleMatcher = (contracts: KnownContracts): Matcher => new UpdateSaleMatcher(contracts);

/** An NFT transfer's details (ton-index-go's ActionDetailsNftTransfer); a sold one with the sale's terms and payout. */
export function nftTransferDetails(d: NftTransferData, payout: Omit<NftPurchaseData, 'transfer'> | null): Json {
  const comment = d.forwardPayload === null ? null : payloadComment(Cell.fromBase64(d.forwardPayload));
  const sold = d.purchase ?? null;
  return {
    nft_collection: d.collection,
    nft_item: d.item,
    nft_item_index: d.index,
    ...omitEmpty({ old_owner: d.previousOwner }),
    new_owner: d.newOwner,
    is_purchase: sold !== null,
    ...omitEmpty({ price: sold?.price }),
    query_id: str(d.queryId),
    response_destination: d.response,
    custom_payload: d.customPayload,
    forward_payload: d.forwardPayload,
    forward_amount: str(d.forwardAmount),
    comment: comment?.comment ?? null,
    is_encrypted_comment: comment ? comment.encrypted : null,
    // ton-index-go names a marketplace from its own table of marketplace addresses; this index has none.
    marketplace: null,
    real_old_owner: sold?.realPreviousOwner ?? null,
    marketplace_address: sold?.marketplaceAddress ?? null,
    payout_amount: str(payout ? payout.payoutAmount : d.payoutAmount),
    // A purchase pays the seller; a transfer answers its listing's fee address, which only a Telegram item's sale
    // fills (its auction's payout).
    payout_address: payout ? (sold?.realPreviousOwner ?? null) : (d.payoutAddress ?? null),
    payout_comment: payout?.payoutComment ?? null,
    payout_comment_encrypted: payout ? payout.payoutEncrypted : null,
    payout_comment_encoded: payout ? payout.payoutEncrypted : null,
    royalty_amount: payout ? null : str(d.royaltyAmount),
    royalty_address: payout ? null : (d.royaltyAddress ?? null),
  };
}

export function nftPurchaseParts(d: NftPurchaseData): ActionParts {
  return { details: nftTransferDetails(d.transfer, d), ends: [d.transfer.previousOwner, null, d.transfer.newOwner, null] };
}

export function nftPutOnSaleParts(d: NftPutOnSaleData): ActionParts {
  return {
    details: {
      nft_collection: d.collection,
      nft_item: d.item,
      nft_item_index: d.index,
      owner: d.owner,
      listing_address: d.listing,
      sale_address: d.sale,
      // ton-index-go reads this one from the action's destination_secondary, which toncenter's serializer never
      // fills for a sale: null there, kept.
      marketplace_address: null,
      full_price: str(d.fullPrice),
      marketplace_fee: str(d.marketplaceFee),
      royalty_amount: str(d.royaltyAmount),
      marketplace_fee_address: d.marketplaceFeeAddress,
      royalty_address: d.royaltyAddress,
      marketplace: null,
    },
    ends: [d.owner, d.listing, d.sale, null],
  };
}

export function nftCancelSaleParts(d: NftCancelSaleData): ActionParts {
  return {
    details: {
      owner: d.owner,
      nft_item: d.item,
      nft_collection: d.collection,
      sale_address: d.sale,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
    },
    ends: [d.owner, null, d.sale, null],
    accounts: [d.item],
  };
}

/** A sale's new terms (ton-index-go's ActionDetailsNftUpdateSale); the NFT is among its accounts. */
export function nftUpdateSaleParts(d: NftUpdateSaleData): ActionParts {
  return {
    details: {
      source: d.sender,
      sale_contract: d.sale,
      nft_address: d.item,
      marketplace_address: d.marketplaceAddress,
      marketplace: null,
      full_price: str(d.fullPrice),
      marketplace_fee: str(d.marketplaceFee),
      royalty_amount: str(d.royaltyAmount),
    },
    ends: [d.sender, null, d.sale, null],
    accounts: [d.item],
  };
}
