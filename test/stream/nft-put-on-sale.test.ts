/**
 * `nft_put_on_sale` through the Streaming API: tongate's listing contract deploys a v4r1-layout sale
 * (src/contracts/nft-sale/listing.fc.ts) in the same trace that lists the NFT, so the pending layer has to know the
 * sale from the trace's own emulated states, as the index knows it from the sealed block. A real tongate whose local
 * chain mines when asked and a real WebSocket client in its own process: the listing's `actions` at pending,
 * confirmed and finalized are one `nft_put_on_sale`, the finalized one what /api/v3/actions answers for the trace.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, contractAddress, toNano, type Address } from '@ton/core';
import { formatRawUpper } from '../../src/ton/address.js';
import { offchainContent } from '../../src/contracts/content.js';
import { deployItemBody, nftCollectionInit, nftItemAddress, nftTransferBody } from '../../src/contracts/nft/nft.js';
import { listingInit, listingTermsPayload } from '../../src/contracts/nft-sale/listing.js';
import { nftCode, nftListingCode } from '../contracts/support/code.js';
import { startContractsChain } from '../contracts/support/contracts-chain.js';
import { indexedUpTo } from '../devnet/support/manual-tongate.js';
import { getJson } from '../support/tongate.js';
import { subscribe, wsClient } from './support/clients.js';

const raw = (address: Address) => formatRawUpper(address);

test('a listing streams one nft_put_on_sale at pending, confirmed and finalized: the action /api/v3/actions answers', async (t) => {
  const env = await startContractsChain(t);
  const code = await nftCode();
  const { listing: listingCode, sale: saleCode } = await nftListingCode();
  const [seller, market] = [await env.actor(181), await env.actor(182)];
  const collectionInit = nftCollectionInit(code.collection, {
    owner: seller.address,
    content: offchainContent('https://listing.example/c.json'),
    commonContent: beginCell().endCell(),
    itemCode: code.item,
    royalty: { numerator: 0, denominator: 100, destination: seller.address },
  });
  const collection = contractAddress(0, collectionInit);
  const item = nftItemAddress(collection, code.item, 0);
  await seller.send(
    collection,
    toNano('0.2'),
    deployItemBody({ index: 0, amount: toNano('0.1'), owner: seller.address, content: beginCell().endCell() }),
    collectionInit,
  );
  const init = listingInit(listingCode, { marketplace: market.address, feeAddress: market.address, feeShare: 5000, saleCode });
  const listing = contractAddress(0, init);
  await market.send(listing, toNano('0.1'), undefined, init);
  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);

  const client = wsClient(t, `${env.url.replace('http', 'ws')}/api/streaming/v2/ws`);
  await subscribe(client, { types: ['actions'], addresses: [raw(listing)], min_finality: 'pending' });
  await seller.send(
    item,
    toNano('0.3'),
    nftTransferBody({
      newOwner: listing,
      response: seller.address,
      forwardAmount: toNano('0.2'),
      forwardPayload: listingTermsPayload({ fullPrice: toNano(3), royaltyAddress: seller.address, royaltyShare: 1000 }),
    }),
  );
  const actionsAt = async (finality: string) =>
    (await client.next((r) => r.message?.type === 'actions' && r.message.finality === finality, `the ${finality} actions`)).message;
  const [pending, confirmed, finalized] = [await actionsAt('pending'), await actionsAt('confirmed'), await actionsAt('finalized')];
  const put = finalized.actions.find((a: any) => a.type === 'nft_put_on_sale');
  assert.ok(put, `an nft_put_on_sale among ${finalized.actions.map((a: any) => a.type).join()}`);
  assert.equal(put.details.full_price, toNano(3).toString());

  await indexedUpTo(env.url, (await env.client.getMasterchainInfo()).latestSeqno);
  const reply = await getJson(`${env.url}/api/v3/actions?trace_id=${encodeURIComponent(put.trace_id)}&include_accounts=true`);
  assert.equal(reply.status, 200);
  const listings = (reply.body.actions as any[]).filter((a) => a.accounts.includes(raw(listing)));
  assert.deepEqual(finalized.actions, listings, 'the finalized actions are the ones /api/v3/actions answers');
  assert.deepEqual(
    confirmed.actions,
    listings.map((a) => ({ ...a, finality: 'confirmed' })),
  );
  assert.deepEqual(
    pending.actions.map((a: any) => ({ ...a, trace_mc_seqno_end: put.trace_mc_seqno_end, finality: 'finalized' })),
    listings,
    'classified alike before the seal: the pending layer knew the sale the trace deployed',
  );
});
