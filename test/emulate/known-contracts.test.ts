/**
 * The Emulate API's actions on contracts a sealed trace's classification knows beyond tokens, on a local network
 * with the v3 index: tongate's own collection (src/contracts/nft), an item on tongate's fixed-price sale
 * (src/contracts/nft-sale) and one on its auction (src/contracts/nft-auction), both detected by the index. A buyer's
 * plain transfer to the sale, emulated, is the `nft_purchase` the index gives the same message sealed (the sale found
 * on its emulated state); a bid on the auction, emulated, is an `auction_bid` naming the NFT's collection and index,
 * which only the index knows (the bid never reaches the item); a bid at the maximum, ending the auction, is an
 * `nft_purchase` at that bid, which only the auction's emulated state knows (the index holds the state before).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, contractAddress, internal, toNano, type Cell, type StateInit } from '@ton/core';
import { TonClient } from '@ton/ton';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { nftAuctionInit } from '../../src/contracts/nft-auction/auction.js';
import { nftSaleInit, type NftSaleParams } from '../../src/contracts/nft-sale/sale.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { nftAuctionCode, nftSaleCode } from '../contracts/support/code.js';
import { openStore } from '../index/support/stores.js';
import { mintItems } from '../api/v3/support/nft-collection.js';
import {
  actionShape,
  sealBlocks,
  sealedActions,
  sealUntilQuiet,
  serveIndex,
  walletRequestBoc,
  type V3Server,
} from '../api/v3/support/server.js';
import { testAuctionParams } from '../api/v3/support/nft-auction.js';

const raw = (a: Address) => formatRawUpper(a);
const EMULATE = '/api/emulate/v1';

type Owner = ReturnType<typeof testWallet>;

/** `from`'s request of one message, signed for its next seqno, as the external a wallet would send (deploying it first). */
async function request(client: TonClient, from: Owner, to: Address, value: bigint, body?: Cell, init?: StateInit): Promise<string> {
  const seqno = await client.open(from.wallet).getSeqno();
  return walletRequestBoc(from, seqno, [internal({ to, value, body, init, bounce: !init })], seqno === 0);
}

/** `boc` emulated with actions, then sent and sealed: both action lists (a wallet's own deployment left out). */
async function emulatedAndSealed(server: V3Server, boc: string): Promise<{ emulated: any[]; sealed: any[] }> {
  const reply = await server.post(`${EMULATE}/emulateTrace`, { boc, with_actions: true });
  assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  return { emulated: reply.body.actions, sealed: await sealedActions(server, boc) };
}

test('emulateTrace: a purchase from a sale and a bid on an auction the index knows are nft_purchase and auction_bid, as sealed', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  const [seller, buyer, bidder] = [testWallet(171), testWallet(172), testWallet(173)];
  const marketplace = testWallet(174).wallet.address;
  const creator = testWallet(175).wallet.address;
  const send = async (from: Owner, to: Address, value: bigint, body?: Cell, init?: StateInit) => {
    assert.equal((await server.post('/api/v3/message', { boc: await request(client, from, to, value, body, init) })).status, 200);
    await sealUntilQuiet(server);
  };
  await Promise.all([
    server.chain.fund(seller.wallet.address, toNano(50)),
    server.chain.fund(buyer.wallet.address, toNano(50)),
    server.chain.fund(bidder.wallet.address, toNano(50)),
    sealBlocks(server, 1),
  ]);
  await sealBlocks(server, 2);
  // The wallets deployed (a first transfer each), so an emulated request is no wallet's deployment.
  for (const who of [buyer, bidder]) await send(who, who.wallet.address, 1n);

  const { collection: C, item } = await mintItems((to, value, body, init) => send(seller, to, value, body, init), seller.wallet.address, {
    site: 'https://emulated.example',
    creator,
    count: 2,
  });
  const saleInit = nftSaleInit(await nftSaleCode(), {
    marketplace,
    nft: item(0),
    fullPrice: toNano(1),
    marketplaceFeeAddress: marketplace,
    marketplaceFee: toNano('0.05'),
    royaltyAddress: creator,
    royaltyAmount: toNano('0.02'),
    createdAt: 1_750_000_000,
  } satisfies NftSaleParams);
  const auctionInit = nftAuctionInit(
    await nftAuctionCode(),
    testAuctionParams({ marketplace, creator, nft: item(1), createdAt: 1_750_000_001 }),
  );
  const [sale, auction] = [contractAddress(0, saleInit), contractAddress(0, auctionInit)];
  for (const [index, at, init] of [[0, sale, saleInit] as const, [1, auction, auctionInit] as const]) {
    await send(seller, at, toNano('0.2'), undefined, init);
    await send(
      seller,
      item(index),
      toNano('0.1'),
      nftTransferBody({ newOwner: at, response: seller.wallet.address, forwardAmount: toNano('0.02') }),
    );
  }
  const listed = await server.get(`/api/v3/nft/sales?address=${raw(sale)}&address=${raw(auction)}`);
  assert.equal(listed.body.nft_sales?.length, 2, `the index knows the sale and the auction: ${JSON.stringify(listed.body).slice(0, 300)}`);

  // The buyer's plain transfer to the sale: nft_purchase, emulated as sealed.
  const bought = await emulatedAndSealed(server, await request(client, buyer, sale, toNano('1.2')));
  const purchase = bought.emulated.find((a) => a.type === 'nft_purchase');
  assert.ok(purchase, `an nft_purchase among ${bought.emulated.map((a) => a.type)}`);
  assert.deepEqual(
    [purchase.details.nft_item, purchase.details.new_owner, purchase.details.real_old_owner, purchase.details.price],
    [raw(item(0)), raw(buyer.wallet.address), raw(seller.wallet.address), toNano(1).toString()],
  );
  assert.deepEqual(bought.emulated.map(actionShape).sort(), bought.sealed.map(actionShape).sort(), 'the same actions as the sealed trace');

  // A bid: the auction is on the trace, its item is not (only the index names the item's collection and index).
  const bid = await emulatedAndSealed(server, await request(client, bidder, auction, toNano(1)));
  assert.deepEqual(
    bid.emulated.map((a) => a.type),
    ['auction_bid'],
  );
  assert.deepEqual(bid.emulated[0].details, {
    amount: toNano(1).toString(),
    bidder: raw(bidder.wallet.address),
    auction: raw(auction),
    nft_item: raw(item(1)),
    nft_collection: raw(C),
    nft_item_index: '1',
  });
  assert.deepEqual(bid.emulated.map(actionShape), bid.sealed.map(actionShape), 'the same action as the sealed trace');

  // A bid at the maximum ends the auction at once: an nft_purchase at that bid, as the auction's emulated state
  // tells it (the index still holds the first bid's state).
  const won = await emulatedAndSealed(server, await request(client, buyer, auction, toNano(10)));
  const wonPurchase = won.emulated.find((a) => a.type === 'nft_purchase');
  assert.ok(wonPurchase, `an nft_purchase among ${won.emulated.map((a) => a.type)}`);
  assert.deepEqual(
    [wonPurchase.details.nft_item, wonPurchase.details.new_owner, wonPurchase.details.price],
    [raw(item(1)), raw(buyer.wallet.address), toNano(10).toString()],
  );
  assert.deepEqual(won.emulated.map(actionShape).sort(), won.sealed.map(actionShape).sort(), 'the same actions as the sealed trace');
});
