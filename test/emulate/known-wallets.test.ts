/**
 * The Emulate API on a jetton transfer between two jetton wallets the index already detected, on a local network
 * with the v3 index: the index vouches for its wallets (src/index/actions/unsealed-contracts.ts, the pending layer's
 * rule), so the answer's detection runs `get_wallet_data` once per wallet on the emulated states and never asks
 * their master's `get_wallet_address` again. The get-methods are counted on the emulated trace itself (every
 * get-method the answer runs goes through it: the chain's real emulator runs them); the answer with actions and
 * metadata is the same as the route's, and its actions those the index gives the message sealed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractAddress, internal, toNano, type Address } from '@ton/core';
import type { EmulatedTrace } from '../../src/chain/types.js';
import { onchainContent } from '../../src/contracts/content.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../src/contracts/jetton/jetton.js';
import { emulateAnswer } from '../../src/emulate/answer.js';
import { expandActionTypes } from '../../src/index/actions/versions.js';
import { formatRawUpper } from '../../src/ton/address.js';
import { testWallet } from '../chain/local/support/local-chain.js';
import { openStore } from '../index/support/stores.js';
import {
  actionShape,
  sealBlocks,
  sealedActions,
  sealUntilQuiet,
  sendFromWallet,
  serveIndex,
  walletRequestBoc,
} from '../api/v3/support/server.js';

const raw = (address: Address) => formatRawUpper(address);
const EMULATE = '/api/emulate/v1';

test("emulateTrace: a jetton transfer between wallets the index knows costs one get-method per wallet, not its master's again", async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const [admin, alice, bob] = [181, 182, 183].map((seed) => testWallet(seed));
  for (const who of [admin, alice, bob]) await Promise.all([server.chain.fund(who.wallet.address, toNano('10')), sealBlocks(server)]);
  const jettonInit = jettonMasterInit({
    admin: admin.wallet.address,
    content: onchainContent({ name: 'Known', symbol: 'KNW', decimals: '9' }),
  });
  const master = contractAddress(0, jettonInit);
  // Both wallets minted to (deployed, sealed, detected by the index).
  const mint = (to: Address) => mintBody({ to, amount: 1000n, tonAmount: toNano('0.05'), response: admin.wallet.address });
  await sendFromWallet(
    server,
    admin,
    0,
    [internal({ to: master, value: toNano('0.2'), body: mint(alice.wallet.address), init: jettonInit })],
    true,
  );
  await sealUntilQuiet(server);
  await sendFromWallet(server, admin, 1, [internal({ to: master, value: toNano('0.2'), body: mint(bob.wallet.address) })]);
  await sealUntilQuiet(server);
  const [aliceJetton, bobJetton] = [alice, bob].map((who) => jettonWalletAddress(who.wallet.address, master));
  const known = await opened.index.reader.actions.knownContracts([raw(aliceJetton), raw(bobJetton)]);
  assert.equal(known.jettonWallets.size, 2, 'both jetton wallets are known to the index');

  const body = jettonTransferBody({
    to: bob.wallet.address,
    amount: 300n,
    response: alice.wallet.address,
    forwardTonAmount: toNano('0.01'),
  });
  const boc = walletRequestBoc(alice, 0, [internal({ to: aliceJetton, value: toNano('0.2'), body })], true);
  const reply = await server.post(`${EMULATE}/emulateTrace`, { boc, with_actions: true, include_metadata: true });
  assert.equal(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));

  // The same answer, its get-methods counted on the trace the chain emulated.
  const trace = await server.chain.emulateTrace(Buffer.from(boc, 'base64'));
  const methods: string[] = [];
  const counted: EmulatedTrace = {
    ...trace,
    runGetMethod: (address, method, stack) => {
      methods.push(`${raw(address)} ${method}`);
      return trace.runGetMethod(address, method, stack);
    },
  };
  const network = {
    name: 'testnet',
    baseUrl: new URL(server.base),
    globalId: -3,
    testOnly: true,
    chain: server.chain,
    index: opened.index.reader,
  };
  const options = { withActions: true, includeMetadata: true, includeAddressBook: false, includeCodeData: false };
  const answer: any = await emulateAnswer(counted, { ...options, supportedActionTypes: expandActionTypes([]) }, network);
  assert.deepEqual(
    methods.sort(),
    [`${raw(aliceJetton)} get_wallet_data`, `${raw(bobJetton)} get_wallet_data`].sort(),
    'each known wallet read once on its emulated state; their master not asked',
  );

  const transfer = reply.body.actions.find((a: any) => a.type === 'jetton_transfer');
  assert.ok(transfer, `a jetton_transfer among ${reply.body.actions.map((a: any) => a.type)}`);
  assert.equal(transfer.details.sender, raw(alice.wallet.address));
  assert.equal(transfer.details.receiver, raw(bob.wallet.address));
  assert.equal(transfer.details.sender_jetton_wallet, raw(aliceJetton));
  assert.equal(transfer.details.receiver_jetton_wallet, raw(bobJetton));
  assert.equal(transfer.details.asset, raw(master));
  assert.equal(transfer.details.amount, '300');
  assert.deepEqual(answer.actions.map(actionShape), reply.body.actions.map(actionShape));
  assert.deepEqual(answer.metadata, reply.body.metadata);
  assert.equal(reply.body.metadata[raw(master)]?.token_info?.[0]?.symbol, 'KNW', "the master's metadata, the index's");

  // Sealed: the index's actions are the emulated ones.
  const sealed = await sealedActions(server, boc);
  assert.deepEqual(reply.body.actions.map(actionShape).sort(), sealed.map(actionShape).sort());
});
