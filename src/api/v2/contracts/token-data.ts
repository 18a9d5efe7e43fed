/**
 * What getTokenData reads: jetton masters (TEP-74 get_jetton_data), jetton wallets (get_wallet_data,
 * checked against their master's get_wallet_address), NFT collections (TEP-62 get_collection_data) and
 * NFT items (get_nft_data, checked against their collection's get_nft_address_by_index, content from
 * its get_nft_content). The kinds are tried in that order, as toncenter does; the first that fits wins.
 * A jetton wallet or item its master/collection does not vouch for is not reported as one.
 */
import { beginCell, type Address } from '@ton/core';
import { formatV2Address } from '../../../ton/address.js';
import { bocBase64 } from '../../../ton/boc.js';
import type { NetworkContext } from '../../../http/network-context.js';
import { callGetMethod, NotThatContract, StackReader } from './get-method-call.js';
import { parseTokenContent } from './token-content.js';

interface Context {
  network: NetworkContext;
  address: Address;
  seqno?: number;
}

const friendly = (ctx: Context, address: Address) => formatV2Address(address, ctx.network.testOnly);

async function read(ctx: Context, at: Address, method: string, args: Parameters<typeof callGetMethod>[3] = []): Promise<StackReader> {
  const values = await callGetMethod(ctx.network, at, method, args, ctx.seqno);
  if (values === null) throw new NotThatContract(`${method} failed`);
  return new StackReader(values, method);
}

async function jettonMaster(ctx: Context) {
  const s = await read(ctx, ctx.address, 'get_jetton_data');
  const admin = s.address(2);
  return {
    '@type': 'ext.tokens.jettonMasterData',
    address: friendly(ctx, ctx.address),
    contract_type: 'jetton_master',
    total_supply: s.int(0).toString(),
    mintable: s.int(1) !== 0n,
    ...(admin ? { admin_address: friendly(ctx, admin) } : {}),
    jetton_content: parseTokenContent(s.cell(3)),
    jetton_wallet_code: bocBase64(s.cell(4)),
  };
}

async function jettonWallet(ctx: Context) {
  const s = await read(ctx, ctx.address, 'get_wallet_data');
  const owner = s.address(1);
  const master = s.address(2);
  if (!owner || !master) throw new NotThatContract('get_wallet_data: no owner or master');
  const vouched = await read(ctx, master, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }]);
  if (!vouched.address(0)?.equals(ctx.address)) throw new NotThatContract('the jetton master does not vouch for this wallet');
  // Mintless jettons (TEP-177) also say whether the airdrop was claimed.
  const claimed = await callGetMethod(ctx.network, ctx.address, 'is_claimed', [], ctx.seqno);
  return {
    '@type': 'ext.tokens.jettonWalletData',
    address: friendly(ctx, ctx.address),
    contract_type: 'jetton_wallet',
    balance: s.int(0).toString(),
    owner: friendly(ctx, owner),
    jetton: friendly(ctx, master),
    ...(claimed?.length === 1 && claimed[0].type === 'int' ? { mintless_is_claimed: claimed[0].value !== 0n } : {}),
    jetton_wallet_code: bocBase64(s.cell(3)),
  };
}

async function nftCollection(ctx: Context) {
  const s = await read(ctx, ctx.address, 'get_collection_data');
  const owner = s.address(2);
  return {
    '@type': 'ext.tokens.nftCollectionData',
    address: friendly(ctx, ctx.address),
    contract_type: 'nft_collection',
    next_item_index: s.int(0).toString(),
    ...(owner ? { owner_address: friendly(ctx, owner) } : {}),
    collection_content: parseTokenContent(s.cell(1)),
  };
}

async function nftItem(ctx: Context) {
  const s = await read(ctx, ctx.address, 'get_nft_data');
  const index = s.int(1);
  const collection = s.address(2);
  const owner = s.address(3);
  const individual = s.cell(4);
  let content = individual;
  if (collection) {
    const vouched = await read(ctx, collection, 'get_nft_address_by_index', [{ type: 'int', value: index }]);
    if (!vouched.address(0)?.equals(ctx.address)) throw new NotThatContract('the collection does not vouch for this item');
    content = (
      await read(ctx, collection, 'get_nft_content', [
        { type: 'int', value: index },
        { type: 'cell', cell: individual },
      ])
    ).cell(0);
  }
  return {
    '@type': 'ext.tokens.nftItemData',
    address: friendly(ctx, ctx.address),
    contract_type: 'nft_item',
    init: s.int(0) !== 0n,
    index: index.toString(),
    ...(collection ? { collection_address: friendly(ctx, collection) } : {}),
    ...(owner ? { owner_address: friendly(ctx, owner) } : {}),
    content: parseTokenContent(content),
  };
}

const READERS = [jettonMaster, jettonWallet, nftCollection, nftItem];

/** The token data of the contract at `address`, or null when it is none of the four kinds. */
export async function readTokenData(network: NetworkContext, address: Address, seqno?: number): Promise<Record<string, unknown> | null> {
  const ctx: Context = { network, address, seqno };
  for (const reader of READERS) {
    try {
      return await reader(ctx);
    } catch (error) {
      if (!(error instanceof NotThatContract)) throw error;
    }
  }
  return null;
}
