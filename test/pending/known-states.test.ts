/**
 * A pending trace's actions read the contracts it changed as the trace left them, known to the index or not (as
 * toncenter's pending classifier reads the interfaces its emulator detected on each emulated account's final state,
 * the database's only where none was detected). On a local chain with the v3 index: tongate's own auction
 * (src/contracts/nft-auction), detected by the index with a first bid sealed; a bid at the maximum, not sealed yet,
 * ends the auction: its `nft_purchase` at that bid, in /pendingActions and in the stream's `pending` notification,
 * the action the index gives the trace once sealed. The index still holds the first bid's state, so an auction read
 * from the index would price the purchase at the first bid.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, contractAddress, internal, toNano, type Cell, type StateInit } from '@ton/core';
import { TonClient } from '@ton/ton';
import { nftTransferBody } from '../../src/contracts/nft/nft.js';
import { nftAuctionInit } from '../../src/contracts/nft-auction/auction.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { nftAuctionCode } from '../contracts/support/code.js';
import { openStore } from '../index/support/stores.js';
import { mintItems } from '../api/v3/support/nft-collection.js';
import { sealBlocks, sealUntilQuiet, sendFromWallet, serveIndex, type V3Server } from '../api/v3/support/server.js';
import { toncenterV3 } from '../api/v3/support/spec.js';
import { until } from '../support/poll.js';
import { subscribe, wsClient } from '../stream/support/clients.js';
import { testAuctionParams } from '../api/v3/support/nft-auction.js';

const raw = (a: Address) => formatRawUpper(a);
type Owner = ReturnType<typeof testWallet>;

/** `from`'s request of one message, signed for its next seqno, sent through POST /api/v3/message. */
async function send(server: V3Server, client: TonClient, from: Owner, to: Address, value: bigint, body?: Cell, init?: StateInit) {
  const seqno = await client.open(from.wallet).getSeqno();
  return sendFromWallet(server, from, seqno, [internal({ to, value, body, init, bounce: !init })], seqno === 0);
}

test("pendingActions: a bid at an auction's maximum, not sealed yet, is an nft_purchase at that bid (the auction as the trace left it), as sealed", async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  const [seller, bidder, buyer] = [testWallet(181), testWallet(182), testWallet(183)];
  const marketplace = testWallet(184).wallet.address;
  const creator = testWallet(185).wallet.address;
  const sealed = async (from: Owner, to: Address, value: bigint, body?: Cell, init?: StateInit) => {
    await send(server, client, from, to, value, body, init);
    await sealUntilQuiet(server);
  };
  for (const who of [seller, bidder, buyer]) await Promise.all([server.chain.fund(who.wallet.address, toNano(50)), sealBlocks(server)]);
  for (const who of [bidder, buyer]) await sealed(who, who.wallet.address, 1n);

  const { collection, item } = await mintItems((to, value, body, init) => sealed(seller, to, value, body, init), seller.wallet.address, {
    site: 'https://pending.example',
    creator,
    count: 1,
  });
  const auctionInit = nftAuctionInit(
    await nftAuctionCode(),
    testAuctionParams({ marketplace, creator, nft: item(0), createdAt: 1_750_000_001 }),
  );
  const auction = contractAddress(0, auctionInit);
  await sealed(seller, auction, toNano('0.2'), undefined, auctionInit);
  await sealed(
    seller,
    item(0),
    toNano('0.1'),
    nftTransferBody({ newOwner: auction, response: seller.wallet.address, forwardAmount: toNano('0.02') }),
  );
  // A first bid, sealed: the index knows the auction with its last bid at 1 TON.
  await sealed(bidder, auction, toNano(1));
  const known = await server.get(`/api/v3/nft/sales?address=${raw(auction)}`);
  assert.equal(known.body.nft_sales?.length, 1, `the index knows the auction: ${JSON.stringify(known.body).slice(0, 300)}`);

  // The pending layer follows the chain from its first ask on; a stream client hears the buyer's actions.
  assert.equal((await server.get(`/api/v3/pendingActions?account=${raw(buyer.wallet.address)}`)).body.actions.length, 0);
  const stream = wsClient(t, `${server.base.replace('http', 'ws')}/api/streaming/v2/ws`);
  await subscribe(stream, { types: ['actions'], addresses: [raw(buyer.wallet.address)], min_finality: 'pending' });

  // The bid at the maximum, not sealed yet: the auction ends within the trace.
  const sent = await send(server, client, buyer, auction, toNano(10));
  const norm = encodeURIComponent(sent.message_hash_norm);
  await until(
    'the trace to have run in the open block',
    async () => (await server.get(`/api/v3/pendingTraces?ext_msg_hash=${norm}`)).body.traces[0]?.trace_info.pending_messages === 0,
    60_000,
  );
  const pending = await server.get(`/api/v3/pendingActions?ext_msg_hash=${norm}`);
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  assert.deepEqual(toncenterV3().errors('/api/v3/pendingActions', pending.body), []);
  const purchase = pending.body.actions.find((a: any) => a.type === 'nft_purchase');
  assert.ok(purchase, `an nft_purchase among ${pending.body.actions.map((a: any) => a.type)}`);
  assert.equal(purchase.finality, 'pending');
  assert.deepEqual(
    [purchase.details.nft_item, purchase.details.nft_collection, purchase.details.new_owner],
    [raw(item(0)), raw(collection), raw(buyer.wallet.address)],
  );
  assert.equal(purchase.details.price, toNano(10).toString(), "the winning bid, which only the trace's state of the auction holds");
  // The stream's `pending` notification carries the same action.
  const streamed = (await stream.next((r) => r.message?.type === 'actions' && r.message.finality === 'pending', 'the pending actions'))
    .message;
  assert.deepEqual(
    streamed.actions.find((a: any) => a.type === 'nft_purchase'),
    purchase,
    `the streamed nft_purchase among ${streamed.actions.map((a: any) => a.type)}`,
  );

  // Sealed: the index gives the trace the same actions, the purchase with the same id and details.
  await sealUntilQuiet(server);
  const indexed = await server.get(`/api/v3/actions?trace_id=${encodeURIComponent(purchase.trace_id)}&include_accounts=true`);
  assert.deepEqual(indexed.body.actions.map((a: any) => a.type).sort(), pending.body.actions.map((a: any) => a.type).sort());
  const sealedPurchase = indexed.body.actions.find((a: any) => a.type === 'nft_purchase');
  const { finality: _a, trace_mc_seqno_end: _b, accounts: pendingAccounts, ...pendingRest } = purchase;
  const { finality: _c, trace_mc_seqno_end: _d, accounts: sealedAccounts, ...sealedRest } = sealedPurchase;
  assert.deepEqual(sealedRest, pendingRest, 'the same action, only its block new');
  assert.deepEqual([...sealedAccounts].sort(), [...pendingAccounts].sort());
});
