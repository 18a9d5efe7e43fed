/**
 * A jetton swap on a local chain, classified as toncenter classifies STON.fi v1 swaps (`jetton_swap`, dex `stonfi`):
 * tongate's own router and pool (src/contracts/dex, STON.fi v1's message layouts) over two of tongate's TEP-74
 * jettons, driven through @ton/ton's TonClient. A swap the pool pays (success, the amounts of both sides, the
 * wallets), and one it refunds (min_out too high: failed, the refund as the outgoing side). Each answer checked
 * against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { onchainContent } from '../../../src/contracts/content.js';
import { dexAddress, dexPoolInit, dexRouterInit, setPoolBody, swapOut, swapPayload } from '../../../src/contracts/dex/dex.js';
import { jettonMasterInit, jettonTransferBody, jettonWalletAddress, mintBody } from '../../../src/contracts/jetton/jetton.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { dexCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);

test('jetton_swap (stonfi) on tongate’s own router and pool: paid, and refunded as a failed swap', async (t) => {
  const opened = await openStore(t, 'sqlite');
  if (!opened) return;
  const server = await serveIndex(t, opened.index, 'testnet', true);
  const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
  const get = await specCheckedGet(server);
  const [admin, user] = [testWallet(161), testWallet(162)];
  const send = transferAndSeal(server, 8);
  await Promise.all([
    server.chain.fund(admin.wallet.address, toNano(50)),
    server.chain.fund(user.wallet.address, toNano(50)),
    sealBlocks(server, 1),
  ]);
  await sealBlocks(server, 3);

  const code = await dexCode();
  const routerInit = dexRouterInit(code.router, admin.wallet.address);
  const router = dexAddress(routerInit);
  await send(admin, router, toNano('0.1'), undefined, routerInit);
  const masters = ['A', 'B'].map((symbol) =>
    jettonMasterInit({ admin: admin.wallet.address, content: onchainContent({ name: `Swap ${symbol}`, symbol, decimals: '9' }) }),
  );
  const [A, B] = masters.map(dexAddress);
  const mint = (master: number, to: Address, amount: bigint, first: boolean) =>
    send(
      admin,
      [A, B][master],
      toNano('0.2'),
      mintBody({ to, amount, tonAmount: toNano('0.05'), response: admin.wallet.address }),
      first ? masters[master] : undefined,
    );
  await mint(0, router, 10_000n, true);
  await mint(1, router, 10_000n, true);
  await mint(0, user.wallet.address, 1_000n, false);
  const [routerA, routerB] = [A, B].map((master) => jettonWalletAddress(router, master));
  const [userA, userB] = [A, B].map((master) => jettonWalletAddress(user.wallet.address, master));
  const poolInit = dexPoolInit(code.pool, { router, token0: routerA, token1: routerB, reserve0: 10_000n, reserve1: 10_000n });
  const pool = dexAddress(poolInit);
  await send(admin, pool, toNano('0.1'), undefined, poolInit);
  await send(admin, router, toNano('0.05'), setPoolBody(pool));

  /** The user's last trace's actions (its wallet's own deployment left out). */
  const lastActions = async () => {
    const [last] = (await get(`/api/v3/actions?account=${raw(user.wallet.address)}&limit=1&sort=desc`)).actions as any[];
    return (
      (await get(`/api/v3/actions?trace_id=${encodeURIComponent(last.trace_id)}&sort=asc&include_accounts=true`)).actions as any[]
    ).filter((a) => a.type !== 'contract_deploy');
  };
  const swap = (amount: bigint, minOut: bigint) =>
    send(
      user,
      userA,
      toNano('0.5'),
      jettonTransferBody({
        to: router,
        amount,
        response: user.wallet.address,
        forwardTonAmount: toNano('0.3'),
        forwardPayload: swapPayload({ askWallet: routerB, minOut, to: user.wallet.address }),
      }),
    );

  // Paid: 100 A in, the constant-product amount of B out.
  const out = swapOut(100n, 10_000n, 10_000n);
  await swap(100n, 1n);
  let actions = await lastActions();
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_swap'],
    'both jetton transfers, the swap and the payment request are one action',
  );
  const [paid] = actions;
  assert.equal(paid.success, true);
  const USER = raw(user.wallet.address);
  assert.deepEqual(paid.details, {
    dex: 'stonfi',
    sender: USER,
    asset_in: raw(A),
    asset_out: raw(B),
    dex_incoming_transfer: {
      asset: raw(A),
      source: USER,
      destination: raw(router),
      source_jetton_wallet: raw(userA),
      destination_jetton_wallet: raw(routerA),
      amount: '100',
    },
    dex_outgoing_transfer: {
      asset: raw(B),
      source: raw(router),
      destination: USER,
      source_jetton_wallet: raw(routerB),
      destination_jetton_wallet: raw(userB),
      amount: out.toString(),
    },
    peer_swaps: [],
  });
  for (const account of [USER, raw(userA), raw(routerA), raw(router), raw(pool), raw(routerB), raw(userB)])
    assert.ok(paid.accounts.includes(account), account);
  assert.ok(paid.transactions.length >= 8, 'every step from the user’s wallet to the excesses');
  const reserves = (await client.runMethod(pool, 'get_pool_data')).stack;
  assert.deepEqual([reserves.readBigNumber(), reserves.readBigNumber()], [10_100n, 10_000n - out]);
  const userBData = (await client.runMethod(userB, 'get_wallet_data')).stack;
  assert.equal(userBData.readBigNumber(), out, 'the user got what the action says');
  // The swap by type and by the pool.
  const byType = (await get(`/api/v3/actions?account=${raw(pool)}&action_type=jetton_swap`)).actions as any[];
  assert.deepEqual(
    byType.map((a) => a.action_id),
    [paid.action_id],
  );

  // Refunded: min_out above what the pool pays; the 100 A come back, the swap failed.
  await swap(100n, 1_000n);
  actions = await lastActions();
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_swap'],
  );
  const [refunded] = actions;
  assert.equal(refunded.success, false);
  assert.equal(
    refunded.details.asset_out,
    raw(B),
    'what was asked for (the router’s wallet the payload names, though the trace never reached it)',
  );
  assert.deepEqual(refunded.details.dex_outgoing_transfer, {
    asset: raw(A),
    source: raw(router),
    destination: USER,
    source_jetton_wallet: raw(routerA),
    destination_jetton_wallet: raw(userA),
    amount: '100',
  });
});
