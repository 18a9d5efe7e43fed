/** The NFT, DNS, sale, listing, multisig, vesting and swap contracts compiled from their sources (once per process; the jetton's code ships compiled). */
import type { Cell } from '@ton/core';
import { compileFuncContract } from '../../support/func.js';
import { NFT_COLLECTION_FUNC } from '../../../src/contracts/nft/collection.fc.js';
import { NFT_ITEM_FUNC } from '../../../src/contracts/nft/item.fc.js';
import { DNS_COLLECTION_FUNC } from '../../../src/contracts/dns/collection.fc.js';
import { DNS_ITEM_FUNC } from '../../../src/contracts/dns/item.fc.js';
import { NFT_SALE_FUNC } from '../../../src/contracts/nft-sale/sale.fc.js';
import { NFT_LISTING_FUNC } from '../../../src/contracts/nft-sale/listing.fc.js';
import { NFT_SALE_V4R1_FUNC } from '../../../src/contracts/nft-sale/sale-v4r1.fc.js';
import { NFT_AUCTION_FUNC } from '../../../src/contracts/nft-auction/auction.fc.js';
import { MULTISIG_ORDER_FUNC } from '../../../src/contracts/multisig/order.fc.js';
import { multisigWalletFunc } from '../../../src/contracts/multisig/wallet.fc.js';
import { VESTING_WALLET_FUNC } from '../../../src/contracts/vesting/wallet.fc.js';
import { DEX_POOL_FUNC } from '../../../src/contracts/dex/pool.fc.js';
import { DEX_ROUTER_FUNC } from '../../../src/contracts/dex/router.fc.js';
import { DEDUST_POOL_FUNC } from '../../../src/contracts/dex/dedust-pool.fc.js';
import { DEDUST_FACTORY_FUNC } from '../../../src/contracts/dex/dedust-factory.fc.js';

export async function nftCode(): Promise<{ collection: Cell; item: Cell }> {
  return {
    collection: await compileFuncContract('nft-collection', NFT_COLLECTION_FUNC),
    item: await compileFuncContract('nft-item', NFT_ITEM_FUNC),
  };
}

export async function dnsCode(): Promise<{ root: Cell; item: Cell }> {
  return { root: await compileFuncContract('dns-root', DNS_COLLECTION_FUNC), item: await compileFuncContract('dns-item', DNS_ITEM_FUNC) };
}

/** tongate's fixed-price NFT sale (src/contracts/nft-sale). */
export async function nftSaleCode(): Promise<Cell> {
  return compileFuncContract('nft-sale', NFT_SALE_FUNC);
}

/** tongate's listing contract and the v4r1-layout sale it deploys (src/contracts/nft-sale). */
export async function nftListingCode(): Promise<{ listing: Cell; sale: Cell }> {
  return {
    listing: await compileFuncContract('nft-listing', NFT_LISTING_FUNC),
    sale: await compileFuncContract('nft-sale-v4r1', NFT_SALE_V4R1_FUNC),
  };
}

/** tongate's NFT auction (src/contracts/nft-auction: getgems' auction get_sale_data layout). */
export async function nftAuctionCode(): Promise<Cell> {
  return compileFuncContract('nft-auction', NFT_AUCTION_FUNC);
}

/** tongate's multisig v2 wallet and order (src/contracts/multisig): the order's code is part of the wallet's. */
export async function multisigCode(): Promise<{ wallet: Cell; order: Cell }> {
  const order = await compileFuncContract('multisig-order', MULTISIG_ORDER_FUNC);
  return { order, wallet: await compileFuncContract('multisig-wallet', multisigWalletFunc(order)) };
}

/** tongate's vesting wallet (src/contracts/vesting). */
export async function vestingCode(): Promise<Cell> {
  return compileFuncContract('vesting-wallet', VESTING_WALLET_FUNC);
}

/** tongate's swap router and pool (src/contracts/dex: STON.fi v1's message layouts). */
export async function dexCode(): Promise<{ router: Cell; pool: Cell }> {
  return { router: await compileFuncContract('dex-router', DEX_ROUTER_FUNC), pool: await compileFuncContract('dex-pool', DEX_POOL_FUNC) };
}

/** tongate's pool and factory answering DeDust's get-methods (src/contracts/dex: get_assets, get_pool_address). */
export async function dedustCode(): Promise<{ pool: Cell; factory: Cell }> {
  return {
    pool: await compileFuncContract('dedust-pool', DEDUST_POOL_FUNC),
    factory: await compileFuncContract('dedust-factory', DEDUST_FACTORY_FUNC),
  };
}
