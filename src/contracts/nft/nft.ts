/**
 * NFTs (TEP-62, royalties TEP-66) on tongate's own collection and item (collection.fc.ts, item.fc.ts): data,
 * StateInits, addresses and message bodies. The code is the caller's (tests compile the sources with func-js).
 */
import { Address, beginCell, contractAddress, Dictionary, type Cell, type DictionaryValue, type StateInit } from '@ton/core';

export const NFT_OP = {
  transfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
  excesses: 0xd53276db,
  getStaticData: 0x2fcb26a2,
  reportStaticData: 0x8b771735,
  getRoyaltyParams: 0x693d3950,
  reportRoyaltyParams: 0xa8cb00ad,
  deployItem: 1,
  batchDeployItems: 2,
  changeOwner: 3,
} as const;

export interface Royalty {
  numerator: number;
  denominator: number;
  destination: Address;
}

export interface NftCollectionParams {
  owner: Address;
  /** TEP-64 content of the collection (src/contracts/content.ts). */
  content: Cell;
  /** The prefix of every item's offchain URI (a snake string without the 0x01 tag). */
  commonContent: Cell;
  itemCode: Cell;
  royalty: Royalty;
  nextItemIndex?: bigint;
}

/**
 * data: owner:MsgAddress next_item_index:uint64 ^[collection_content:^Cell common_content:^Cell] item_code:^Cell
 * ^[numerator:uint16 denominator:uint16 destination:MsgAddress]
 */
export function nftCollectionData(p: NftCollectionParams): Cell {
  return beginCell()
    .storeAddress(p.owner)
    .storeUint(p.nextItemIndex ?? 0n, 64)
    .storeRef(beginCell().storeRef(p.content).storeRef(p.commonContent).endCell())
    .storeRef(p.itemCode)
    .storeRef(
      beginCell().storeUint(p.royalty.numerator, 16).storeUint(p.royalty.denominator, 16).storeAddress(p.royalty.destination).endCell(),
    )
    .endCell();
}

export function nftCollectionInit(code: Cell, params: NftCollectionParams): StateInit {
  return { code, data: nftCollectionData(params) };
}

/** What get_nft_address_by_index(index) answers: StateInit(item_code, index:uint64 collection:MsgAddress). */
export function nftItemAddress(collection: Address, itemCode: Cell, index: bigint | number): Address {
  return contractAddress(0, { code: itemCode, data: beginCell().storeUint(index, 64).storeAddress(collection).endCell() });
}

/** The item's initialization (owner:MsgAddress ^content): content is a URI suffix, or onchain TEP-64 content. */
function itemInit(owner: Address, content: Cell): Cell {
  return beginCell().storeAddress(owner).storeRef(content).endCell();
}

/** deploy_item#1 query_id:uint64 index:uint64 amount:Coins ^[owner:MsgAddress ^content] */
export function deployItemBody(p: { index: bigint | number; amount: bigint; owner: Address; content: Cell; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(NFT_OP.deployItem, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeUint(p.index, 64)
    .storeCoins(p.amount)
    .storeRef(itemInit(p.owner, p.content))
    .endCell();
}

/** A batch entry, written in the dictionary's leaf itself: amount:Coins ^[owner:MsgAddress ^content]. */
const INLINE_ENTRY: DictionaryValue<{ amount: bigint; init: Cell }> = {
  serialize: (entry, builder) => builder.storeCoins(entry.amount).storeRef(entry.init),
  parse: (slice) => ({ amount: slice.loadCoins(), init: slice.loadRef() }),
};

/** batch_deploy_items#2 query_id:uint64 ^(HashmapE 64 [amount:Coins ^[owner:MsgAddress ^content]]) */
export function batchDeployItemsBody(
  items: { index: bigint | number; amount: bigint; owner: Address; content: Cell }[],
  queryId = 0n,
): Cell {
  const list = Dictionary.empty(Dictionary.Keys.BigUint(64), INLINE_ENTRY);
  for (const item of items) list.set(BigInt(item.index), { amount: item.amount, init: itemInit(item.owner, item.content) });
  // The ref is the dictionary's root itself (Hashmap, not HashmapE): the collection reads it with DICTUREMMIN.
  return beginCell()
    .storeUint(NFT_OP.batchDeployItems, 32)
    .storeUint(queryId, 64)
    .storeRef(beginCell().storeDictDirect(list).endCell())
    .endCell();
}

export function changeCollectionOwnerBody(newOwner: Address, queryId = 0n): Cell {
  return beginCell().storeUint(NFT_OP.changeOwner, 32).storeUint(queryId, 64).storeAddress(newOwner).endCell();
}

/** transfer#5fcc3d14, sent by the owner to the item. */
export function nftTransferBody(p: {
  newOwner: Address;
  response?: Address | null;
  forwardAmount?: bigint;
  forwardPayload?: Cell;
  queryId?: bigint;
}): Cell {
  const b = beginCell()
    .storeUint(NFT_OP.transfer, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeAddress(p.newOwner)
    .storeAddress(p.response ?? null)
    .storeMaybeRef(null)
    .storeCoins(p.forwardAmount ?? 0n);
  return (p.forwardPayload ? b.storeBit(1).storeRef(p.forwardPayload) : b.storeBit(0)).endCell();
}

export const getStaticDataBody = (queryId = 0n): Cell => beginCell().storeUint(NFT_OP.getStaticData, 32).storeUint(queryId, 64).endCell();
export const getRoyaltyParamsBody = (queryId = 0n): Cell =>
  beginCell().storeUint(NFT_OP.getRoyaltyParams, 32).storeUint(queryId, 64).endCell();
