/**
 * NFT actions (ton-indexer's `blocks/nft.py`) and DNS record changes (`blocks/dns.py`): a mint (a block that made
 * exactly one contract active, which the index knows as an NFT item), a transfer (transfer on a known item, with
 * its ownership_assigned or excess), and a DNS item's change_dns_record: a new value (`change_dns`), none
 * (`delete_dns`), or none under key 0 (`renew_dns`). A transfer a getgems sale made for its buyer is marked as a
 * purchase (nft-sales.ts), with the buy taken along. `nft_discovery`: get_static_data#2fcb26a2 to any contract, with
 * its report_static_data#8b771735 (query_id, index:uint256, collection) required; the item need not be one the index
 * detected (toncenter asks for none), never failed.
 */
import { folded, isCallContract, TonTransferBlock, type Block, type CallContractBlock } from './blocks.js';
import { afterOpcode, changeDnsRecord, nftPreviousOwner, nftTransfer, OP, readAddress, type DnsValue } from './bodies.js';
import { ContractMatcher, labeled, labelled, Matcher, OrMatcher } from './matcher.js';
import type { KnownContracts } from './trace-input.js';

export interface NftMintData {
  source: string | null;
  item: string;
  index: string;
  collection: string | null;
}

export interface NftTransferData {
  previousOwner: string | null;
  newOwner: string | null;
  queryId: bigint;
  /** null for a transfer told by its ownership_assigned alone (a Telegram item's at its auction's end). */
  forwardAmount: bigint | null;
  response: string | null;
  customPayload: string | null;
  forwardPayload: string | null;
  item: string;
  index: string;
  collection: string | null;
  /** Set when a getgems sale or auction, or a Telegram item's own auction, sold the NFT with this transfer. */
  purchase?: NftPurchaseInfo;
  /** What a Telegram item's auction paid out with the transfer (telemint.ts): the fill-ups' values and receivers. */
  payoutAmount?: bigint;
  payoutAddress?: string | null;
  royaltyAmount?: bigint;
  royaltyAddress?: string | null;
}

export interface DnsData {
  source: string | null;
  /** The DNS item. */
  destination: string | null;
  key: string;
  value: DnsValue | null;
  collection: string | null;
}

/** What the transfer of a sold NFT learns from its sale. */
export interface NftPurchaseInfo {
  marketplace: 'getgems' | 'fragment';
  marketplaceAddress: string | null;
  price: string;
  realPreviousOwner: string | null;
}

export interface NftDiscoveryData {
  sender: string | null;
  item: string | null;
  /** The report's. */
  collection: string | null;
  /** The report's, decimal. */
  index: string;
}

const ZERO_KEY = '0'.repeat(64);
const OP_GET_STATIC_DATA = 0x2fcb26a2;
const OP_REPORT_STATIC_DATA = 0x8b771735;

/**
 * The sale or auction that sold the NFT of `transfer`, and the block to take along, or null: no purchase (toncenter's
 * `_try_get_nft_purchase_data`). A sale: the block it follows is the buyer's plain TON transfer into a detected sale
 * of that NFT. Else an auction: the block it follows is any message into a detected auction of that NFT (the winning
 * bid, a finish), the price its last bid; taken along when it is a TON transfer (not a "finish"/"stop" comment) or
 * an external message.
 */
export function purchaseOf(
  transfer: CallContractBlock,
  data: NftTransferData,
  contracts: KnownContracts,
): { info: NftPurchaseInfo; include: Block | null } | null {
  const previous = transfer.previousBlock;
  if (previous === null) return null;
  const account = previous.eventNodes[0].tx.account;
  const sale =
    previous instanceof TonTransferBlock && previous.message.source === data.newOwner ? contracts.nftSales?.get(account) : undefined;
  const auction = sale ? undefined : contracts.nftAuctions?.get(account);
  const seller = sale ?? auction;
  if (!seller || seller.nft !== data.item || seller.owner === data.newOwner) return null;
  const info: NftPurchaseInfo = {
    marketplace: 'getgems',
    marketplaceAddress: seller.marketplace,
    price: sale ? sale.fullPrice : auction!.lastBid,
    realPreviousOwner: seller.owner,
  };
  let include: Block | null = null;
  if (previous instanceof TonTransferBlock) include = previous.comment === 'finish' || previous.comment === 'stop' ? null : previous;
  else if (isCallContract(previous) && previous.message.source === null) include = previous;
  return { info, include };
}

class NftMintMatcher extends Matcher {
  constructor(private readonly contracts: KnownContracts) {
    super();
  }

  override test(block: Block): boolean {
    return block.contractDeployments.size === 1;
  }

  override build(block: Block, _others: Block[]): Block[] {
    const [address] = block.contractDeployments;
    const item = this.contracts.nftItems.get(address);
    if (!item) return [];
    const data: NftMintData = { source: block.eventNodes[0].message.source, item: address, index: item.index, collection: item.collection };
    // ton-indexer never marks a mint failed.
    return folded('nft_mint', data, [block], false);
  }
}

class NftTransferMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    const optional = { optional: true };
    super(OP.nftTransfer, {
      child: new OrMatcher([new ContractMatcher(OP.nftOwnershipAssigned, optional), new ContractMatcher(OP.excess, optional)], optional),
    });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const body = nftTransfer(block.message.body());
    const assigned = others
      .filter((b): b is CallContractBlock => isCallContract(b, OP.nftOwnershipAssigned))
      .map((b) => nftPreviousOwner(b.message.body()));
    const address = block.eventNodes[0].tx.account;
    const item = this.contracts.nftItems.get(address);
    if (!item) return [];
    const data: NftTransferData = {
      previousOwner: assigned.length > 0 ? assigned[0] : block.message.source,
      newOwner: body.newOwner,
      queryId: body.queryId,
      forwardAmount: body.forwardAmount,
      response: body.response,
      customPayload: body.customPayload,
      forwardPayload: body.forwardPayload,
      item: address,
      index: item.index,
      collection: item.collection,
    };
    const include: Block[] = [block];
    const purchase = purchaseOf(block, data, this.contracts);
    if (purchase) {
      data.purchase = purchase.info;
      if (purchase.include) include.push(purchase.include);
    }
    return folded('nft_transfer', data, [...include, ...others], block.failed);
  }
}

class ChangeDnsMatcher extends ContractMatcher {
  constructor(private readonly contracts: KnownContracts) {
    super(OP.changeDnsRecord, { child: new ContractMatcher(OP.bounced, { optional: true, includeExcess: false }) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const { key, value } = changeDnsRecord(block.message.body());
    const destination = block.message.destination;
    const item = destination === null ? undefined : this.contracts.nftItems.get(destination);
    const type = value !== null ? 'change_dns' : key === ZERO_KEY ? 'renew_dns' : 'delete_dns';
    return folded(
      type,
      { source: block.message.source, destination, key, value, collection: item?.collection ?? null } satisfies DnsData,
      [block, ...others],
      block.failed,
    );
  }
}

class NftDiscoveryMatcher extends ContractMatcher {
  constructor() {
    super(OP_GET_STATIC_DATA, { child: labeled('report', new ContractMatcher(OP_REPORT_STATIC_DATA)) });
  }

  override build(block: CallContractBlock, others: Block[]): Block[] {
    const report = labelled(others, 'report') as CallContractBlock;
    const cs = afterOpcode(report.message.body());
    cs.loadUintBig(64); // query_id
    const index = cs.loadUintBig(256);
    const data: NftDiscoveryData = {
      sender: block.message.source,
      item: block.message.destination,
      collection: readAddress(cs),
      index: index.toString(),
    };
    // Only the request and the report: what the report's matcher took along (its excess) stays out, as toncenter builds it.
    return folded('nft_discovery', data, [block, report], false);
  }
}

export const nftMintMatcher = (contracts: KnownContracts): Matcher => new NftMintMatcher(contracts);
export const nftTransferMatcher = (contracts: KnownContracts): Matcher => new NftTransferMatcher(contracts);
export const changeDnsMatcher = (contracts: KnownContracts): Matcher => new ChangeDnsMatcher(contracts);
export const nftDiscoveryMatcher = (): Matcher => new NftDiscoveryMatcher();
