/**
 * NFT auctions on the local chain, through a real server, on both stores: tongate's own collection (src/contracts/nft)
 * mints three items to a seller, who puts each on tongate's own auction (src/contracts/nft-auction, getgems' auction
 * get_sale_data layout, magic "AUC"), all sent through @ton/ton's TonClient. The index detects the auctions by their
 * get-method, as toncenter's does: an item held by its auction is `on_sale` with `auction_contract_address` and
 * `real_owner`, `/nft/sales` answers it as `getgems_auction` with its details. Two bids on item 0 (`auction_bid`,
 * then `auction_bid` and `auction_outbid` refunding the first bidder), the seller finishes it by op
 * (`nft_finish_auction`, the NFT's transfer a purchase); item 1's auction is cancelled by the comment "cancel"
 * (`nft_cancel_auction`); item 2's, after a bid, finished by the comment "finish" (`nft_finish_auction` and
 * `nft_purchase`). Answers are checked against toncenter's v3 spec (where it has the path) and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, contractAddress, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import {
  AUCTION_MAGIC,
  auctionCommandBody,
  NFT_AUCTION_OP,
  nftAuctionInit,
  OUTBID_COMMENT,
  type NftAuctionParams,
} from '../../../src/contracts/nft-auction/auction.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { nftAuctionCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { mintItems } from './support/nft-collection.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { checkAgainstSpecs, ourV3 } from './support/spec.js';
import { testAuctionParams } from './support/nft-auction.js';

const raw = (a: Address) => formatRawUpper(a);
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

for (const store of ['sqlite', 'postgres'] as const) {
  test(`NFT auctions: detected, on sale through /nft/items and /nft/sales, bids, outbid, finish and cancel as actions [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
    const ours = ourV3((await server.get('/api/v3/openapi.json')).body);
    const get = async (path: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
      const bare = path.split('?')[0];
      // toncenter's published spec has no /nft/sales (ton-index-go serves it): ours only there.
      if (bare === '/api/v3/nft/sales') assert.deepEqual(ours.errors(bare, reply.body), [], `${path} against our openapi.json`);
      else checkAgainstSpecs(ours, bare, reply.body);
      return reply.body;
    };
    const seal = (blocks = 6) => sealBlocks(server, blocks);
    const [seller, alice, bob] = [testWallet(161), testWallet(162), testWallet(163)];
    const marketplace = testWallet(164).wallet.address;
    const creator = testWallet(165).wallet.address;
    const send = transferAndSeal(server);
    await Promise.all([
      server.chain.fund(seller.wallet.address, toNano(50)),
      server.chain.fund(alice.wallet.address, toNano(50)),
      server.chain.fund(bob.wallet.address, toNano(50)),
      seal(1),
    ]);
    await seal(2);

    const { collection: C, item } = await mintItems((to, value, body, init) => send(seller, to, value, body, init), seller.wallet.address, {
      site: 'https://auction.example',
      creator,
      count: 3,
    });
    const auctionCode = await nftAuctionCode();
    const paramsOf = (index: number): NftAuctionParams =>
      testAuctionParams({ marketplace, creator, nft: item(index), createdAt: 1_750_000_000 + index });
    const auction = (index: number) => contractAddress(0, nftAuctionInit(auctionCode, paramsOf(index)));
    for (const index of [0, 1, 2]) {
      await send(seller, auction(index), toNano('0.2'), undefined, nftAuctionInit(auctionCode, paramsOf(index)));
      // The NFT goes to the auction with a forward amount: its ownership_assigned names the seller.
      await send(
        seller,
        item(index),
        toNano('0.1'),
        nftTransferBody({ newOwner: auction(index), response: seller.wallet.address, forwardAmount: toNano('0.02') }),
      );
    }
    assert.equal(
      (await client.runMethod(auction(0), 'get_sale_data')).stack.readNumber(),
      AUCTION_MAGIC,
      'get_sale_data starts with "AUC"',
    );

    const [SELLER, ALICE, BOB, A0] = [raw(seller.wallet.address), raw(alice.wallet.address), raw(bob.wallet.address), raw(auction(0))];
    const held = (await get(`/api/v3/nft/items?address=${raw(item(0))}`)).nft_items[0];
    assert.deepEqual(
      [held.owner_address, held.on_sale, held.auction_contract_address, held.real_owner, 'sale_contract_address' in held],
      [A0, true, A0, SELLER, false],
      'owned by the auction, on sale through it',
    );
    assert.deepEqual((await get(`/api/v3/nft/items?owner_address=${SELLER}`)).nft_items, [], 'none is the seller’s by owner_address');
    assert.deepEqual(
      (await get(`/api/v3/nft/items?owner_address=${SELLER}&include_on_sale=true`)).nft_items
        .map((i: any) => [i.address, i.auction_contract_address, i.real_owner])
        .sort(),
      [0, 1, 2].map((i) => [raw(item(i)), raw(auction(i)), SELLER]).sort(),
      'include_on_sale: the owner filter reads real_owner, the auction’s seller',
    );

    const [answered] = (await get(`/api/v3/nft/sales?address=${auction(0).toString()}`)).nft_sales;
    assert.deepEqual(
      [
        answered.type,
        answered.address,
        answered.nft_address,
        answered.nft_owner_address,
        answered.marketplace_address,
        answered.created_at,
      ],
      ['getgems_auction', A0, raw(item(0)), SELLER, raw(marketplace), 1_750_000_000],
    );
    assert.deepEqual(answered.details, {
      end_flag: false,
      end_time: 1_760_000_000,
      last_bid: '0',
      min_step: 100_000_000,
      mp_fee_address: raw(marketplace),
      mp_fee_factor: 5,
      mp_fee_base: 100,
      royalty_fee_address: raw(creator),
      royalty_fee_factor: 2,
      royalty_fee_base: 100,
      max_bid: toNano(10).toString(),
      min_bid: toNano(1).toString(),
      last_bid_at: 0,
      is_canceled: false,
    });
    assert.deepEqual(
      [
        answered.nft_item.address,
        answered.nft_item.collection.address,
        answered.nft_item.on_sale,
        'auction_contract_address' in answered.nft_item,
      ],
      [raw(item(0)), raw(C), false, false],
      'its item as ton-index-go builds it there, without the sale fields',
    );

    /** The actions of the last trace `account` took part in (no part of another), with their accounts. */
    const lastTrace = async (account: Address) => {
      const [last] = (await get(`/api/v3/actions?account=${raw(account)}&limit=1&sort=desc`)).actions as any[];
      const actions = (await get(`/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&sort=asc&include_accounts=true`)).actions;
      return (actions as any[]).filter((a) => a.type !== 'contract_deploy');
    };

    // Alice bids 1 TON: auction_bid.
    await send(alice, auction(0), toNano(1));
    let actions = await lastTrace(auction(0));
    assert.deepEqual(
      actions.map((a) => a.type),
      ['auction_bid'],
    );
    assert.deepEqual(actions[0].details, {
      amount: toNano(1).toString(),
      bidder: ALICE,
      auction: A0,
      nft_item: raw(item(0)),
      nft_collection: raw(C),
      nft_item_index: '0',
    });
    assert.ok(actions[0].accounts.includes(raw(item(0))), 'the NFT among its accounts');

    // Bob outbids her: his bid, and her refund as auction_outbid.
    await send(bob, auction(0), toNano('1.5'));
    actions = await lastTrace(auction(0));
    assert.deepEqual(actions.map((a) => a.type).sort(), ['auction_bid', 'auction_outbid']);
    const outbid = actions.find((a) => a.type === 'auction_outbid');
    assert.deepEqual(outbid.details, {
      auction_address: A0,
      bidder: ALICE,
      new_bidder: BOB,
      nft_item: raw(item(0)),
      nft_collection: raw(C),
      amount: toNano(1).toString(),
      comment: OUTBID_COMMENT,
    });
    const bidding = (await get(`/api/v3/nft/sales?address=${A0}`)).nft_sales[0].details;
    assert.deepEqual([bidding.last_bid, bidding.last_member], [toNano('1.5').toString(), BOB]);

    // The seller finishes it by op: the NFT is Bob's (a purchase at his bid), nft_finish_auction for the request.
    await send(seller, auction(0), toNano('0.1'), auctionCommandBody(NFT_AUCTION_OP.finish));
    actions = await lastTrace(auction(0));
    const finish = actions.find((a) => a.type === 'nft_finish_auction');
    assert.ok(finish, JSON.stringify(actions.map((a) => a.type)));
    assert.deepEqual(finish.details, {
      owner: BOB,
      nft_item: raw(item(0)),
      nft_collection: raw(C),
      auction_address: A0,
      marketplace_address: raw(marketplace),
      marketplace: null,
    });
    const sold = actions.find((a) => a.type === 'nft_transfer');
    assert.deepEqual(
      [sold.details.new_owner, sold.details.is_purchase, sold.details.price, sold.details.real_old_owner],
      [BOB, true, toNano('1.5').toString(), SELLER],
    );
    const won = (await get(`/api/v3/nft/items?address=${raw(item(0))}`)).nft_items[0];
    assert.deepEqual([won.owner_address, won.on_sale, 'auction_contract_address' in won, 'real_owner' in won], [BOB, false, false, false]);
    assert.equal((await get(`/api/v3/nft/sales?address=${A0}`)).nft_sales[0].details.end_flag, true);

    // Item 1's auction cancelled by the comment "cancel": the NFT back to the seller.
    await send(seller, auction(1), toNano('0.1'), comment('cancel'));
    actions = await lastTrace(auction(1));
    assert.deepEqual(actions.map((a) => a.type).sort(), ['nft_cancel_auction', 'nft_transfer']);
    assert.deepEqual(actions.find((a) => a.type === 'nft_cancel_auction').details, {
      owner: SELLER,
      nft_item: raw(item(1)),
      nft_collection: raw(C),
      auction_address: raw(auction(1)),
      marketplace_address: raw(marketplace),
      marketplace: null,
    });
    const cancelled = (await get(`/api/v3/nft/sales?address=${raw(auction(1))}`)).nft_sales[0].details;
    assert.deepEqual([cancelled.end_flag, cancelled.is_canceled], [true, true]);
    assert.equal((await get(`/api/v3/nft/items?address=${raw(item(1))}`)).nft_items[0].owner_address, SELLER);

    // Item 2: Alice bids, the seller finishes by the comment "finish": nft_finish_auction and nft_purchase (the payout
    // to the seller found through the comment's transaction).
    await send(alice, auction(2), toNano(2));
    await send(seller, auction(2), toNano('0.1'), comment('finish'));
    actions = await lastTrace(auction(2));
    assert.deepEqual(actions.map((a) => a.type).sort(), ['nft_finish_auction', 'nft_purchase', 'ton_transfer', 'ton_transfer']);
    const purchase = actions.find((a) => a.type === 'nft_purchase');
    assert.deepEqual(
      [purchase.details.new_owner, purchase.details.price, purchase.details.real_old_owner, purchase.details.payout_amount],
      [ALICE, toNano(2).toString(), SELLER, toNano('1.86').toString()],
      'the bid less the marketplace fee (5%) and royalty (2%)',
    );
    assert.deepEqual(actions.find((a) => a.type === 'nft_finish_auction').details.marketplace_address, null);
  });
}
