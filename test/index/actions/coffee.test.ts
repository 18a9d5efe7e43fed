/**
 * swap.coffee's `jetton_swap` on traces built by hand (support.ts), shaped as mainnet's (a USDT vault's jetton
 * notification, swap_internal to the pool, the pool's success log and payout_internal to the vault of the asset out,
 * the vault's payout): USDT for TON, TON for USDT (swap_native in, a jetton transfer out), a route through two
 * pools (`peer_swaps`), and a step the pool refused (no swap, as toncenter). Tether's USDT master as on mainnet;
 * the vaults, pools and wallets are made up. Each action against toncenter's v3 spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Builder, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { op, USDT, account, address, buildTrace, type Step, againstSpec } from './support.js';

const [USER, USDT_VAULT, NATIVE_VAULT, POOL, CES_VAULT, CES_POOL, CES] = [0xa11ce, 0x7a, 0x7b, 0x9001, 0x7c, 0x9002, 0xce5].map(account);
const [USER_USDT, VAULT_USDT, USER_CES, VAULT_CES] = [0xa1, 0xb1, 0xa2, 0xb2].map(account);

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [VAULT_USDT, { owner: USDT_VAULT, jetton: USDT }],
    [USER_CES, { owner: USER, jetton: CES }],
    [VAULT_CES, { owner: CES_VAULT, jetton: CES }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};

/** An asset as swap.coffee writes it: native$00 or jetton$01 chain hash. */
const asset = (b: Builder, master: string | null): Builder => {
  if (master === null) return b.storeUint(0, 2);
  const a = address(master);
  return b
    .storeUint(1, 2)
    .storeUint(a.workChain & 0xff, 8)
    .storeBuffer(a.hash);
};
/** swap_params deadline recipient referral notification_data:(Maybe ^Cell). */
const swapParams = (): Cell =>
  beginCell().storeUint(1_749_332_520, 32).storeAddress(address(USER)).storeAddress(null).storeMaybeRef(null).endCell();
/** swap_internal#c0ffee20: the amount carried on, no asset hint, the minimum out, no further step; params and proof. */
const swapInternal = (amount: bigint): Cell =>
  op(0xc0ffee20)
    .storeCoins(amount)
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeMaybeRef(null)
    .storeRef(swapParams())
    .storeRef(beginCell().endCell())
    .endCell();
/** swap_successful_event#c0ffee30: the asset in, the amounts, the pool's reserves after it. */
const success = (assetIn: string | null, amountIn: bigint, amountOut: bigint): Cell =>
  asset(op(0xc0ffee30), assetIn)
    .storeCoins(amountIn)
    .storeCoins(amountOut)
    .storeCoins(5_563_202_413n)
    .storeCoins(1_742_237_724_724n)
    .endCell();
/** swap_failed_event#c0ffee31: the pool refused the step. */
const failed = (): Cell => op(0xc0ffee31).storeUint(1, 32).endCell();
/** payout_internal#c0ffee21 to the vault of the asset out: the recipient and the amount; a proof. */
const payoutInternal = (amount: bigint): Cell =>
  op(0xc0ffee21).storeAddress(address(USER)).storeCoins(amount).storeMaybeRef(null).storeMaybeRef(beginCell().endCell()).endCell();
const payout = (): Cell => op(0xc0ffee32).endCell();
/** swap_native#c0ffee00: the TON offered, the first pool's step, the params. */
const swapNative = (amount: bigint): Cell =>
  op(0xc0ffee00)
    .storeCoins(amount)
    .storeUint(BigInt(`0x${'9'.repeat(64)}`), 256)
    .storeCoins(1n)
    .storeMaybeRef(null)
    .storeRef(swapParams())
    .endCell();
const transfer = (amount: bigint, to: string, payload: Cell | null = null): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(100_000_000n)
    .storeMaybeRef(payload)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(100_000_000n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
const excess = (): Cell => op(0xd53276db).endCell();

/** USDT from the user into the USDT vault, whose notification leads to `toPool`. */
const usdtIn = (amount: bigint, toPool: Step): Step => ({
  to: USER_USDT,
  body: transfer(amount, USDT_VAULT),
  then: [
    {
      to: VAULT_USDT,
      body: internalTransfer(amount, USER),
      then: [
        { to: USER, body: excess() },
        { to: USDT_VAULT, body: notify(amount, USER), then: [toPool] },
      ],
    },
  ],
});

/** The native vault paying TON out: payout#c0ffee32 carrying more than the amount (its gas). */
const tonOut = (amount: bigint): Step => ({
  to: NATIVE_VAULT,
  body: payoutInternal(amount),
  then: [{ to: USER, value: amount + 86_000_000n, body: payout() }],
});

test('coffee jetton_swap: USDT for TON, paid by the native vault (the amount payout_internal names)', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(5_489_694n, {
      to: POOL,
      body: swapInternal(5_489_694n),
      logBodies: [success(USDT, 5_489_694n, 1_712_374_663n)],
      then: [tonOut(1_712_374_663n)],
    }),
  ]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['jetton_swap', true]],
  );
  const [swap] = actions;
  assert.deepEqual(swap.details, {
    dex: 'coffee',
    sender: USER,
    asset_in: USDT,
    asset_out: null,
    dex_incoming_transfer: {
      asset: USDT,
      source: USER,
      destination: USDT_VAULT,
      source_jetton_wallet: USER_USDT,
      destination_jetton_wallet: VAULT_USDT,
      amount: '5489694',
    },
    dex_outgoing_transfer: {
      asset: null,
      source: POOL,
      destination: USER,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '1712374663',
    },
    peer_swaps: [],
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'every step is the swap');
  againstSpec(swap);
});

test('coffee jetton_swap: TON for USDT, swap_native in, the USDT vault paying with a jetton transfer', () => {
  const { trace } = buildTrace(USER, [
    {
      to: NATIVE_VAULT,
      value: 2_200_000_000n,
      body: swapNative(2_000_000_000n),
      then: [
        {
          to: POOL,
          body: swapInternal(2_000_000_000n),
          logBodies: [success(null, 2_000_000_000n, 6_400_000n)],
          then: [
            {
              to: USDT_VAULT,
              body: payoutInternal(6_400_000n),
              then: [
                {
                  to: VAULT_USDT,
                  body: transfer(6_400_000n, USER),
                  then: [{ to: USER_USDT, body: internalTransfer(6_400_000n, USDT_VAULT), then: [{ to: USER, body: excess() }] }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  assert.deepEqual(swap.details, {
    dex: 'coffee',
    sender: USER,
    asset_in: null,
    asset_out: USDT,
    dex_incoming_transfer: {
      asset: null,
      source: USER,
      destination: NATIVE_VAULT,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
      amount: '2000000000',
    },
    dex_outgoing_transfer: {
      asset: USDT,
      source: USDT_VAULT,
      destination: USER,
      source_jetton_wallet: VAULT_USDT,
      destination_jetton_wallet: USER_USDT,
      amount: '6400000',
    },
    peer_swaps: [],
  });
  againstSpec(swap);
});

test('coffee jetton_swap: USDT to TON to a jetton through two pools: peer_swaps, each step out the next one in', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(10_000_000n, {
      to: POOL,
      body: swapInternal(10_000_000n),
      logBodies: [success(USDT, 10_000_000n, 3_110_612_273n)],
      then: [
        {
          to: CES_POOL,
          body: swapInternal(3_110_612_273n),
          logBodies: [success(null, 3_110_612_273n, 13_876_673_279n)],
          then: [
            {
              to: CES_VAULT,
              body: payoutInternal(13_876_673_279n),
              then: [
                {
                  to: VAULT_CES,
                  body: transfer(13_876_673_279n, USER),
                  then: [{ to: USER_CES, body: internalTransfer(13_876_673_279n, CES_VAULT) }],
                },
              ],
            },
          ],
        },
      ],
    }),
  ]);
  const [swap, ...rest] = classifyTrace(trace, contracts).actions;
  assert.deepEqual(rest, []);
  assert.deepEqual([swap.type, swap.success], ['jetton_swap', true]);
  const details = swap.details as Record<string, unknown>;
  assert.equal(details.asset_in, USDT);
  assert.equal(details.asset_out, CES);
  assert.deepEqual(details.peer_swaps, [
    { asset_in: USDT, amount_in: '10000000', asset_out: null, amount_out: '3110612273' },
    { asset_in: null, amount_in: '3110612273', asset_out: CES, amount_out: '13876673279' },
  ]);
  assert.deepEqual(details.dex_outgoing_transfer, {
    asset: CES,
    source: CES_VAULT,
    destination: USER,
    source_jetton_wallet: VAULT_CES,
    destination_jetton_wallet: USER_CES,
    amount: '13876673279',
  });
  assert.equal(swap.transactions.length, trace.transactions.length, 'both pools and the payout');
  againstSpec(swap);
});

test('coffee: a step the pool refused (its failure logged, USDT paid back) is no swap, as toncenter decides', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(5_000_000n, {
      to: POOL,
      body: swapInternal(5_000_000n),
      logBodies: [failed()],
      then: [
        {
          to: USDT_VAULT,
          body: payoutInternal(5_000_000n),
          then: [
            {
              to: VAULT_USDT,
              body: transfer(5_000_000n, USER),
              then: [{ to: USER_USDT, body: internalTransfer(5_000_000n, USDT_VAULT) }],
            },
          ],
        },
      ],
    }),
  ]);
  const actions = classifyTrace(trace, contracts).actions;
  assert.ok(!actions.some((a) => a.type === 'jetton_swap'), actions.map((a) => a.type).join());
  assert.deepEqual(
    actions.filter((a) => a.type === 'jetton_transfer').map((a) => (a.details as Record<string, unknown>).amount),
    ['5000000', '5000000'],
    'the transfer in and the refund stay transfers',
  );
});

// Withdrawals: the user's LP wallet of the TON/USDT pool (the pool is the LP master).
const USER_LP = account(0xa3);
const lpContracts: KnownContracts = {
  ...contracts,
  jettonWallets: new Map([...contracts.jettonWallets, [USER_LP, { owner: USER, jetton: POOL }]]),
};
const burn = (amount: bigint): Cell => op(0x595f07bc).storeCoins(amount).storeAddress(address(USER)).storeBit(0).endCell();
const burnNotification = (amount: bigint): Cell =>
  op(0x7bdd97de).storeCoins(amount).storeAddress(address(USER)).storeAddress(address(USER)).endCell();
/** liquidity_withdrawal_event#c0ffee35: both amounts, the LP burnt, the supply and reserves after it. */
const withdrawalEvent = (amount1: bigint, amount2: bigint, lp: bigint): Cell =>
  op(0xc0ffee35)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeCoins(lp)
    .storeCoins(1n)
    .storeCoins(2n)
    .storeCoins(3n)
    .storeCoins(4n)
    .endCell();

/** An LP burn the pool answers with a payout of TON and one of USDT (and its log, unless `logged` is false). */
function withdrawal(options: { logged?: boolean; burnAborted?: boolean } = {}) {
  const logged = options.logged ?? true;
  return buildTrace(USER, [
    {
      to: USER_LP,
      body: burn(777n),
      aborted: options.burnAborted,
      then: options.burnAborted
        ? []
        : [
            {
              to: POOL,
              body: burnNotification(777n),
              logBodies: logged ? [withdrawalEvent(1_500_000_000n, 4_800_000n, 777n)] : [],
              then: [
                { to: NATIVE_VAULT, body: payoutInternal(1_500_000_000n), then: [{ to: USER, value: 1_540_000_000n, body: payout() }] },
                {
                  to: USDT_VAULT,
                  body: payoutInternal(4_800_000n),
                  then: [
                    {
                      to: VAULT_USDT,
                      body: transfer(4_800_000n, USER),
                      then: [{ to: USER_USDT, body: internalTransfer(4_800_000n, USDT_VAULT), then: [{ to: USER, body: excess() }] }],
                    },
                  ],
                },
              ],
            },
          ],
    },
  ]);
}

test('coffee dex_withdraw_liquidity: an LP burn paid out by both vaults, the amounts from the pool log', () => {
  const { trace } = withdrawal();
  const actions = classifyTrace(trace, lpContracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['dex_withdraw_liquidity', true]],
  );
  const [action] = actions;
  assert.deepEqual(action.details, {
    dex: 'coffee',
    amount_1: '1500000000',
    amount_2: '4800000',
    asset_1: null,
    asset_2: USDT,
    // toncenter's: a TON payout's "wallet" is the user it paid.
    user_jetton_wallet_1: USER,
    user_jetton_wallet_2: USER_USDT,
    lp_tokens_burnt: '777',
    is_refund: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    burnt_nft_index: null,
    burnt_nft_address: null,
    tick_lower: null,
    tick_upper: null,
  });
  assert.equal(action.transactions.length, trace.transactions.length, 'the burn, both vaults, both payouts');
  for (const who of [USER, USER_LP, POOL, NATIVE_VAULT, USDT_VAULT]) assert.ok(action.accounts.includes(who), who);
  againstSpec(action);
});

test('coffee dex_withdraw_liquidity: no pool log, or a burn the LP wallet refused: no withdrawal, the burn stays', () => {
  const unlogged = classifyTrace(withdrawal({ logged: false }).trace, lpContracts).actions;
  assert.ok(!unlogged.some((a) => a.type === 'dex_withdraw_liquidity'));
  assert.ok(unlogged.some((a) => a.type === 'jetton_burn'));
  const refused = classifyTrace(withdrawal({ burnAborted: true }).trace, lpContracts).actions;
  assert.deepEqual(
    refused.map((a) => [a.type, a.success]),
    [['jetton_burn', false]],
  );
});

// Deposits into the TON/USDT pool (TON its first asset) through a liquidity depository.
const DEPOSITORY = account(0xde9);
const trimmedParams = (): Cell => beginCell().storeAddress(address(USER)).storeBit(0).endCell();
const poolParams = (): Cell => asset(asset(beginCell(), null), USDT).storeUint(0, 3).storeMaybeRef(null).endCell();
/** deposit_liquidity_native#c0ffee04: the TON brought, the depository's params and the pool's. */
const depositNative = (amount: bigint): Cell =>
  op(0xc0ffee04).storeCoins(amount).storeRef(trimmedParams()).storeRef(poolParams()).endCell();
/** create_liquidity_depository_request#c0ffee27 from the vault: the amount, params, pool params, the user, a proof. */
const depositoryRequest = (amount: bigint): Cell =>
  op(0xc0ffee27)
    .storeCoins(amount)
    .storeRef(trimmedParams())
    .storeRef(poolParams())
    .storeAddress(address(USER))
    .storeRef(beginCell().endCell())
    .endCell();
const deploy = (): Cell =>
  beginCell().storeUint(0xc0ffee22, 32).storeRef(beginCell().endCell()).storeRef(beginCell().endCell()).storeMaybeRef(null).endCell();
const depositInternal = (amount1: bigint, amount2: bigint): Cell =>
  op(0xc0ffee29)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeAddress(address(USER))
    .storeRef(trimmedParams())
    .storeRef(beginCell().endCell())
    .endCell();
/** deposit_liquidity_successful_event#c0ffee33: the amounts, the LP minted, the supply and reserves after it. */
const depositEvent = (amount1: bigint, amount2: bigint, lp: bigint): Cell =>
  op(0xc0ffee33)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeCoins(lp)
    .storeCoins(1n)
    .storeCoins(2n)
    .storeCoins(3n)
    .storeCoins(4n)
    .endCell();
const depositFailedEvent = (): Cell =>
  op(0xc0ffee34).storeCoins(1n).storeCoins(2n).storeCoins(3n).storeCoins(4n).storeCoins(5n).storeCoins(6n).endCell();

/** The depository deployed by the pool for the request; `then`: what the depository does next. */
const depository = (amount: bigint, then: Step[] = []): Step => ({
  to: POOL,
  body: depositoryRequest(amount),
  then: [{ to: DEPOSITORY, body: deploy(), deploys: true, then }],
});

const depositDetails = (over: Record<string, unknown>): Record<string, unknown> => ({
  dex: 'coffee',
  amount_1: null,
  amount_2: null,
  asset_1: null,
  asset_2: null,
  user_jetton_wallet_1: null,
  user_jetton_wallet_2: null,
  source: USER,
  pool: null,
  destination_liquidity: null,
  lp_tokens_minted: null,
  target_asset_1: null,
  target_asset_2: USDT,
  target_amount_1: null,
  target_amount_2: null,
  vault_excesses: [],
  tick_lower: null,
  tick_upper: null,
  nft_index: null,
  nft_address: null,
  ...over,
});

test('coffee dex_deposit_liquidity: TON brought first (the depository deployed, nothing minted yet)', () => {
  const { trace } = buildTrace(USER, [
    { to: NATIVE_VAULT, value: 3_100_000_000n, body: depositNative(3_000_000_000n), then: [depository(3_000_000_000n)] },
  ]);
  const deposits = classifyTrace(trace, lpContracts).actions.filter((a) => a.type === 'dex_deposit_liquidity');
  assert.equal(deposits.length, 1);
  const [deposit] = deposits;
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, depositDetails({ amount_1: '3000000000' }));
  for (const who of [USER, NATIVE_VAULT, POOL, DEPOSITORY]) assert.ok(deposit.accounts.includes(who), who);
  againstSpec(deposit);
});

test('coffee dex_deposit_liquidity: USDT completing it: the LP minted, TON paid back; USDT in the second slots', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(
      9_000_000n,
      depository(9_000_000n, [
        {
          to: POOL,
          body: depositInternal(3_000_000_000n, 9_000_000n),
          logBodies: [depositEvent(2_900_000_000n, 9_000_000n, 161_000n)],
          then: [
            { to: USER_LP, body: internalTransfer(161_000n, POOL), then: [{ to: USER, body: excess() }] },
            { to: NATIVE_VAULT, body: payoutInternal(100_000_000n), then: [{ to: USER, value: 120_000_000n, body: payout() }] },
          ],
        },
      ]),
    ),
  ]);
  const deposits = classifyTrace(trace, lpContracts).actions.filter((a) => a.type === 'dex_deposit_liquidity');
  assert.equal(deposits.length, 1);
  const [deposit] = deposits;
  assert.equal(deposit.success, true);
  assert.deepEqual(
    deposit.details,
    depositDetails({
      amount_2: '9000000',
      asset_2: USDT,
      user_jetton_wallet_2: USER_USDT,
      pool: POOL,
      destination_liquidity: POOL,
      lp_tokens_minted: '161000',
      // toncenter swaps the targets when the asset brought is the pool's second.
      target_asset_1: USDT,
      target_asset_2: null,
      // a TON payback: the value the vault's payout carried.
      vault_excesses: [{ asset: null, amount: '120000000' }],
    }),
  );
  againstSpec(deposit);
});

test('coffee dex_deposit_liquidity: a deposit the pool refused (its failure logged): no pool nor LP, not failed (toncenter)', () => {
  const { trace } = buildTrace(USER, [
    usdtIn(
      9_000_000n,
      depository(9_000_000n, [{ to: POOL, body: depositInternal(3_000_000_000n, 9_000_000n), logBodies: [depositFailedEvent()] }]),
    ),
  ]);
  const deposits = classifyTrace(trace, lpContracts).actions.filter((a) => a.type === 'dex_deposit_liquidity');
  assert.equal(deposits.length, 1);
  assert.equal(deposits[0].success, true);
  assert.deepEqual(
    deposits[0].details,
    depositDetails({ amount_2: '9000000', asset_2: USDT, user_jetton_wallet_2: USER_USDT, target_asset_1: USDT, target_asset_2: null }),
  );
});
