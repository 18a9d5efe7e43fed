/**
 * `nft_put_on_sale` end to end on a local chain: tongate's listing contract and the v4r1-layout sale it deploys
 * (src/contracts/nft-sale/listing.fc.ts, sale-v4r1.fc.ts), driven through @ton/ton's TonClient. The seller hands an
 * NFT to the listing with the price in the forward payload; the listing deploys the sale and passes the NFT on:
 * one trace, which toncenter reads as `nft_put_on_sale` (blocks/auction.py) with the sale's terms from its StateInit
 * in the v4r1 layout (a code toncenter does not know by hash is read so: the fee and royalty are shares there, so
 * their amounts are null). Then a buyer's plain transfer into that sale: `nft_purchase`. Each field checked against
 * toncenter's definitions and each answer against the v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, contractAddress, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { listingInit, listingTermsPayload, SHARE_BASE } from '../../../src/contracts/nft-sale/listing.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { nftListingCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { mintItems } from './support/nft-collection.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);

for (const store of ['sqlite', 'postgres'] as const) {
  test(`nft_put_on_sale: an NFT handed to a listing contract that deploys a v4r1-layout sale; bought from it: nft_purchase [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const get = await specCheckedGet(server);
    const seal = (blocks = 6) => sealBlocks(server, blocks);
    const [seller, buyer, market] = [testWallet(171), testWallet(172), testWallet(173)];
    const creator = testWallet(174).wallet.address;
    const send = transferAndSeal(server);
    await Promise.all([
      server.chain.fund(seller.wallet.address, toNano(50)),
      server.chain.fund(buyer.wallet.address, toNano(50)),
      server.chain.fund(market.wallet.address, toNano(50)),
      seal(1),
    ]);
    await seal(2);

    const { collection: C, item } = await mintItems((to, value, body, init) => send(seller, to, value, body, init), seller.wallet.address, {
      site: 'https://listing.example',
      creator,
      count: 1,
    });
    const { listing: listingCode, sale: saleCode } = await nftListingCode();
    const init = listingInit(listingCode, {
      marketplace: market.wallet.address,
      feeAddress: market.wallet.address,
      feeShare: 5000,
      saleCode,
    });
    const listing = contractAddress(0, init);
    await send(market, listing, toNano('0.1'), undefined, init);

    const terms = { fullPrice: toNano(1), royaltyAddress: creator, royaltyShare: 2000 };
    await send(
      seller,
      item(0),
      toNano('0.3'),
      nftTransferBody({
        newOwner: listing,
        response: seller.wallet.address,
        forwardAmount: toNano('0.2'),
        forwardPayload: listingTermsPayload(terms),
        queryId: 21n,
      }),
    );
    const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
    const { stack } = await client.runMethod(item(0), 'get_nft_data');
    stack.skip(3);
    const sale = stack.readAddress();
    assert.ok(!sale.equals(listing), 'the NFT moved on to the sale');
    const [SELLER, BUYER, SALE, LISTING] = [seller, buyer].map((w) => raw(w.wallet.address)).concat([raw(sale), raw(listing)]);

    /** The actions of the last trace `account` took part in, for a client of `version`. */
    const lastTrace = async (account: Address, version = 'latest') => {
      const [last] = (await get(`/api/v3/actions?account=${raw(account)}&limit=1&sort=desc`)).actions as any[];
      return (
        await get(
          `/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&sort=asc&include_accounts=true&supported_action_types=${version}`,
        )
      ).actions as any[];
    };

    const actions = await lastTrace(listing);
    assert.deepEqual(
      actions.map((a) => a.type).sort(),
      ['contract_deploy', 'nft_put_on_sale'],
      'the listing, and the sale’s deployment as an action of its own',
    );
    const put = actions.find((a) => a.type === 'nft_put_on_sale');
    assert.equal(put.success, true);
    assert.deepEqual(put.details, {
      nft_collection: raw(C),
      nft_item: raw(item(0)),
      nft_item_index: '0',
      owner: SELLER,
      listing_address: LISTING,
      sale_address: SALE,
      // ton-index-go reads it from a column toncenter's serializer leaves empty for a listing.
      marketplace_address: null,
      full_price: toNano(1).toString(),
      // v4r1 keeps shares, not amounts: toncenter's reader leaves both amounts unset.
      marketplace_fee: null,
      royalty_amount: null,
      marketplace_fee_address: raw(market.wallet.address),
      royalty_address: raw(creator),
      marketplace: null,
    });
    for (const who of [SELLER, LISTING, SALE, raw(item(0))]) assert.ok(put.accounts.includes(who), who);
    const deploy = actions.find((a) => a.type === 'contract_deploy');
    assert.equal(deploy.details.destination, SALE, 'the sale deployed');
    // A v2 client does not know nft_put_on_sale: it sees the parts: the two NFT transfers and the sale's deploying transfer.
    assert.deepEqual((await lastTrace(listing, 'v2')).map((a) => a.type).sort(), [
      'contract_deploy',
      'nft_transfer',
      'nft_transfer',
      'ton_transfer',
    ]);

    // Bought with a plain transfer: nft_purchase; the fee and royalty (shares of the price) are transfers of their own.
    await send(buyer, sale, toNano('1.2'));
    const all = await lastTrace(sale);
    assert.deepEqual(
      all.filter((a) => a.type === 'contract_deploy').map((a) => a.details.destination),
      [BUYER],
      'the buyer’s wallet deployed itself with its first transfer',
    );
    const bought = all.filter((a) => a.type !== 'contract_deploy');
    assert.deepEqual(bought.map((a) => a.type).sort(), ['nft_purchase', 'ton_transfer', 'ton_transfer']);
    const purchase = bought.find((a) => a.type === 'nft_purchase');
    assert.equal(purchase.success, true);
    const d = purchase.details;
    const share = (n: bigint) => (toNano(1) * n) / SHARE_BASE;
    assert.deepEqual(
      { ...d, forward_payload: undefined },
      {
        nft_collection: raw(C),
        nft_item: raw(item(0)),
        nft_item_index: '0',
        old_owner: SALE,
        new_owner: BUYER,
        is_purchase: true,
        price: toNano(1).toString(),
        query_id: '0',
        response_destination: BUYER,
        custom_payload: null,
        forward_payload: undefined,
        forward_amount: '0',
        comment: null,
        is_encrypted_comment: d.forward_payload === null ? null : false,
        marketplace: null,
        real_old_owner: SELLER,
        marketplace_address: raw(market.wallet.address),
        // the price less the shares
        payout_amount: (toNano(1) - share(5000n) - share(2000n)).toString(),
        payout_address: SELLER,
        payout_comment: null,
        payout_comment_encrypted: false,
        payout_comment_encoded: false,
        royalty_amount: null,
        royalty_address: null,
      },
    );
    for (const who of [SELLER, BUYER, SALE, raw(item(0))]) assert.ok(purchase.accounts.includes(who), who);
    assert.deepEqual(
      bought
        .filter((a) => a.type === 'ton_transfer')
        .map((a) => [a.details.source, a.details.destination, a.details.value])
        .sort(),
      [
        [SALE, raw(creator), share(2000n).toString()],
        [SALE, raw(market.wallet.address), share(5000n).toString()],
      ].sort(),
    );

    // Detected by get_fix_price_data_v4 (it answers no get_sale_data, as getgems' v4 sales): the sale as the index
    // holds it, its fee and royalty the shares v4 answers, as toncenter stores them.
    // toncenter's published spec has no /nft/sales (ton-index-go serves it; test/api/v3/nft-auctions.test.ts checks its shape).
    const sales = await server.get(`/api/v3/nft/sales?address=${sale.toString()}`);
    assert.equal(sales.status, 200, JSON.stringify(sales.body));
    const [held] = sales.body.nft_sales;
    assert.equal(held.type, 'getgems_sale');
    assert.deepEqual(
      [held.details.is_complete, held.details.full_price, held.details.marketplace_fee, held.details.royalty_amount],
      [true, toNano(1).toString(), '5000', '2000'],
    );
  });
}
