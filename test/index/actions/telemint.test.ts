/**
 * Telegram items (Fragment's usernames and numbers), .ton DNS items and getgems' sale price change on traces built by
 * hand (support.ts), the items known to the classifier as token detection stores them (their content and code hash
 * read back into flags): an auction started and cancelled on a Telegram item, bids on Telegram and DNS items with the
 * refund of the bid they outbid, a DNS item bought at its auction's end and its balance released, a sale's new price.
 * Each in the way it succeeds and the way it fails (`success` false), field by field as toncenter answers, against
 * toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { beginCell, type Cell } from '@ton/core';
import { classifyTrace, type ActionRecord } from '../../../src/index/actions/classify.js';
import { DNS_COLLECTION, DNS_ITEM_CODE_HASH, telemintFlags } from '../../../src/index/actions/telemint.js';
import { groupRowsOf, knownContracts } from '../../../src/index/actions/trace-source.js';
import type { KnownContracts, NftItemInfo, NftSaleInfo } from '../../../src/index/actions/trace-input.js';
import { itemBatch, type NftItemRow } from '../../../src/index/tokens/token-rows.js';
import { migrate } from '../../../src/index/schema.js';
import type { SqlDriver } from '../../../src/index/sql/driver.js';
import { PostgresDriver } from '../../../src/index/sql/postgres-driver.js';
import { SqliteDriver } from '../../../src/index/sql/sqlite-driver.js';
import { dropSchema, POSTGRES_URL, requireService, uniqueName } from '../../support/services.js';
import { account, address, buildTrace, commentBody, op, againstSpec } from './support.js';

const [ALICE, BOB, CAROL, USERNAME, USERNAMES, DOMAIN, FRAGMENT, PLAIN, SALE, MARKET] = [
  0xa11ce, 0xb0b, 0xca201, 0x7e1, 0x7ec, 0xd0, 0xf2a, 0x91a, 0x5a1e, 0x3a,
].map(account);

const OP = {
  startAuction: 0x487a8e81,
  cancelAuction: 0x371638ae,
  teleitemOk: 0xa37a0983,
  outbid: 0x557cea20,
  fillUp: 0x370fec51,
  release: 0x4ed14b65,
  saleUpdate: 0x6c6c2080,
  changeDnsRecord: 0x4eb1f0f9,
};

const USERNAME_ITEM: NftItemInfo = { index: '3405691582', collection: USERNAMES, teleitem: true };
const DOMAIN_ITEM: NftItemInfo = { index: '77', collection: DNS_COLLECTION, dns: true };
const SALE_INFO: NftSaleInfo = { nft: PLAIN, owner: ALICE, marketplace: MARKET, fullPrice: '5000000000', codeHash: 'unknown' };

const contracts = (items: [string, NftItemInfo][] = [], sales: [string, NftSaleInfo][] = []): KnownContracts => ({
  jettonWallets: new Map(),
  nftItems: new Map(items),
  multisigOrders: new Map(),
  nftSales: new Map(sales),
  nftAuctions: new Map(),
});
const KNOWN = contracts(
  [
    [USERNAME, USERNAME_ITEM],
    [DOMAIN, DOMAIN_ITEM],
    [PLAIN, { index: '5', collection: USERNAMES }],
  ],
  [[SALE, SALE_INFO]],
);

/** The actions that are no part of another (what a client of the newest types sees). */
const types = (actions: ActionRecord[]) => actions.filter((a) => a.ancestors.length === 0).map((a) => a.type);
const only = (actions: ActionRecord[], type: string): ActionRecord => {
  const found = actions.filter((a) => a.type === type && a.ancestors.length === 0);
  assert.equal(found.length, 1, `one ${type} in ${JSON.stringify(types(actions))}`);
  return found[0];
};
const sorted = (list: string[]) => [...list].sort();

// Telegram items: an auction started and cancelled by the item's owner.

const auctionConfig = () =>
  beginCell()
    .storeAddress(address(FRAGMENT))
    .storeCoins(10_000_000_000n)
    .storeCoins(1_000_000_000_000n)
    .storeUint(5, 8)
    .storeUint(3600, 32)
    .storeUint(604_800, 32)
    .endCell();
const startBody = (config: Cell = auctionConfig()) => op(OP.startAuction, 42n).storeRef(config).endCell();

/** Alice, the item's owner, sends `body` to `item`, which answers teleitem_ok (or aborts and bounces). */
const ownerCall = (item: string, body: Cell, aborted = false) =>
  buildTrace(ALICE, [
    {
      to: item,
      value: 100_000_000n,
      body,
      aborted,
      then: aborted
        ? [{ to: ALICE, value: 99_000_000n, body: beginCell().storeUint(0xffffffff, 32).endCell(), bounced: true, bounce: false }]
        : [{ to: ALICE, value: 50_000_000n, body: op(OP.teleitemOk, 42n).endCell(), bounce: false }],
    },
  ]);

test('teleitem_start_auction: the owner starts an auction on a Telegram item, its config read from the body', () => {
  const { trace, txs } = ownerCall(USERNAME, startBody());
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['teleitem_start_auction']);
  const started = only(actions, 'teleitem_start_auction');
  assert.equal(started.success, true);
  assert.deepEqual(started.details, {
    nft_collection: USERNAMES,
    nft_item: USERNAME,
    nft_item_index: '3405691582',
    owner: ALICE,
    listing_address: null,
    auction_address: USERNAME,
    marketplace_address: null,
    marketplace_fee_factor: '0',
    marketplace_fee_base: '0',
    royalty_fee_base: '0',
    max_bid: '1000000000000',
    min_bid: '10000000000',
    marketplace_fee_address: FRAGMENT,
    royalty_address: null,
    marketplace: null,
  });
  assert.deepEqual(
    started.transactions,
    txs.map((t) => t.hash),
    'the request and the item answer teleitem_ok',
  );
  assert.deepEqual(sorted(started.accounts), sorted([ALICE, USERNAME]));
  againstSpec(started);

  // The item refused (aborted, the request bounced): failed.
  const refused = only(classifyTrace(ownerCall(USERNAME, startBody(), true).trace, KNOWN).actions, 'teleitem_start_auction');
  assert.equal(refused.success, false);
  againstSpec(refused);
  // A config that does not parse: toncenter's zeros and no beneficiary.
  const broken = only(
    classifyTrace(ownerCall(USERNAME, startBody(beginCell().storeUint(1, 3).endCell())).trace, KNOWN).actions,
    'teleitem_start_auction',
  );
  assert.deepEqual([broken.details.min_bid, broken.details.max_bid, broken.details.marketplace_fee_address], ['0', '0', null]);
  // Not a Telegram item (a DNS item, an NFT of no telemint kind, an item not detected): no auction.
  for (const item of [DOMAIN, PLAIN, CAROL])
    assert.ok(!types(classifyTrace(ownerCall(item, startBody()).trace, KNOWN).actions).includes('teleitem_start_auction'), item);
});

test('teleitem_cancel_auction: the owner cancels the auction of a Telegram item', () => {
  const { trace, txs } = ownerCall(USERNAME, op(OP.cancelAuction, 42n).endCell());
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['teleitem_cancel_auction']);
  const cancelled = only(actions, 'teleitem_cancel_auction');
  assert.equal(cancelled.success, true);
  assert.deepEqual(cancelled.details, {
    owner: ALICE,
    nft_item: USERNAME,
    nft_collection: USERNAMES,
    auction_address: USERNAME,
    marketplace_address: null,
    marketplace: null,
  });
  assert.deepEqual(
    cancelled.transactions,
    txs.map((t) => t.hash),
  );
  againstSpec(cancelled);

  const refused = only(
    classifyTrace(ownerCall(USERNAME, op(OP.cancelAuction, 42n).endCell(), true).trace, KNOWN).actions,
    'teleitem_cancel_auction',
  );
  assert.equal(refused.success, false);
  assert.ok(
    !types(classifyTrace(ownerCall(PLAIN, op(OP.cancelAuction, 42n).endCell()).trace, KNOWN).actions).includes('teleitem_cancel_auction'),
  );
});

// Bids on the items themselves.

/** Bob bids on `item`; it refunds the bidders in `refunds` with an outbid notification (or aborts and bounces). */
const bid = (item: string, refunds: string[], aborted = false) =>
  buildTrace(BOB, [
    {
      to: item,
      value: 12_000_000_000n,
      aborted,
      then: aborted
        ? [{ to: BOB, value: 11_900_000_000n, body: beginCell().storeUint(0xffffffff, 32).endCell(), bounced: true, bounce: false }]
        : refunds.map((to) => ({ to, value: 10_000_000_000n, body: op(OP.outbid, 0n).endCell(), bounce: false })),
    },
  ]);

test('auction_bid and auction_outbid on a Telegram item: the item is the auction, the refund an outbid notification', () => {
  const { trace, txs } = bid(USERNAME, [CAROL]);
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['auction_bid', 'auction_outbid']);
  const [placed, outbid] = [only(actions, 'auction_bid'), only(actions, 'auction_outbid')];
  assert.equal(placed.success, true);
  assert.deepEqual(placed.details, {
    amount: '12000000000',
    bidder: BOB,
    auction: USERNAME,
    nft_item: USERNAME,
    nft_collection: USERNAMES,
    nft_item_index: '3405691582',
  });
  assert.deepEqual(placed.transactions, [txs[0].hash, txs[1].hash]);
  assert.deepEqual(sorted(placed.accounts), sorted([BOB, USERNAME]));
  // No comment: ton-index-go leaves the key out.
  assert.deepEqual(outbid.details, {
    auction_address: USERNAME,
    bidder: CAROL,
    new_bidder: BOB,
    nft_item: USERNAME,
    nft_collection: USERNAMES,
    amount: '10000000000',
  });
  assert.deepEqual(outbid.transactions, [txs[1].hash, txs[2].hash]);
  assert.deepEqual(sorted(outbid.accounts), sorted([BOB, CAROL, USERNAME]));
  for (const action of [placed, outbid]) againstSpec(action);

  // The first bid refunds nobody: a bid alone. Two notifications: no outbid (toncenter takes exactly one).
  assert.deepEqual(types(classifyTrace(bid(USERNAME, []).trace, KNOWN).actions), ['auction_bid']);
  assert.deepEqual(types(classifyTrace(bid(USERNAME, [CAROL, ALICE]).trace, KNOWN).actions), [
    'auction_bid',
    'call_contract',
    'call_contract',
  ]);
  // A bid the item refused (too low: aborted, bounced back): failed.
  const refused = only(classifyTrace(bid(USERNAME, [], true).trace, KNOWN).actions, 'auction_bid');
  assert.equal(refused.success, false);
  againstSpec(refused);
  // TON into an item of no telemint kind is a transfer.
  assert.deepEqual(types(classifyTrace(bid(PLAIN, []).trace, KNOWN).actions), ['ton_transfer']);
  // A command comment is no bid.
  const comment = buildTrace(BOB, [{ to: USERNAME, body: commentBody('cancel') }]);
  assert.deepEqual(types(classifyTrace(comment.trace, KNOWN).actions), ['ton_transfer']);
});

test('auction_bid on a .ton DNS item: only with the refund of the bid it outbid (toncenter guard)', () => {
  const { trace } = bid(DOMAIN, [CAROL]);
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['auction_bid', 'auction_outbid']);
  assert.deepEqual(only(actions, 'auction_bid').details, {
    amount: '12000000000',
    bidder: BOB,
    auction: DOMAIN,
    nft_item: DOMAIN,
    nft_collection: DNS_COLLECTION,
    nft_item_index: '77',
  });
  // The first bid, or one the item refused, sends no notification: a TON transfer for toncenter.
  assert.deepEqual(types(classifyTrace(bid(DOMAIN, []).trace, KNOWN).actions), ['ton_transfer']);
  const refused = classifyTrace(bid(DOMAIN, [], true).trace, KNOWN).actions;
  assert.equal(types(refused)[0], 'ton_transfer');
  assert.ok(!types(refused).includes('auction_bid'));
  assert.equal(refused[0].success, false);
});

// .ton DNS items: bought at the auction's end, balance released.

/**
 * Alice's renewal (change_dns_record, key 0, no value) reaches a DNS item whose auction is over: it sends the
 * collection the winning bid with auction_fill_up. `collectionAborts`: the collection refused it.
 */
const purchase = (item: string, { collectionAborts = false, plain = false } = {}) =>
  buildTrace(ALICE, [
    {
      to: item,
      value: 50_000_000n,
      body: plain ? undefined : op(OP.changeDnsRecord, 9n).storeUint(0, 256).endCell(),
      then: [{ to: DNS_COLLECTION, value: 25_000_000_000n, body: op(OP.fillUp, 9n).endCell(), aborted: collectionAborts }],
    },
  ]);

test('dns_purchase: the fill-up a .ton DNS item sends after the call that found its auction over', () => {
  const { trace, txs } = purchase(DOMAIN);
  const actions = classifyTrace(trace, KNOWN).actions;
  // The call stays an action of its own (here a renewal), as toncenter leaves it.
  assert.deepEqual(types(actions), ['renew_dns', 'dns_purchase']);
  const bought = only(actions, 'dns_purchase');
  assert.equal(bought.success, true);
  assert.deepEqual(bought.details, {
    nft_collection: DNS_COLLECTION,
    nft_item: DOMAIN,
    nft_item_index: '77',
    new_owner: ALICE,
    price: '25000000000',
    query_id: '9',
    payout_amount: '25000000000',
  });
  assert.deepEqual(bought.transactions, [txs[1].hash, txs[2].hash], 'the fill-up and the item transaction that sent it');
  assert.deepEqual(sorted(bought.accounts), sorted([ALICE, DOMAIN, DNS_COLLECTION]));
  againstSpec(bought);

  const refused = only(classifyTrace(purchase(DOMAIN, { collectionAborts: true }).trace, KNOWN).actions, 'dns_purchase');
  assert.equal(refused.success, false);
  // A fill-up of a Telegram item, or after a plain TON transfer (no contract call), is no DNS purchase.
  assert.ok(!types(classifyTrace(purchase(USERNAME).trace, KNOWN).actions).includes('dns_purchase'));
  assert.ok(!types(classifyTrace(purchase(DOMAIN, { plain: true }).trace, KNOWN).actions).includes('dns_purchase'));
});

test('dns_release: dns_balance_release to a .ton DNS item', () => {
  const release = (item: string, aborted = false) =>
    buildTrace(BOB, [{ to: item, value: 3_000_000_000n, body: op(OP.release, 11n).endCell(), aborted }]);
  const { trace, txs } = release(DOMAIN);
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['dns_release']);
  const released = only(actions, 'dns_release');
  assert.equal(released.success, true);
  assert.deepEqual(released.details, {
    query_id: '11',
    source: BOB,
    nft_item: DOMAIN,
    nft_collection: DNS_COLLECTION,
    nft_item_index: '77',
    value: '3000000000',
  });
  assert.deepEqual(released.transactions, [txs[0].hash, txs[1].hash]);
  assert.deepEqual(sorted(released.accounts), sorted([BOB, DOMAIN]));
  againstSpec(released);

  const refused = only(classifyTrace(release(DOMAIN, true).trace, KNOWN).actions, 'dns_release');
  assert.equal(refused.success, false);
  assert.deepEqual(types(classifyTrace(release(USERNAME).trace, KNOWN).actions), ['call_contract']);
});

// getgems: a sale's price changed.

test('nft_update_sale: sale_update to a detected sale, the new terms from the body', () => {
  const update = (sale: string, aborted = false) =>
    buildTrace(ALICE, [
      {
        to: sale,
        value: 50_000_000n,
        body: op(OP.saleUpdate, 5n).storeCoins(7_000_000_000n).storeCoins(350_000_000n).storeCoins(700_000_000n).endCell(),
        aborted,
      },
    ]);
  const { trace, txs } = update(SALE);
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['nft_update_sale']);
  const updated = only(actions, 'nft_update_sale');
  assert.equal(updated.success, true);
  assert.deepEqual(updated.details, {
    source: ALICE,
    sale_contract: SALE,
    nft_address: PLAIN,
    marketplace_address: MARKET,
    marketplace: null,
    full_price: '7000000000',
    marketplace_fee: '350000000',
    royalty_amount: '700000000',
  });
  assert.deepEqual(updated.transactions, [txs[0].hash, txs[1].hash]);
  assert.deepEqual(sorted(updated.accounts), sorted([ALICE, SALE, PLAIN]), 'the NFT among its accounts');
  againstSpec(updated);

  const refused = only(classifyTrace(update(SALE, true).trace, KNOWN).actions, 'nft_update_sale');
  assert.equal(refused.success, false);
  // A sale the index did not detect: a contract call.
  assert.deepEqual(types(classifyTrace(update(CAROL).trace, KNOWN).actions), ['call_contract']);
});

// Which items are Telegram's and .ton DNS's.

// Telegram items sold at their auction's end: the item's own ownership_assigned, marked as a purchase.

/** teleitem_bid_info#38127de1 bid ts: the payload toncenter's Fragment purchase case carries (its BoC kept below). */
const bidInfo = (bid = 111_000_000_000n) => beginCell().storeUint(0x38127de1, 32).storeCoins(bid).storeUint(1_700_930_742, 32).endCell();
const assigned = (payload: Cell | null, prevOwner = ALICE) => {
  const b = op(0x05138d91, 42_799_341_000_003n).storeAddress(address(prevOwner));
  return (payload === null ? b.storeBit(0) : b.storeBit(1).storeRef(payload)).endCell();
};

/**
 * Bob's bid wins `item`'s auction: the item hands itself to him (ownership_assigned with `payload`) and pays out the
 * fill-ups to each of `fillUps` (receiver, value, whether it aborted).
 */
const won = (item: string, payload: Cell | null, fillUps: [string, bigint, boolean?][]) =>
  buildTrace(BOB, [
    {
      to: item,
      value: 111_000_000_000n,
      then: [
        { to: BOB, value: 1n, body: assigned(payload), bounce: false },
        ...fillUps.map(([to, value, aborted]) => ({ to, value, body: op(OP.fillUp, 0n).endCell(), aborted })),
      ],
    },
  ]);

test('a Telegram item sold at its auction: an nft_transfer marked as a purchase with the bid and its fill-ups', () => {
  const { trace, txs } = won(USERNAME, bidInfo(), [
    [FRAGMENT, 5_550_000_000n],
    [ALICE, 105_450_000_000n],
  ]);
  const actions = classifyTrace(trace, KNOWN).actions;
  assert.deepEqual(types(actions), ['nft_transfer']);
  const sold = only(actions, 'nft_transfer');
  assert.equal(sold.success, true);
  assert.deepEqual(sold.details, {
    nft_collection: USERNAMES,
    nft_item: USERNAME,
    nft_item_index: '3405691582',
    old_owner: ALICE,
    new_owner: BOB,
    is_purchase: true,
    price: '111000000000',
    query_id: '42799341000003',
    response_destination: null,
    custom_payload: null,
    // The BoC toncenter's Fragment purchase case holds, byte for byte.
    forward_payload: 'te6cckEBAQEAEAAAGzgSfeFRnYHZYAZWIktoiLLaZw==',
    forward_amount: null,
    comment: null,
    is_encrypted_comment: false,
    marketplace: null,
    real_old_owner: null,
    marketplace_address: null,
    payout_amount: '105450000000',
    payout_address: ALICE,
    payout_comment: null,
    payout_comment_encrypted: null,
    payout_comment_encoded: null,
    royalty_amount: '5550000000',
    royalty_address: FRAGMENT,
  });
  assert.deepEqual(
    sold.transactions,
    txs.map((t) => t.hash),
    'the winning bid, the new owner, both fill-ups and the bidder wallet',
  );
  assert.deepEqual(sorted(sold.accounts), sorted([ALICE, BOB, USERNAME, FRAGMENT]));
  againstSpec(sold);

  // One fill-up is the payout; a fill-up whose receiver aborted does not fail it (toncenter never does).
  const one = only(classifyTrace(won(USERNAME, bidInfo(), [[ALICE, 7n, true]]).trace, KNOWN).actions, 'nft_transfer');
  assert.equal(one.success, true);
  assert.deepEqual(
    [one.details.payout_amount, one.details.payout_address, one.details.royalty_amount, one.details.royalty_address],
    ['7', ALICE, null, null],
  );
  againstSpec(one);

  // No bid in the payload: a plain transfer, the bid not part of it (it is a bid of its own).
  const plain = classifyTrace(won(USERNAME, null, [[ALICE, 7n]]).trace, KNOWN).actions;
  const transfer = only(plain, 'nft_transfer');
  assert.equal(transfer.details.is_purchase, false);
  assert.ok(!('price' in transfer.details));
  assert.equal(transfer.details.forward_payload, 'te6cckEBAQEAAgAAAEysuc0=', 'the empty payload, as toncenter writes it');
  assert.deepEqual(transfer.details.payout_amount, null);
  assert.equal(transfer.transactions.length, 2, 'the new owner and the item that sent the notification');
  assert.ok(types(plain).includes('auction_bid'));
  // An item the index did not detect: no transfer, the notification stays a contract call.
  assert.ok(!types(classifyTrace(won(CAROL, bidInfo(), [[ALICE, 7n]]).trace, KNOWN).actions).includes('nft_transfer'));
  // Right after the item's deployment by its collection: its first owner bought nothing.
  const minted = buildTrace(USERNAMES, [
    { to: USERNAME, body: op(0x299a3e15, 0n).endCell(), then: [{ to: BOB, value: 1n, body: assigned(bidInfo()), bounce: false }] },
  ]);
  const first = only(classifyTrace(minted.trace, KNOWN).actions, 'nft_transfer');
  assert.equal(first.details.is_purchase, false);
  assert.ok(!('price' in first.details));
});

test('telemintFlags: a Telegram item by its content uri, a .ton DNS item by its code or collection', () => {
  const uri = (u: string) => JSON.stringify({ uri: u });
  assert.deepEqual(telemintFlags(uri('https://nft.fragment.com/username/durov.json'), 'x', USERNAMES), { teleitem: true });
  assert.deepEqual(telemintFlags({ uri: 'https://nft.fragment.com/number/88800000000.json' }, null, null), { teleitem: true });
  assert.deepEqual(telemintFlags(JSON.stringify({ name: 'https://nft.fragment.com' }), 'x', null), {}, 'not the uri');
  assert.deepEqual(telemintFlags(uri('https://example.com/1.json'), 'x', USERNAMES), {});
  assert.deepEqual(telemintFlags(null, DNS_ITEM_CODE_HASH, account(1)), { dns: true });
  assert.deepEqual(telemintFlags(null, 'x', DNS_COLLECTION), { dns: true });
  assert.deepEqual(telemintFlags(null, null, null), {});
});

async function openDriver(t: TestContext, store: 'sqlite' | 'postgres'): Promise<SqlDriver | null> {
  if (store === 'sqlite') {
    const driver = SqliteDriver.open();
    t.after(() => driver.close());
    return driver;
  }
  if (!(await requireService(t, 'postgres'))) return null;
  const schema = uniqueName('tongate_telemint');
  const driver = await PostgresDriver.open(POSTGRES_URL, schema);
  t.after(async () => {
    await driver.close();
    await dropSchema(schema);
  });
  return driver;
}

const itemRow = (
  address_: string,
  index: bigint,
  collection: string,
  content: Record<string, string> | null,
  codeHash: Buffer,
): NftItemRow => ({
  address: address_,
  init: true,
  index,
  collection,
  owner: ALICE,
  content,
  lastTxLt: 100n,
  codeHash,
  dataHash: Buffer.alloc(32, 3),
});

test('the items read as the classifier needs them: flags from the stored content and code hash, the group first', async (t) => {
  const dnsCode = Buffer.from(DNS_ITEM_CODE_HASH, 'base64');
  const otherCode = Buffer.alloc(32, 9);
  const stored = [
    itemRow(USERNAME, 3_405_691_582n, USERNAMES, { uri: 'https://nft.fragment.com/username/tongate.json' }, otherCode),
    itemRow(DOMAIN, 77n, account(0xd115), { name: 'tongate.ton' }, dnsCode),
    itemRow(PLAIN, 5n, USERNAMES, { uri: 'https://example.com/5.json' }, otherCode),
    // Fragment named outside the uri (and in other letters: SQLite's LIKE would let it through): no Telegram item.
    itemRow(MARKET, 6n, USERNAMES, { uri: 'HTTPS://NFT.FRAGMENT.COM/6.json', name: 'https://nft.fragment.com' }, otherCode),
  ];
  for (const store of ['sqlite', 'postgres'] as const) {
    const driver = await openDriver(t, store);
    if (!driver) continue;
    await migrate(driver);
    await driver.write([itemBatch(stored)]);
    const known = await knownContracts(driver, [USERNAME, DOMAIN, PLAIN, MARKET]);
    assert.deepEqual(known.nftItems.get(USERNAME), { index: '3405691582', collection: USERNAMES, teleitem: true }, store);
    assert.deepEqual(known.nftItems.get(DOMAIN), { index: '77', collection: account(0xd115), dns: true }, store);
    assert.deepEqual(known.nftItems.get(PLAIN), { index: '5', collection: USERNAMES }, store);
    assert.deepEqual(known.nftItems.get(MARKET), { index: '6', collection: USERNAMES }, store);
    // The group's rows (as token detection hands them over) are read alike.
    const group = groupRowsOf([itemBatch([itemRow(CAROL, 1n, DNS_COLLECTION, null, otherCode)])], new Set());
    const withGroup = await knownContracts(driver, [CAROL], group);
    assert.deepEqual(withGroup.nftItems.get(CAROL), { index: '1', collection: DNS_COLLECTION, dns: true }, store);
  }
});
