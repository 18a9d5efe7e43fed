/**
 * getgems-style sale actions on a local chain (`nft_purchase`, `nft_cancel_sale`, `nft_update_sale`), classified as toncenter does on
 * sales the index detected by get_sale_data: tongate's own collection and fixed-price sale (src/contracts/nft,
 * src/contracts/nft-sale), driven through @ton/ton's TonClient. Three items listed; item 0 bought with a plain TON
 * transfer (getgems' buy: a purchase), item 1's sale cancelled by the seller, item 2's price changed by the seller
 * (`nft_update_sale`; a stranger's change refused: failed), then bought with op 2 (toncenter only knows a purchase by
 * the buyer's plain transfer: a plain nft_transfer). The v2 view of a purchase shows its
 * parts. Each answer checked against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, contractAddress, toNano } from '@ton/core';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { buySaleBody, cancelSaleBody, nftSaleInit, saleUpdateBody, type NftSaleParams } from '../../../src/contracts/nft-sale/sale.js';
import { TonClient } from '@ton/ton';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { nftSaleCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { mintItems } from './support/nft-collection.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);

test('nft_purchase and nft_cancel_sale on tongate’s own fixed-price sale, and an op-2 buy left a plain transfer', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const get = await specCheckedGet(server);
  const seal = (blocks = 6) => sealBlocks(server, blocks);
  const [seller, buyer] = [testWallet(151), testWallet(152)];
  const marketplace = testWallet(153).wallet.address;
  const creator = testWallet(154).wallet.address;
  const send = transferAndSeal(server);
  await Promise.all([server.chain.fund(seller.wallet.address, toNano(50)), server.chain.fund(buyer.wallet.address, toNano(50)), seal(1)]);
  await seal(2);

  const { collection: C, item } = await mintItems((to, value, body, init) => send(seller, to, value, body, init), seller.wallet.address, {
    site: 'https://sale.example',
    creator,
    count: 3,
  });
  const saleCode = await nftSaleCode();
  const saleOf = (index: number): NftSaleParams => ({
    marketplace,
    nft: item(index),
    fullPrice: toNano(1),
    marketplaceFeeAddress: marketplace,
    marketplaceFee: toNano('0.05'),
    royaltyAddress: creator,
    royaltyAmount: toNano('0.02'),
    createdAt: 1_750_000_000 + index,
  });
  const sale = (index: number) => contractAddress(0, nftSaleInit(saleCode, saleOf(index)));
  for (const index of [0, 1, 2]) {
    const init = nftSaleInit(saleCode, saleOf(index));
    await send(seller, sale(index), toNano('0.1'), undefined, init);
    await send(
      seller,
      item(index),
      toNano('0.1'),
      nftTransferBody({ newOwner: sale(index), response: seller.wallet.address, forwardAmount: toNano('0.02') }),
    );
  }
  const SELLER = raw(seller.wallet.address);
  const BUYER = raw(buyer.wallet.address);

  /** The actions of the last trace `account` took part in, for a client of `version` (a wallet's own deployment left out). */
  const lastTrace = async (account: Address, version = 'latest') => {
    const [last] = (await get(`/api/v3/actions?account=${raw(account)}&limit=1&sort=desc`)).actions as any[];
    return (
      (
        await get(
          `/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&sort=asc&include_accounts=true&supported_action_types=${version}`,
        )
      ).actions as any[]
    ).filter((a) => a.type !== 'contract_deploy');
  };

  // Bought with a plain transfer: nft_purchase (the buy, the NFT's transfer, the payout to the seller).
  await send(buyer, sale(0), toNano('1.2'));
  let actions = await lastTrace(sale(0));
  assert.deepEqual(
    actions.map((a) => a.type).sort(),
    ['nft_purchase', 'ton_transfer', 'ton_transfer'],
    'the fee and royalty are transfers of their own',
  );
  const purchase = actions.find((a) => a.type === 'nft_purchase');
  assert.equal(purchase.success, true);
  const d = purchase.details;
  assert.deepEqual(
    { ...d, forward_payload: undefined, payout_amount: undefined },
    {
      nft_collection: raw(C),
      nft_item: raw(item(0)),
      nft_item_index: '0',
      old_owner: raw(sale(0)),
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
      marketplace_address: raw(marketplace),
      payout_amount: undefined,
      payout_address: SELLER,
      payout_comment: null,
      payout_comment_encrypted: false,
      payout_comment_encoded: false,
      royalty_amount: null,
      royalty_address: null,
    },
  );
  assert.equal(d.payout_amount, toNano('0.93').toString(), 'the price less the fee and royalty');
  for (const who of [SELLER, BUYER, raw(sale(0)), raw(item(0))]) assert.ok(purchase.accounts.includes(who), who);
  // A v2 client does not know nft_purchase: it sees the transfer (marked as a purchase) and the payout.
  const v2 = await lastTrace(sale(0), 'v2');
  const transfer = v2.find((a) => a.type === 'nft_transfer');
  assert.equal(transfer.details.is_purchase, true);
  assert.equal(transfer.details.price, toNano(1).toString());
  assert.equal(transfer.details.payout_amount, null);
  assert.deepEqual(v2.map((a) => a.type).sort(), ['nft_transfer', 'ton_transfer', 'ton_transfer', 'ton_transfer']);

  // Cancelled by the seller: nft_cancel_sale for the request, the NFT's way back an nft_transfer of its own.
  await send(seller, sale(1), toNano('0.1'), cancelSaleBody(5n));
  actions = await lastTrace(sale(1));
  assert.deepEqual(actions.map((a) => a.type).sort(), ['nft_cancel_sale', 'nft_transfer']);
  const cancel = actions.find((a) => a.type === 'nft_cancel_sale');
  assert.equal(cancel.success, true);
  assert.deepEqual(cancel.details, {
    owner: SELLER,
    nft_item: raw(item(1)),
    nft_collection: raw(C),
    sale_address: raw(sale(1)),
    marketplace_address: raw(marketplace),
    marketplace: null,
  });
  assert.ok(cancel.accounts.includes(raw(item(1))), 'the item among its accounts');
  const back = actions.find((a) => a.type === 'nft_transfer');
  assert.deepEqual([back.details.new_owner, back.details.is_purchase], [SELLER, false]);
  assert.deepEqual(
    (await lastTrace(sale(1), 'v2')).map((a) => a.type).sort(),
    ['call_contract', 'nft_transfer'],
    'a v2 client sees the request as a contract call',
  );

  // Its price changed by the seller (sale_update): nft_update_sale, the new terms from the request; the sale keeps them.
  const terms = { fullPrice: toNano('0.9'), marketplaceFee: toNano('0.04'), royaltyAmount: toNano('0.01') };
  await send(seller, sale(2), toNano('0.05'), saleUpdateBody(terms, 4n));
  actions = await lastTrace(sale(2));
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['nft_update_sale', true]],
  );
  assert.deepEqual(actions[0].details, {
    source: SELLER,
    sale_contract: raw(sale(2)),
    nft_address: raw(item(2)),
    marketplace_address: raw(marketplace),
    marketplace: null,
    full_price: terms.fullPrice.toString(),
    marketplace_fee: terms.marketplaceFee.toString(),
    royalty_amount: terms.royaltyAmount.toString(),
  });
  for (const who of [SELLER, raw(sale(2)), raw(item(2))]) assert.ok(actions[0].accounts.includes(who), who);
  const { stack } = await new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` }).runMethod(sale(2), 'get_sale_data');
  stack.skip(6); // magic, is_complete, created_at, marketplace, nft, owner
  const price = stack.readBigNumber();
  stack.skip(1);
  const fee = stack.readBigNumber();
  stack.skip(1);
  assert.deepEqual(
    [price, fee, stack.readBigNumber()],
    [terms.fullPrice, terms.marketplaceFee, terms.royaltyAmount],
    'get_sale_data: the new terms',
  );
  // A stranger's update is refused: nft_update_sale, failed (the message bounced back to him, a call of its own).
  await send(buyer, sale(2), toNano('0.05'), saleUpdateBody({ fullPrice: 1n, marketplaceFee: 0n, royaltyAmount: 0n }));
  actions = await lastTrace(buyer.wallet.address);
  assert.deepEqual(actions.map((a) => [a.type, a.success]).sort(), [
    ['call_contract', true],
    ['nft_update_sale', false],
  ]);

  // Bought with op 2: toncenter knows a purchase only by a plain transfer into the sale.
  await send(buyer, sale(2), toNano('1.2'), buySaleBody(9n));
  actions = await lastTrace(sale(2));
  assert.ok(!actions.some((a) => a.type === 'nft_purchase'));
  const plain = actions.find((a) => a.type === 'nft_transfer');
  assert.deepEqual([plain.details.new_owner, plain.details.is_purchase, 'price' in plain.details], [BUYER, false, false]);
});
