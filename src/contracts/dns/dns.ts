/**
 * DNS (TEP-81) on tongate's own root collection and domain items (collection.fc.ts, item.fc.ts): data, addresses,
 * records and message bodies. The code is the caller's (tests compile the sources with func-js).
 */
import { Address, beginCell, contractAddress, type Cell, type StateInit } from '@ton/core';
import { sha256Key } from '../content.js';

export const DNS_OP = { deployDomain: 1, changeDnsRecord: 0x4eb1f0f9 } as const;

/** Record categories: sha256 of their names (category 0 asks for every record). */
export const DNS_CATEGORY = {
  wallet: sha256Key('wallet'),
  site: sha256Key('site'),
  storage: sha256Key('storage'),
  nextResolver: sha256Key('dns_next_resolver'),
} as const;

/** data: owner:MsgAddress content:^Cell item_code:^Cell */
export function dnsRootInit(code: Cell, p: { owner: Address; content: Cell; itemCode: Cell }): StateInit {
  return { code, data: beginCell().storeAddress(p.owner).storeRef(p.content).storeRef(p.itemCode).endCell() };
}

/** An item's index: sha256 of the domain's bytes ("alice" for alice.<zone>). */
export const domainIndex = (domain: string): bigint => sha256Key(domain);

/** What the root's get_nft_address_by_index(sha256(domain)) answers, and dnsresolve's next resolver for it. */
export function dnsItemAddress(root: Address, itemCode: Cell, domain: string): Address {
  return contractAddress(0, { code: itemCode, data: beginCell().storeUint(domainIndex(domain), 256).storeAddress(root).endCell() });
}

/** deploy_domain#1 query_id:uint64 amount:Coins domain:^Cell owner:MsgAddress, from the root's owner. */
export function deployDomainBody(p: { domain: string; owner: Address; amount: bigint; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(DNS_OP.deployDomain, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeCoins(p.amount)
    .storeRef(beginCell().storeBuffer(Buffer.from(p.domain, 'utf8')).endCell())
    .storeAddress(p.owner)
    .endCell();
}

/** change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 [^record]; without a record the key is deleted. */
export function changeDnsRecordBody(category: bigint, record: Cell | null, queryId = 0n): Cell {
  const b = beginCell().storeUint(DNS_OP.changeDnsRecord, 32).storeUint(queryId, 64).storeUint(category, 256);
  return (record ? b.storeRef(record) : b).endCell();
}

/** dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8): the `wallet` record. */
export const walletRecord = (address: Address): Cell => beginCell().storeUint(0x9fd3, 16).storeAddress(address).storeUint(0, 8).endCell();

/** dns_next_resolver#ba93 resolver:MsgAddressInt */
export const nextResolverRecord = (address: Address): Cell => beginCell().storeUint(0xba93, 16).storeAddress(address).endCell();

/** dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8): a `site` record. */
export const adnlRecord = (adnl: Buffer): Cell => beginCell().storeUint(0xad01, 16).storeBuffer(adnl, 32).storeUint(0, 8).endCell();

/** dns_storage_address#7473 bag_id:bits256: a `storage` (or `site`) record. */
export const storageRecord = (bagId: Buffer): Cell => beginCell().storeUint(0x7473, 16).storeBuffer(bagId, 32).endCell();
