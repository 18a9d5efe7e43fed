/**
 * A wallet's request that sent nothing, on a local chain: a v4 wallet asked for more than it holds with a send mode
 * that ignores errors, so its transaction takes the external and sends no message. toncenter's classifier
 * (ton-indexer's `try_classify_unknown_trace`, `init_from_external`) describes such a trace by the messages the
 * request carried, as failed "ghost" actions: here one `ton_transfer`, `success` false, its details the request's
 * (source, destination, value, comment), its accounts the wallet alone (a ghost action names no destination), its
 * transactions the wallet's one. What /api/v3/actions answers, checked against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { internal, SendMode, toNano, type Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { openStore } from '../../index/support/stores.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { specCheckedGet } from './support/spec.js';
import { transferAndSeal } from './support/wallet-transfer.js';

const raw = (a: Address) => formatRawUpper(a);

test('a wallet request that sent nothing: a failed ton_transfer of the request, naming the wallet alone', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const get = await specCheckedGet(server);
  const [owner, to] = [testWallet(171), testWallet(172).wallet.address];
  await Promise.all([server.chain.fund(owner.wallet.address, toNano(1)), sealBlocks(server, 1)]);
  await sealBlocks(server, 2);
  // Deployed by a first transfer (a request that sent something: not a ghost).
  await transferAndSeal(server)(owner, to, toNano('0.01'));

  const wallet = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` }).open(owner.wallet);
  await wallet.sendTransfer({
    seqno: await wallet.getSeqno(),
    secretKey: owner.keys.secretKey,
    // More than it holds; errors ignored: the action phase skips the message and the transaction sends nothing.
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    messages: [internal({ to, value: toNano(5), body: 'hi', bounce: false })],
  });
  await sealBlocks(server, 2);

  const [last] = (await get(`/api/v3/transactions?account=${raw(owner.wallet.address)}&limit=1&sort=desc`)).transactions as any[];
  assert.equal(last.in_msg.source, null, 'the wallet took the external');
  assert.deepEqual(last.out_msgs, [], 'and sent nothing');
  const { actions } = await get(`/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&include_accounts=true`);
  assert.deepEqual(
    actions.map((a: any) => [a.type, a.success, a.accounts, a.transactions]),
    [['ton_transfer', false, [raw(owner.wallet.address)], [last.hash]]],
  );
  assert.deepEqual(actions[0].details, {
    source: raw(owner.wallet.address),
    destination: raw(to),
    value: String(toNano(5)),
    value_extra_currencies: {},
    comment: 'hi',
    encrypted: false,
  });
});
