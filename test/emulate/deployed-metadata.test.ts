/**
 * The Emulate API's `metadata` of the token contracts a trace deploys, as toncenter's Emulate API adds them from the
 * interfaces detected on the emulated states (ton-emulate-go's appendRawInterfacesDataToMetadata): on a local
 * network with the v3 index, tongate's own TEP-74 jetton master (on-chain content) and tongate's own NFT collection
 * with its first item (off-chain content), each deployed by an emulated request, get `is_indexed: false` and their
 * on-chain content (its `uri` in `extra`, nothing fetched); a master the index knows keeps the index's entry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, contractAddress, internal, toNano, type Cell, type StateInit } from '@ton/core';
import { onchainContent, offchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, mintBody } from '../../src/contracts/jetton/jetton.js';
import { deployItemBody, nftCollectionInit, nftItemAddress } from '../../src/contracts/nft/nft.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { nftCode } from '../contracts/support/code.js';
import { openStore } from '../index/support/stores.js';
import { sealBlocks, sealUntilQuiet, serveIndex, walletRequestBoc, type V3Server } from '../api/v3/support/server.js';
import { toncenterV3 } from '../api/v3/support/spec.js';

const raw = (a: Address) => formatRawUpper(a);
const EMULATE = '/api/emulate/v1';

/** `owner`'s request of one message for `seqno`, as an external message BoC (base64). */
function request(owner: ReturnType<typeof testWallet>, seqno: number, to: Address, value: bigint, body: Cell, init?: StateInit): string {
  return walletRequestBoc(owner, seqno, [internal({ to, value, body, init })], seqno === 0);
}

async function emulated(server: V3Server, boc: string) {
  const reply = await server.post(`${EMULATE}/emulateTrace`, {
    boc,
    with_actions: true,
    include_metadata: true,
    include_address_book: true,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  assert.deepEqual(
    toncenterV3().errors('/api/v3/actions', {
      actions: reply.body.actions,
      address_book: reply.body.address_book,
      metadata: reply.body.metadata,
    }),
    [],
  );
  return reply.body;
}

test('emulateTrace: a jetton master and an NFT collection with its item, deployed by the trace, get metadata from their emulated states', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const admin = testWallet(191);
  const alice = testWallet(192).wallet.address;
  await Promise.all([server.chain.fund(admin.wallet.address, toNano(20)), sealBlocks(server)]);
  // The admin's wallet deployed first, so each emulated request is its own.
  assert.equal(
    (await server.post('/api/v3/message', { boc: request(admin, 0, admin.wallet.address, 1n, beginCell().endCell()) })).status,
    200,
  );
  await sealUntilQuiet(server);

  // A jetton master deployed with its first mint.
  const jettonInit = jettonMasterInit({
    admin: admin.wallet.address,
    content: onchainContent({ name: 'Fresh', symbol: 'FRS', decimals: '6', description: 'made in the trace' }),
  });
  const master = contractAddress(0, jettonInit);
  const mint = mintBody({ to: alice, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
  const minted = await emulated(server, request(admin, 1, master, toNano('0.2'), mint, jettonInit));
  assert.deepEqual(minted.metadata[raw(master)], {
    is_indexed: false,
    token_info: [{ type: 'jetton_masters', name: 'Fresh', symbol: 'FRS', description: 'made in the trace', extra: { decimals: '6' } }],
  });

  // An NFT collection deployed with its first item.
  const code = await nftCode();
  const site = 'https://deployed.example';
  const collectionInit = nftCollectionInit(code.collection, {
    owner: admin.wallet.address,
    content: offchainContent(`${site}/collection.json`),
    commonContent: beginCell().storeStringTail(`${site}/`).endCell(),
    itemCode: code.item,
    royalty: { numerator: 2, denominator: 100, destination: admin.wallet.address },
  });
  const collection = contractAddress(0, collectionInit);
  const item = nftItemAddress(collection, code.item, 0);
  const deployItem = deployItemBody({
    index: 0,
    amount: toNano('0.1'),
    owner: alice,
    content: beginCell().storeStringTail('0.json').endCell(),
  });
  const deployed = await emulated(server, request(admin, 1, collection, toNano('0.2'), deployItem, collectionInit));
  assert.deepEqual(deployed.metadata[raw(collection)], {
    is_indexed: false,
    token_info: [{ type: 'nft_collections', extra: { uri: `${site}/collection.json` } }],
  });
  assert.deepEqual(deployed.metadata[raw(item)], {
    is_indexed: false,
    token_info: [{ type: 'nft_items', extra: { uri: `${site}/0.json` } }],
  });

  // Sealed, the master is the index's: a second mint emulated shows the index's entry, not the emulated one.
  assert.equal((await server.post('/api/v3/message', { boc: request(admin, 1, master, toNano('0.2'), mint, jettonInit) })).status, 200);
  await sealUntilQuiet(server);
  const indexed = (await server.get(`/api/v3/metadata?address=${raw(master)}`)).body[raw(master)];
  assert.equal(indexed?.is_indexed, true, JSON.stringify(indexed));
  const again = await emulated(server, request(admin, 2, master, toNano('0.2'), mint));
  assert.deepEqual(again.metadata[raw(master)], indexed);
});
