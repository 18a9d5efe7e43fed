/**
 * The detector of getgems' sale contracts (tokens/sales.ts `readSaleContract`, tokens/auctions.ts) on answers built
 * by hand, what a local chain cannot give: getgems' v4 auctions answer `get_auction_data_v4` (26 values, no magic),
 * tried first, with get_sale_data as the fallback when it fails or has another shape. Also one get_sale_data read as a
 * sale or an auction by its magic, and what is neither. tongate's own auction (src/contracts/nft-auction) proves the
 * "AUC" layout on a local chain (test/api/v3/nft-auctions.test.ts). getgems' v4 sales answer only `get_fix_price_data_v4`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Address } from '@ton/core';
import { NotThatContract } from '../../src/ton/stack-reader.js';
import type { VmValue } from '../../src/ton/vm-stack.js';
import { auctionBatch } from '../../src/index/tokens/auctions.js';
import type { TokenAccountCandidate } from '../../src/index/tokens/block-tokens.js';
import type { GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import type { TokenMethod } from '../../src/index/tokens/method-ids.js';
import { readSaleContract } from '../../src/index/tokens/sales.js';
import { account, address } from './actions/support.js';

const [AUCTION, MARKET, ITEM, SELLER, BIDDER, CREATOR, WALLET, MASTER] = [0xa0c, 0x3a, 0x1e, 0x5e11, 0xb1d, 0xc3, 0x3a11, 0x3a57].map(
  account,
);
const int = (value: bigint | number): VmValue => ({ type: 'int', value: BigInt(value) });
const slice = (a: Address | null): VmValue => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });

/** The values every auction layout shares, after the magic (v1...v3) or `activated` (v4). */
const shared = (): VmValue[] => [
  int(0), // end
  int(1_760_000_000), // end_time
  slice(address(MARKET)),
  slice(address(ITEM)),
  slice(address(SELLER)),
  int(1_500_000_000n), // last_bid
  slice(address(BIDDER)),
  int(100_000_000), // min_step
  slice(address(MARKET)),
  int(5),
  int(100),
  slice(address(CREATOR)),
  int(2),
  int(100),
  int(10_000_000_000n), // max_bid
  int(1_000_000_000n), // min_bid
  int(1_750_000_000), // created_at
  int(1_755_000_000), // last_bid_at
  int(0), // is_canceled
];
const v4 = (): VmValue[] => [
  int(1),
  ...shared(),
  int(300),
  int(42),
  slice(address(WALLET)),
  slice(address(MASTER)),
  int(0),
  int(0xabcdefn),
];
const auc = (): VmValue[] => [int(0x415543), ...shared()];

function runner(answers: Record<string, VmValue[] | null>): GetMethodRunner & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async run(_address, method) {
      asked.push(method);
      return answers[method] ?? null;
    },
  };
}
const candidate = (methods: TokenMethod[]): TokenAccountCandidate => ({
  account: AUCTION,
  codeHash: Buffer.alloc(32, 1),
  dataHash: Buffer.alloc(32, 2),
  lastTxLt: 77n,
  methods,
});

test('a v4 auction: get_auction_data_v4 first, its 26 values, the v4-only ones kept', async () => {
  const r = runner({ get_auction_data_v4: v4(), get_sale_data: auc() });
  const { sale, auction } = await readSaleContract(r, candidate(['get_sale_data', 'get_auction_data_v4']), 5);
  assert.equal(sale, undefined);
  assert.deepEqual(r.asked, ['get_auction_data_v4'], 'one get-method');
  assert.ok(auction);
  assert.deepEqual(
    [auction.nft, auction.nftOwner, auction.marketplace, auction.lastMember, auction.lastBid, auction.minStep, auction.endTime],
    [ITEM, SELLER, MARKET, BIDDER, 1_500_000_000n, 100_000_000n, 1_760_000_000n],
  );
  assert.deepEqual(
    [
      auction.mpFeeAddress,
      auction.mpFeeFactor,
      auction.mpFeeBase,
      auction.royaltyFeeAddress,
      auction.royaltyFeeFactor,
      auction.royaltyFeeBase,
    ],
    [MARKET, 5n, 100n, CREATOR, 2n, 100n],
  );
  assert.deepEqual(
    [auction.maxBid, auction.minBid, auction.createdAt, auction.lastBidAt, auction.end, auction.isCanceled],
    [10_000_000_000n, 1_000_000_000n, 1_750_000_000n, 1_755_000_000n, false, false],
  );
  assert.deepEqual(auction.v4, {
    activated: true,
    stepTime: 300n,
    lastQueryId: 42n,
    jettonWallet: WALLET,
    jettonMaster: MASTER,
    isBrokenState: false,
    publicKey: 0xabcdefn,
  });
  const batch = auctionBatch([auction]);
  assert.equal(batch.table, 'nft_auctions');
  assert.equal(batch.rows[0][batch.columns.indexOf('public_key')], String(0xabcdef));
  assert.equal(batch.rows[0][batch.columns.indexOf('first_lt')], 77n);
});

test('get_auction_data_v4 failing or of another shape: get_sale_data, read as an auction ("AUC") or a sale ("FIXP")', async () => {
  for (const v4Answer of [null, v4().slice(0, 25)]) {
    const r = runner({ get_auction_data_v4: v4Answer, get_sale_data: auc() });
    const { auction } = await readSaleContract(r, candidate(['get_sale_data', 'get_auction_data_v4']), 5);
    assert.deepEqual(r.asked, ['get_auction_data_v4', 'get_sale_data']);
    assert.equal(auction?.v4, null, 'a v1...v3 auction has no v4 values');
    assert.equal(auction?.lastMember, BIDDER);
  }
  // No bid yet, no seller yet: both null.
  const fresh = auc();
  fresh[5] = slice(null);
  fresh[7] = slice(null);
  const { auction } = await readSaleContract(runner({ get_sale_data: fresh }), candidate(['get_sale_data']), 5);
  assert.deepEqual([auction?.nftOwner, auction?.lastMember], [null, null]);

  const fixp = [int(0x46495850), int(0), int(1_750_000_000), slice(address(MARKET)), slice(address(ITEM)), slice(address(SELLER))];
  fixp.push(int(1_000_000_000n), slice(address(MARKET)), int(1), slice(address(CREATOR)), int(2));
  const asSale = await readSaleContract(runner({ get_sale_data: fixp }), candidate(['get_sale_data']), 5);
  assert.deepEqual([asSale.sale?.nft, asSale.auction], [ITEM, undefined]);
});

test('neither: another magic, an auction answer too short, a marketplace that is no address, a time out of range', async () => {
  const bad: VmValue[][] = [
    [int(0x12345), ...shared()],
    auc().slice(0, 19),
    (() => {
      const values = auc();
      values[3] = slice(null);
      return values;
    })(),
    (() => {
      const values = auc();
      values[2] = int(-1);
      return values;
    })(),
  ];
  for (const values of bad)
    await assert.rejects(readSaleContract(runner({ get_sale_data: values }), candidate(['get_sale_data']), 5), NotThatContract);
  // Only get_auction_data_v4, and it does not answer: not a sale contract.
  await assert.rejects(readSaleContract(runner({}), candidate(['get_auction_data_v4']), 5), NotThatContract);
});

test('a getgems v4 sale: get_fix_price_data_v4 when the code has no get_sale_data or it answers neither; its 13 values', async () => {
  const fixV4 = (): VmValue[] => [
    int(0), // is_complete
    int(1_750_000_000), // created_at
    slice(address(MARKET)),
    slice(address(ITEM)),
    slice(null), // the NFT not arrived yet
    int(2_000_000_000n), // full_price
    slice(address(MARKET)),
    int(5000), // marketplace fee: a share of 100,000 in getgems' v4r1
    slice(address(CREATOR)),
    int(2500),
    int(0), // sold_at
    int(0), // sold_query_id
    { type: 'null' }, // no jetton prices
  ];
  const r = runner({ get_fix_price_data_v4: fixV4() });
  const { sale, auction } = await readSaleContract(r, candidate(['get_fix_price_data_v4']), 5);
  assert.deepEqual(r.asked, ['get_fix_price_data_v4']);
  assert.equal(auction, undefined);
  assert.deepEqual(
    [sale?.type, sale?.isComplete, sale?.createdAt, sale?.marketplace, sale?.nft, sale?.nftOwner, sale?.fullPrice],
    ['getgems_sale', false, 1_750_000_000n, MARKET, ITEM, null, 2_000_000_000n],
  );
  assert.deepEqual(
    [sale?.marketplaceFeeAddress, sale?.marketplaceFee, sale?.royaltyAddress, sale?.royaltyAmount, sale?.lastTxLt],
    [MARKET, 5000n, CREATOR, 2500n, 77n],
  );

  // get_sale_data answering another magic (neither a sale nor an auction): the v4 getter read next.
  const other = runner({ get_sale_data: [int(0x1234), ...shared()], get_fix_price_data_v4: fixV4() });
  assert.equal((await readSaleContract(other, candidate(['get_sale_data', 'get_fix_price_data_v4']), 5)).sale?.nft, ITEM);
  assert.deepEqual(other.asked, ['get_sale_data', 'get_fix_price_data_v4']);

  // Not a v4 sale: too few values, a last value of another type, a failing getter.
  const short = fixV4().slice(0, 12);
  const wrongLast = fixV4();
  wrongLast[12] = int(1);
  for (const answer of [short, wrongLast, null])
    await assert.rejects(
      readSaleContract(runner({ get_fix_price_data_v4: answer }), candidate(['get_fix_price_data_v4']), 5),
      NotThatContract,
    );
});
