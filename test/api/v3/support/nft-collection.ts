/**
 * A collection of tongate's own NFT contract (src/contracts/nft) deployed on a local chain with `count` items minted
 * to `owner`, each sent through `send` (a transfer from the owner's wallet, the block sealed after it): what the
 * sale and auction tests put on sale.
 */
import { beginCell, contractAddress, toNano, type Address, type Cell, type StateInit } from '@ton/core';
import { offchainContent } from '../../../../src/contracts/content.js';
import { deployItemBody, nftCollectionInit, nftItemAddress } from '../../../../src/contracts/nft/nft.js';
import { nftCode } from '../../../contracts/support/code.js';

export type SendFromOwner = (to: Address, value: bigint, body?: Cell, init?: StateInit) => Promise<void>;

export async function mintItems(
  send: SendFromOwner,
  owner: Address,
  { site, creator, count }: { site: string; creator: Address; count: number },
): Promise<{ collection: Address; item: (index: number) => Address }> {
  const code = await nftCode();
  const collectionInit = nftCollectionInit(code.collection, {
    owner,
    content: offchainContent(`${site}/collection.json`),
    commonContent: beginCell().storeStringTail(`${site}/`).endCell(),
    itemCode: code.item,
    royalty: { numerator: 2, denominator: 100, destination: creator },
  });
  const collection = contractAddress(0, collectionInit);
  for (let index = 0; index < count; index++) {
    const body = deployItemBody({
      index,
      amount: toNano('0.1'),
      owner,
      content: beginCell().storeStringTail(`${index}.json`).endCell(),
    });
    await send(collection, toNano('0.2'), body, index === 0 ? collectionInit : undefined);
  }
  return { collection, item: (index: number) => nftItemAddress(collection, code.item, index) };
}
