/**
 * getgems auctions on traces built by hand (support.ts), the auction known to the classifier as the index's detection
 * (tokens/auctions.ts) would give it: bids and the refund of the bid they outbid, a listing that deploys an auction
 * (its terms in the layout of the auction's code hash), a cancel, a finish by op (the NFT's transfer a purchase, its
 * payout elsewhere) and by comment (the payout tied to the purchase through the comment), a winning bid at the
 * maximum (a purchase). Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import type { KnownContracts, NftAuctionInfo } from '../../../src/index/actions/trace-input.js';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { account, address, buildTrace, commentBody, op, againstSpec } from './support.js';

const [ALICE, BOB, CAROL, ITEM, COLLECTION, LISTING, AUCTION, MARKET, CREATOR] = [
  0xa11ce, 0xb0b, 0xca201, 0x1e, 0xc0, 0x115, 0xa0c, 0x3a, 0xc3,
].map(account);
const OUTBID = 'Your bid has been outbid by another user. It will definitely work next time';
const V4R1 = 'zlp4U06qps7tja/UhtB262CpsNbb+1Nnb2YmScBomVY=';
const V1 = '/ACindAgW83MDT/7nKOMw8jBWexg2KpUMkCpLxBZLUA=';
const V2 = 'ZmiHL6eXBUQ//UdSPo6eqfdquZ+aC1nSfej4GhwnudQ=';

const auctionOf = (codeHash = 'unknown', owner: string | null = ALICE): NftAuctionInfo => ({
  nft: ITEM,
  owner,
  marketplace: MARKET,
  lastBid: '2000000000',
  codeHash,
});
const contracts = (auction: NftAuctionInfo | null = auctionOf()): KnownContracts => ({
  jettonWallets: new Map(),
  nftItems: new Map([[ITEM, { index: '7', collection: COLLECTION }]]),
  multisigOrders: new Map(),
  nftSales: new Map(),
  nftAuctions: new Map(auction ? [[AUCTION, auction]] : []),
});

/** The actions that are no part of another (what a client of the newest types sees). */
const types = (actions: ActionRecord[]) => actions.filter((a) => a.ancestors.length === 0).map((a) => a.type);
const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type && a.ancestors.length === 0);
  assert.equal(found.length, 1, `one ${type} in ${JSON.stringify(types(actions))}`);
  return found[0];
};

test('auction_bid and auction_outbid: a bid into a detected auction, the refund of the bid it outbid', () => {
  const bid = (refunds: string[], comment?: string) =>
    buildTrace(BOB, [
      {
        to: AUCTION,
        value: 2_500_000_000n,
        body: comment === undefined ? undefined : commentBody(comment),
        then: refunds.map((to) => ({ to, value: 2_000_000_000n, body: commentBody(OUTBID), bounce: false })),
      },
    ]);
  const { trace, txs } = bid([CAROL]);
  const actions = classifyTrace(trace, contracts()).actions;
  assert.deepEqual(types(actions), ['auction_bid', 'auction_outbid']);
  const [placed, outbid] = actions.filter((a) => a.ancestors.length === 0);
  assert.equal(placed.success, true);
  assert.deepEqual(placed.details, {
    amount: '2500000000',
    bidder: BOB,
    auction: AUCTION,
    nft_item: ITEM,
    nft_collection: COLLECTION,
    nft_item_index: '7',
  });
  assert.deepEqual(placed.accounts, [AUCTION, BOB, ITEM], 'the auction, the bidder (and its wallet transaction), the NFT');
  assert.deepEqual(placed.transactions, [txs[0].hash, txs[1].hash]);
  assert.deepEqual(outbid.details, {
    auction_address: AUCTION,
    bidder: CAROL,
    new_bidder: BOB,
    nft_item: ITEM,
    nft_collection: COLLECTION,
    amount: '2000000000',
    comment: OUTBID,
  });
  assert.deepEqual(outbid.transactions, [txs[1].hash, txs[2].hash]);
  assert.deepEqual(outbid.accounts, [CAROL, AUCTION, BOB, ITEM]);
  for (const action of actions) againstSpec(action);

  // The first bid refunds nobody; two such refunds are no outbid (toncenter takes exactly one).
  assert.deepEqual(types(classifyTrace(bid([]).trace, contracts()).actions), ['auction_bid']);
  assert.deepEqual(types(classifyTrace(bid([CAROL, ALICE]).trace, contracts()).actions), ['auction_bid', 'ton_transfer', 'ton_transfer']);
  // An item the index does not know: the bid without its index and collection.
  const unknownItem = classifyTrace(trace, { ...contracts(), nftItems: new Map() }).actions[0];
  assert.deepEqual(
    [unknownItem.details.nft_item, unknownItem.details.nft_collection, unknownItem.details.nft_item_index],
    [ITEM, null, null],
  );
  // A command comment is no bid; an auction the index did not detect takes none.
  assert.deepEqual(types(classifyTrace(bid([], 'cancel').trace, contracts()).actions), ['ton_transfer']);
  assert.deepEqual(types(classifyTrace(trace, contracts(null)).actions), ['ton_transfer', 'ton_transfer']);
});

/** An auction's StateInit. */
const stateInit = (data: Cell) =>
  beginCell().storeBit(0).storeBit(0).storeMaybeRef(beginCell().storeUint(0xa0c, 16).endCell()).storeMaybeRef(data).storeBit(0).endCell();
const fees = (b = beginCell()) => b.storeAddress(address(MARKET)).storeUint(5, 32).storeUint(100, 32);
const royalties = (b = beginCell()) => b.storeAddress(address(CREATOR)).storeUint(3, 32).storeUint(100, 32);
const head = (b = beginCell()) => b.storeUint(0, 2).storeAddress(null).storeCoins(0).storeUint(0, 32).storeUint(1_750_000_000, 32);
const v3r3Data = () =>
  head()
    .storeAddress(address(ALICE))
    .storeUint(0, 64)
    .storeUint(5, 32)
    .storeUint(100, 32)
    .storeUint(3, 32)
    .storeUint(100, 32)
    .storeRef(beginCell().storeAddress(address(MARKET)).storeAddress(address(CREATOR)))
    .storeRef(
      beginCell().storeAddress(address(MARKET)).storeCoins(1_000_000_000n).storeCoins(9_000_000_000n).storeCoins(1n).storeUint(300, 32),
    )
    .endCell();
const v4r1Data = () =>
  head()
    .storeAddress(address(ALICE))
    .storeUint(0, 64)
    .storeRef(
      beginCell()
        .storeAddress(address(MARKET))
        .storeAddress(address(CREATOR))
        .storeUint(5, 32)
        .storeUint(100, 32)
        .storeUint(3, 32)
        .storeUint(100, 32),
    )
    .storeRef(
      beginCell().storeAddress(address(MARKET)).storeCoins(1_000_000_000n).storeCoins(9_000_000_000n).storeUint(5, 7).storeUint(300, 17),
    )
    .endCell();
const v1Data = () =>
  beginCell()
    .storeRef(royalties(fees()))
    .storeRef(beginCell().storeCoins(1_000_000_000n).storeCoins(9_000_000_000n).storeCoins(1n).storeUint(0, 96))
    .endCell();
const assigned = (prevOwner: string) => op(0x05138d91, 0n).storeAddress(address(prevOwner)).storeBit(0).endCell();

/** Alice hands the NFT to the listing contract, which deploys the auction and passes the NFT on to it. */
const listing = (data: Cell) =>
  buildTrace(ALICE, [
    {
      to: ITEM,
      body: nftTransferBody({ newOwner: address(LISTING), response: address(ALICE), forwardAmount: 100_000_000n }),
      then: [
        {
          to: LISTING,
          body: assigned(ALICE),
          then: [
            { to: AUCTION, value: 50_000_000n, init: stateInit(data), deploys: true },
            {
              to: ITEM,
              body: nftTransferBody({ newOwner: address(AUCTION), response: address(ALICE), forwardAmount: 10_000_000n }),
              then: [{ to: AUCTION, body: assigned(LISTING) }],
            },
          ],
        },
      ],
    },
  ]);

test('nft_put_on_auction: the terms from the auction StateInit in the layout of its code hash (unknown: v3r3, as toncenter)', () => {
  const expected = {
    nft_collection: COLLECTION,
    nft_item: ITEM,
    nft_item_index: '7',
    owner: ALICE,
    listing_address: LISTING,
    auction_address: AUCTION,
    marketplace_address: null,
    marketplace_fee_factor: '5',
    marketplace_fee_base: '100',
    royalty_fee_base: '100',
    max_bid: '9000000000',
    min_bid: '1000000000',
    marketplace_fee_address: MARKET,
    royalty_address: CREATOR,
    marketplace: null,
  };
  for (const [layout, data, codeHash] of [
    ['v3r3', v3r3Data(), 'unknown'],
    ['v4r1', v4r1Data(), V4R1],
    ['v1', v1Data(), V1],
  ] as const) {
    const { trace, txs } = listing(data);
    const actions = classifyTrace(trace, contracts(auctionOf(codeHash))).actions;
    const put = only(actions, 'nft_put_on_auction');
    assert.deepEqual(put.details, expected, layout);
    assert.equal(put.success, true);
    assert.equal(put.transactions.length, txs.length, 'every step of the listing');
    for (const who of [ALICE, LISTING, AUCTION, ITEM]) assert.ok(put.accounts.includes(who), who);
    assert.ok(!actions.some((a) => a.type === 'nft_put_on_sale'));
    againstSpec(put);
  }
  // getgems v2, whose data toncenter does not read; v1's layout under a code it does not know (read as v3r3, it does
  // not parse); an auction of another owner;
  // an auction the index did not detect: no listing, the transfers stay.
  for (const [data, auction] of [
    [v3r3Data(), auctionOf(V2)],
    [v1Data(), auctionOf('unknown')],
    [v3r3Data(), auctionOf('unknown', CAROL)],
    [v3r3Data(), null],
  ] as const) {
    const actions = classifyTrace(listing(data).trace, contracts(auction)).actions;
    assert.ok(!actions.some((a) => a.type === 'nft_put_on_auction'), JSON.stringify(auction));
    assert.equal(actions.filter((a) => a.type === 'nft_transfer').length, 2);
  }
});

/** `from` sends `command` (an op or a comment) to the auction, which sends the NFT to `to` and pays `payouts`. */
const command = (from: string, body: Cell, to: string, payouts: string[] = []) =>
  buildTrace(from, [
    {
      to: AUCTION,
      value: 100_000_000n,
      body,
      then: [
        {
          to: ITEM,
          body: nftTransferBody({ newOwner: address(to), response: address(to), forwardAmount: 1n }),
          then: [{ to, body: assigned(AUCTION), value: 1n }],
        },
        ...payouts.map((payee) => ({ to: payee, value: 1_800_000_000n, bounce: false })),
      ],
    },
  ]);

test('nft_cancel_auction: op cancel or the comment "cancel" to the auction that sends its NFT back', () => {
  for (const body of [op(0x5616c572, 0n).endCell(), commentBody('cancel')]) {
    const { trace } = command(ALICE, body, ALICE);
    const actions = classifyTrace(trace, contracts()).actions;
    assert.deepEqual(types(actions), ['nft_cancel_auction', 'nft_transfer']);
    const cancel = actions[0];
    assert.deepEqual(cancel.details, {
      owner: ALICE,
      nft_item: ITEM,
      nft_collection: COLLECTION,
      auction_address: AUCTION,
      marketplace_address: MARKET,
      marketplace: null,
    });
    assert.deepEqual(cancel.accounts, [AUCTION, ALICE, ITEM]);
    assert.equal(only(actions, 'nft_transfer').details.is_purchase, false, 'back to the seller: no purchase');
    againstSpec(cancel);
  }
  // Not the auction's NFT, or no auction: no cancel.
  const elsewhere = classifyTrace(
    command(ALICE, op(0x5616c572, 0n).endCell(), ALICE).trace,
    contracts({ ...auctionOf(), nft: CAROL }),
  ).actions;
  assert.ok(!elsewhere.some((a) => a.type === 'nft_cancel_auction'));
  assert.ok(
    !classifyTrace(command(ALICE, commentBody('cancel'), ALICE).trace, contracts(null)).actions.some(
      (a) => a.type === 'nft_cancel_auction',
    ),
  );
});

test('nft_finish_auction by op: the NFT goes to the winner as a purchase, the payout beside it (no nft_purchase)', () => {
  for (const opcode of [0x20c9eb18, 0xb95616b6]) {
    const { trace } = command(MARKET, op(opcode, 0n).endCell(), BOB, [ALICE]);
    const actions = classifyTrace(trace, contracts()).actions;
    const finish = only(actions, 'nft_finish_auction');
    assert.deepEqual(finish.details, {
      owner: BOB,
      nft_item: ITEM,
      nft_collection: COLLECTION,
      auction_address: AUCTION,
      marketplace_address: MARKET,
      marketplace: null,
    });
    const sold = only(actions, 'nft_transfer');
    assert.deepEqual(
      [sold.details.is_purchase, sold.details.price, sold.details.real_old_owner, sold.details.marketplace_address],
      [true, '2000000000', ALICE, MARKET],
    );
    assert.ok(!actions.some((a) => a.type === 'nft_purchase'));
    againstSpec(finish);
  }
});

test('nft_finish_auction by the comment "finish": the payout found through it makes an nft_purchase', () => {
  const { trace, txs } = command(ALICE, commentBody('finish'), BOB, [ALICE]);
  const actions = classifyTrace(trace, contracts()).actions;
  assert.deepEqual(types(actions), ['nft_finish_auction', 'nft_purchase']);
  const [finish, purchase] = [only(actions, 'nft_finish_auction'), only(actions, 'nft_purchase')];
  assert.deepEqual(finish.details, {
    owner: BOB,
    nft_item: ITEM,
    nft_collection: COLLECTION,
    auction_address: AUCTION,
    marketplace_address: null,
    marketplace: null,
  });
  assert.deepEqual(finish.transactions, [txs[0].hash, txs[1].hash], 'only the request');
  assert.deepEqual(
    [purchase.details.new_owner, purchase.details.price, purchase.details.payout_amount, purchase.details.real_old_owner],
    [BOB, '2000000000', '1800000000', ALICE],
  );
  assert.ok(purchase.transactions.includes(txs[4].hash), 'the payout to the seller');
  for (const action of actions) againstSpec(action);
  // Without the auction: a TON transfer with a comment and a plain NFT transfer.
  assert.ok(!types(classifyTrace(trace, contracts(null)).actions).some((t) => t.includes('auction') || t === 'nft_purchase'));
});

test('a bid at the maximum: the auction sends the NFT and pays the seller at once, an nft_purchase (no bid)', () => {
  const { trace, txs } = command(BOB, beginCell().endCell(), BOB, [ALICE]);
  const actions = classifyTrace(trace, contracts()).actions;
  const purchase = only(actions, 'nft_purchase');
  assert.deepEqual(
    [purchase.details.old_owner, purchase.details.new_owner, purchase.details.price, purchase.details.payout_amount],
    [AUCTION, BOB, '2000000000', '1800000000'],
  );
  assert.ok(purchase.transactions.includes(txs[1].hash), 'the bid is part of it');
  assert.ok(!actions.some((a) => a.type === 'auction_bid'));
  againstSpec(purchase);
});
