/**
 * swap.coffee's types beyond swaps and liquidity, on traces built by hand (support.ts) shaped as mainnet's; Tether's
 * USDT master as on mainnet, the factory, vaults, pools, protector and staking contracts made up; each action against
 * toncenter's v3 spec:
 * - `coffee_create_vault`: the factory's deploy of a USDT vault with its wallet looked up at the master; a TON vault;
 *   a request the factory refused (a failed contract call, nothing else).
 * - `coffee_create_pool_creator` / `coffee_create_pool` of a TON/USDT pool: TON brought first (a pool creator), USDT
 *   completing it (the pool deployed, LP minted and logged; amounts and initiators put with their assets); a pool
 *   deployed without its log (the pool creator only); a request the factory refused (nothing).
 * - `coffee_mev_protect_hold_funds`: TON and USDT handed to the protector with the service fee; a hold the protector
 *   refused (still one, as toncenter); `coffee_mev_protect_failed_swap`: TON and USDT given back (ton-index-go's
 *   default details).
 * - `coffee_staking_deposit` (the position's NFT minted; an item the index did not detect: no deposit),
 *   `coffee_staking_withdraw` (also with a failed payout: still a success, as toncenter), `coffee_staking_claim_rewards`
 *   (and a claim the pool refused: nothing).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, type Builder, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { USDT, account, address, buildTrace, type Step, againstSpec, actionId } from './support.js';

const [USER, FACTORY, USDT_VAULT, NATIVE_VAULT, VAULT_USDT] = [0xa11ce, 0xfac, 0x7a, 0x7b, 0xb1].map(account);

const op = (code: number, queryId = 7n): Builder => beginCell().storeUint(code, 32).storeUint(queryId, 64);
/** An asset as swap.coffee writes it: native$00 or jetton$01 chain hash. */
const asset = (b: Builder, master: string | null): Builder => {
  if (master === null) return b.storeUint(0, 2);
  const a = address(master);
  return b
    .storeUint(1, 2)
    .storeUint(a.workChain & 0xff, 8)
    .storeBuffer(a.hash);
};
/** create_vault#c0ffee06 query_id asset. */
const createVault = (master: string | null): Cell => asset(op(0xc0ffee06), master).endCell();
/** deploy#c0ffee22: the vault's code and data, no action. */
const deploy = (): Cell =>
  op(0xc0ffee22).storeRef(beginCell().storeUint(0xc0de, 16)).storeRef(beginCell().storeUint(0xda7a, 16)).storeMaybeRef(null).endCell();
/** provide_wallet_address#2c76b973: the vault asks the master for its own wallet. */
const provideWallet = (): Cell => op(0x2c76b973).storeAddress(address(USDT_VAULT)).storeBit(0).endCell();
/** take_wallet_address#d1735400: the master's answer. */
const takeWallet = (): Cell => op(0xd1735400).storeAddress(address(VAULT_USDT)).storeMaybeRef(null).endCell();

function vaultCreation(master: string | null, options: { factoryAborted?: boolean } = {}) {
  const vault = master === null ? NATIVE_VAULT : USDT_VAULT;
  const lookup = master === null ? [] : [{ to: USDT, body: provideWallet(), then: [{ to: USDT_VAULT, body: takeWallet() }] }];
  return buildTrace(USER, [
    {
      to: FACTORY,
      value: 150_000_000n,
      body: createVault(master),
      aborted: options.factoryAborted,
      then: options.factoryAborted ? [] : [{ to: vault, body: deploy(), deploys: true, then: lookup }],
    },
  ]);
}

test('coffee_create_vault: a USDT vault deployed by the factory, its wallet looked up; the calls are its parts', () => {
  const { trace, messages } = vaultCreation(USDT);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  const created = actions.find((a) => a.type === 'coffee_create_vault');
  assert.ok(created, actions.map((a) => a.type).join());
  assert.equal(created.success, true);
  assert.deepEqual(created.details, { source: USER, vault: USDT_VAULT, asset: USDT, value: '150000000' });
  assert.equal(created.actionId, actionId(messages[0].hash, 'coffee_create_vault'));
  assert.equal(created.transactions.length, trace.transactions.length, 'the request, the factory, the vault, the master, the answer');
  for (const who of [USER, FACTORY, USDT_VAULT, USDT]) assert.ok(created.accounts.includes(who), who);
  // A v2 type: its contract calls are actions too, marked with it, for clients that do not know it.
  assert.deepEqual(
    actions.filter((a) => a.ancestors.includes('coffee_create_vault')).map((a) => a.type),
    ['call_contract', 'call_contract', 'call_contract', 'call_contract'],
  );
  assert.ok(
    actions.every((a) => a === created || a.type === 'contract_deploy' || a.ancestors.length > 0),
    'nothing else',
  );
  againstSpec(created);
});

test('coffee_create_vault: a TON vault (asset null), no wallet to look up', () => {
  const { trace } = vaultCreation(null);
  const created = classifyTrace(trace, NO_CONTRACTS).actions.find((a) => a.type === 'coffee_create_vault');
  assert.ok(created);
  assert.equal(created.success, true);
  assert.deepEqual(created.details, { source: USER, vault: NATIVE_VAULT, asset: null, value: '150000000' });
  assert.equal(created.transactions.length, trace.transactions.length);
  againstSpec(created);
});

test('coffee_create_vault: a request the factory refused (no deploy) is no vault creation, a failed contract call', () => {
  const actions = classifyTrace(vaultCreation(USDT, { factoryAborted: true }).trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['call_contract', false]],
  );
});

// Pool creation: a TON/USDT pool (TON its first asset), the LP to the user.
const [FRIEND, POOL_CREATOR, POOL, USER_USDT, USER_LP] = [0xf4e, 0xc4ea, 0x9001, 0xa1, 0xa3].map(account);
const contracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_USDT, { owner: USER, jetton: USDT }],
    [VAULT_USDT, { owner: USDT_VAULT, jetton: USDT }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};
/** pool_params (TON, USDT, constant product) and pool_creation_params (the LP's recipient, active). */
const poolTerms = (b: Builder): Builder =>
  asset(asset(b, null), USDT)
    .storeUint(0, 3)
    .storeMaybeRef(null)
    .storeAddress(address(USER))
    .storeBit(0)
    .storeMaybeRef(null)
    .storeBit(1)
    .storeMaybeRef(null);
const createPoolNative = (amount: bigint): Cell => poolTerms(op(0xc0ffee02).storeCoins(amount)).endCell();
const createPoolJetton = (): Cell => poolTerms(beginCell().storeUint(0xc0ffee11, 32)).endCell();
/** create_pool_creator_request#c0ffee23 as the vault sends it: the amount, the terms, the sender, a proof. */
const creatorRequest = (amount: bigint, sender: string): Cell =>
  poolTerms(op(0xc0ffee23).storeCoins(amount)).storeAddress(address(sender)).storeRef(beginCell().endCell()).endCell();
/** create_pool_request#c0ffee25: both amounts in the pool's order, the other side's sender, the params, a proof. */
const poolRequest = (amount1: bigint, amount2: bigint, initiator: string): Cell =>
  op(0xc0ffee25)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeAddress(address(initiator))
    .storeRef(beginCell().storeAddress(address(USER)).storeBit(0).storeMaybeRef(null).storeBit(1).storeMaybeRef(null))
    .storeRef(beginCell().endCell())
    .endCell();
const depositEvent = (amount1: bigint, amount2: bigint, lp: bigint): Cell =>
  op(0xc0ffee33)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeCoins(lp)
    .storeCoins(lp)
    .storeCoins(amount1)
    .storeCoins(amount2)
    .storeCoins(0n)
    .endCell();
const transfer = (amount: bigint, to: string, payload: Cell): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(200_000_000n)
    .storeMaybeRef(payload)
    .endCell();
const internalTransfer = (amount: bigint, from: string): Cell =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(200_000_000n).storeBit(0).endCell();
const notify = (amount: bigint, from: string): Cell => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
const excess = (): Cell => op(0xd53276db).endCell();

const TON_IN = 3_000_000_000n;
const USDT_IN = 9_300_000n;
const LP = 167_000n;

/** The TON side, by the user: the native vault, the factory's request, the pool creator deployed. */
const tonSide = (options: { factoryAborted?: boolean } = {}) =>
  buildTrace(USER, [
    {
      to: NATIVE_VAULT,
      value: TON_IN + 300_000_000n,
      body: createPoolNative(TON_IN),
      then: [
        {
          to: FACTORY,
          body: creatorRequest(TON_IN, USER),
          aborted: options.factoryAborted,
          then: options.factoryAborted ? [] : [{ to: POOL_CREATOR, body: deploy(), deploys: true }],
        },
      ],
    },
  ]);

/** The USDT side completing the pool (its TON side sent by a friend): the pool deployed, LP minted and logged. */
const usdtSide = (options: { logged?: boolean } = {}) =>
  buildTrace(USER, [
    {
      to: USER_USDT,
      body: transfer(USDT_IN, USDT_VAULT, createPoolJetton()),
      then: [
        {
          to: VAULT_USDT,
          body: internalTransfer(USDT_IN, USER),
          then: [
            { to: USER, body: excess() },
            {
              to: USDT_VAULT,
              body: notify(USDT_IN, USER),
              then: [
                {
                  to: FACTORY,
                  body: creatorRequest(USDT_IN, USER),
                  then: [
                    {
                      to: POOL_CREATOR,
                      body: deploy(),
                      then: [
                        {
                          to: FACTORY,
                          body: poolRequest(TON_IN, USDT_IN, FRIEND),
                          then: [
                            {
                              to: POOL,
                              body: deploy(),
                              deploys: true,
                              logBodies: options.logged === false ? [] : [depositEvent(TON_IN, USDT_IN, LP)],
                              then: [{ to: USER_LP, body: internalTransfer(LP, POOL), then: [{ to: USER, body: excess() }] }],
                            },
                          ],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);

test('coffee_create_pool_creator: TON brought first, the pool creator deployed (provided_asset null, as ton-index-go)', () => {
  const { trace, messages } = tonSide();
  const actions = classifyTrace(trace, contracts).actions;
  const creator = actions.find((a) => a.type === 'coffee_create_pool_creator');
  assert.ok(creator, actions.map((a) => a.type).join());
  assert.equal(creator.success, true);
  assert.deepEqual(creator.details, {
    source: USER,
    source_jetton_wallet: null,
    deposit_recipient: USER,
    pool_creator_contract: POOL_CREATOR,
    provided_asset: null,
    asset_1: null,
    asset_2: null,
    amount: TON_IN.toString(),
  });
  assert.equal(creator.actionId, actionId(messages[0].hash, 'coffee_create_pool_creator'));
  assert.equal(creator.transactions.length, trace.transactions.length, 'the request, the vault, the factory, the creator');
  for (const who of [USER, NATIVE_VAULT, FACTORY, POOL_CREATOR]) assert.ok(creator.accounts.includes(who), who);
  assert.ok(!actions.some((a) => a.type === 'coffee_create_pool'));
  againstSpec(creator);
});

test("coffee_create_pool: USDT completing the pool; the asset brought is the pool's second, so amounts and initiators swap", () => {
  const { trace, messages } = usdtSide();
  const actions = classifyTrace(trace, contracts).actions;
  const pool = actions.find((a) => a.type === 'coffee_create_pool');
  assert.ok(pool, actions.map((a) => a.type).join());
  assert.equal(pool.success, true);
  assert.deepEqual(pool.details, {
    source: USER,
    source_jetton_wallet: USER_USDT,
    initiator_1: FRIEND,
    initiator_2: USER,
    pool: POOL,
    pool_creator_contract: POOL_CREATOR,
    provided_asset: USDT,
    amount: USDT_IN.toString(),
    asset_1: USDT,
    asset_2: null,
    amount_1: USDT_IN.toString(),
    amount_2: TON_IN.toString(),
    lp_tokens_minted: LP.toString(),
  });
  assert.equal(pool.actionId, actionId(messages[0].hash, 'coffee_create_pool'));
  assert.equal(pool.transactions.length, trace.transactions.length, 'the transfer in, the creator, the pool, the LP');
  for (const who of [USER, USER_USDT, USDT_VAULT, FACTORY, POOL_CREATOR, POOL]) assert.ok(pool.accounts.includes(who), who);
  // The pool creator it grew from is one of its parts, with its own parts (the USDT transfer in).
  const creator = actions.find((a) => a.type === 'coffee_create_pool_creator');
  assert.ok(creator);
  assert.deepEqual(creator.ancestors, ['coffee_create_pool']);
  assert.deepEqual(creator.details, {
    source: USER,
    source_jetton_wallet: USER_USDT,
    deposit_recipient: USER,
    pool_creator_contract: POOL_CREATOR,
    provided_asset: null,
    asset_1: USDT,
    asset_2: null,
    amount: USDT_IN.toString(),
  });
  const transferIn = actions.find((a) => a.type === 'jetton_transfer');
  assert.ok(transferIn);
  assert.deepEqual([...transferIn.ancestors].sort(), ['coffee_create_pool', 'coffee_create_pool_creator']);
  againstSpec(pool);
  againstSpec(creator);
});

test('coffee_create_pool: a pool deployed without its log is no creation (the pool creator stays); a refused request makes nothing', () => {
  const unlogged = classifyTrace(usdtSide({ logged: false }).trace, contracts).actions;
  assert.ok(!unlogged.some((a) => a.type === 'coffee_create_pool'));
  const creator = unlogged.find((a) => a.type === 'coffee_create_pool_creator');
  assert.ok(creator);
  assert.equal(creator.success, true);
  const refused = classifyTrace(tonSide({ factoryAborted: true }).trace, contracts).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('coffee_')), refused.map((a) => a.type).join());
  assert.ok(refused.some((a) => a.type === 'call_contract' && !a.success));
});

// MEV protection: the protector holds a swap's funds; the service fee goes to swap.coffee beside them.
const [MEV, FEES, MEV_USDT] = [0x3e7, 0xfee, 0xb3].map(account);
const mevContracts: KnownContracts = {
  ...contracts,
  jettonWallets: new Map([...contracts.jettonWallets, [MEV_USDT, { owner: MEV, jetton: USDT }]]),
};
const holdFunds = (): Cell => op(0x6bc79e7e).endCell();
const serviceFee = (): Cell => beginCell().storeUint(0xc0ffeea0, 32).endCell();
const failedSwap = (): Cell => op(0xee51ce51).storeAddress(address(USER)).endCell();
const FEE: Step = { to: FEES, value: 50_000_000n, body: serviceFee() };
const usdtTo = (from: string, fromWallet: string, to: string, toWallet: string, payload: Cell): Step => ({
  to: fromWallet,
  body: transferFrom(USDT_IN, to, from, payload),
  then: [
    {
      to: toWallet,
      body: internalTransfer(USDT_IN, from),
      then: [
        { to: from, body: excess() },
        { to, body: notify(USDT_IN, from) },
      ],
    },
  ],
});
const transferFrom = (amount: bigint, to: string, from: string, payload: Cell): Cell =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(from))
    .storeBit(0)
    .storeCoins(200_000_000n)
    .storeMaybeRef(payload)
    .endCell();

test('coffee_mev_protect_hold_funds: TON held with the service fee beside it; the request and the fee are its parts', () => {
  const { trace, txs } = buildTrace(USER, [{ to: MEV, value: TON_IN, body: holdFunds() }, FEE]);
  const actions = classifyTrace(trace, mevContracts).actions;
  const held = actions.find((a) => a.type === 'coffee_mev_protect_hold_funds');
  assert.ok(held, actions.map((a) => a.type).join());
  assert.equal(held.success, true);
  assert.deepEqual(held.details, {
    source: USER,
    source_jetton_wallet: null,
    mev_contract: MEV,
    mev_contract_jetton_wallet: null,
    asset: null,
    amount: TON_IN.toString(),
  });
  assert.equal(held.transactions.length, trace.transactions.length, 'the wallet, the protector, the fee');
  for (const who of [USER, MEV, FEES]) assert.ok(held.accounts.includes(who), who);
  // The wallet's request is taken along (it paid the fee too): its external is the earliest message.
  const external = txs[0].inMsg;
  assert.ok(external);
  assert.equal(held.actionId, actionId(external.hash, 'coffee_mev_protect_hold_funds'));
  againstSpec(held);
});

test('coffee_mev_protect_hold_funds: USDT held (a jetton transfer whose payload asks it); a refused hold is still one', () => {
  const { trace } = buildTrace(USER, [usdtTo(USER, USER_USDT, MEV, MEV_USDT, holdFunds()), FEE]);
  const actions = classifyTrace(trace, mevContracts).actions;
  const held = actions.find((a) => a.type === 'coffee_mev_protect_hold_funds');
  assert.ok(held, actions.map((a) => a.type).join());
  assert.equal(held.success, true);
  assert.deepEqual(held.details, {
    source: USER,
    source_jetton_wallet: USER_USDT,
    mev_contract: MEV,
    mev_contract_jetton_wallet: null,
    asset: USDT,
    amount: USDT_IN.toString(),
  });
  assert.deepEqual(actions.find((a) => a.type === 'jetton_transfer')?.ancestors, ['coffee_mev_protect_hold_funds']);
  againstSpec(held);
  // The protector refused the TON (aborted, bounced back): toncenter never marks it failed.
  const refused = classifyTrace(
    buildTrace(USER, [{ to: MEV, value: TON_IN, body: holdFunds(), bounce: true, aborted: true }]).trace,
    mevContracts,
  ).actions;
  const kept = refused.find((a) => a.type === 'coffee_mev_protect_hold_funds');
  assert.ok(kept, refused.map((a) => a.type).join());
  assert.equal(kept.success, true);
  assert.equal(kept.details.amount, TON_IN.toString());
});

test("coffee_mev_protect_failed_swap: TON and USDT given back after a swap not made (ton-index-go's default details)", () => {
  const ton = classifyTrace(buildTrace(MEV, [{ to: USER, value: TON_IN, body: failedSwap() }]).trace, mevContracts).actions;
  const back = ton.find((a) => a.type === 'coffee_mev_protect_failed_swap');
  assert.ok(back, ton.map((a) => a.type).join());
  assert.equal(back.success, true);
  assert.deepEqual(back.details, { error: "unsupported action type: 'coffee_mev_protect_failed_swap'" });
  againstSpec(back);
  for (const who of [MEV, USER]) assert.ok(back.accounts.includes(who), who);
  const usdt = classifyTrace(buildTrace(MEV, [usdtTo(MEV, MEV_USDT, USER, USER_USDT, failedSwap())]).trace, mevContracts).actions;
  const usdtBack = usdt.find((a) => a.type === 'coffee_mev_protect_failed_swap');
  assert.ok(usdtBack, usdt.map((a) => a.type).join());
  assert.deepEqual(usdtBack.details, back.details);
  assert.deepEqual(usdt.find((a) => a.type === 'jetton_transfer')?.ancestors, ['coffee_mev_protect_failed_swap']);
});

// Staking: USDT to the staking vault, whose staking_deposit reaches the master (an NFT collection) that mints a position.
const [STAKING_VAULT, STAKING_MASTER, POSITION, STAKING_VAULT_USDT] = [0x5a, 0x5b, 0x5c, 0xb5].map(account);
const stakingContracts = (itemKnown: boolean): KnownContracts => ({
  ...contracts,
  jettonWallets: new Map([...contracts.jettonWallets, [STAKING_VAULT_USDT, { owner: STAKING_VAULT, jetton: USDT }]]),
  nftItems: itemKnown ? new Map([[POSITION, { index: '42', collection: STAKING_MASTER }]]) : new Map(),
});
/** staking_lock#0c0ffede period_id: the forward payload that asks for a position. */
const stakingLock = (): Cell => beginCell().storeUint(0x0c0ffede, 32).storeUint(3, 32).endCell();
/** staking_deposit#f9471134 query_id sender jetton_amount from_user period_id. */
const stakingDeposit = (): Cell =>
  op(0xf9471134).storeAddress(address(STAKING_VAULT)).storeCoins(USDT_IN).storeAddress(address(USER)).storeUint(3, 32).endCell();
/** staking_initialize#be5a7595: the owner, the jetton data and the position data, the periods. */
const stakingInitialize = (): Cell =>
  op(0xbe5a7595)
    .storeAddress(address(USER))
    .storeRef(beginCell().storeAddress(address(STAKING_VAULT_USDT)).storeCoins(USDT_IN))
    .storeRef(beginCell().storeCoins(USDT_IN).storeCoins(0n).storeUint(1_749_000_000, 64).storeUint(1_756_776_000, 64).storeUint(3, 32))
    .storeRef(beginCell().endCell())
    .endCell();

const staking = () =>
  buildTrace(USER, [
    {
      to: USER_USDT,
      body: transferFrom(USDT_IN, STAKING_VAULT, USER, stakingLock()),
      then: [
        {
          to: STAKING_VAULT_USDT,
          body: internalTransfer(USDT_IN, USER),
          then: [
            { to: USER, body: excess() },
            {
              to: STAKING_VAULT,
              body: notify(USDT_IN, USER),
              then: [
                {
                  to: STAKING_MASTER,
                  body: stakingDeposit(),
                  logBodies: [stakingDeposit()],
                  then: [{ to: POSITION, body: stakingInitialize(), deploys: true }],
                },
              ],
            },
          ],
        },
      ],
    },
  ]);

test('coffee_staking_deposit: USDT staked, the master minting the position; the transfer and the mint are its parts', () => {
  const { trace, messages } = staking();
  const actions = classifyTrace(trace, stakingContracts(true)).actions;
  const staked = actions.find((a) => a.type === 'coffee_staking_deposit');
  assert.ok(staked, actions.map((a) => a.type).join());
  assert.equal(staked.success, true);
  assert.deepEqual(staked.details, {
    source: USER,
    source_jetton_wallet: USER_USDT,
    pool: STAKING_MASTER,
    pool_jetton_wallet: STAKING_VAULT_USDT,
    asset: USDT,
    amount: USDT_IN.toString(),
    minted_item_address: POSITION,
    minted_item_index: '42',
  });
  assert.equal(staked.actionId, actionId(messages[0].hash, 'coffee_staking_deposit'));
  for (const who of [USER, USER_USDT, STAKING_VAULT, STAKING_MASTER, POSITION]) assert.ok(staked.accounts.includes(who), who);
  assert.deepEqual(
    actions
      .filter((a) => a.ancestors.includes('coffee_staking_deposit'))
      .map((a) => a.type)
      .sort(),
    ['call_contract', 'jetton_transfer', 'nft_mint'],
  );
  againstSpec(staked);
});

test('coffee_staking_deposit: a position the index did not detect (no nft_mint) is no deposit, the transfer stays', () => {
  const actions = classifyTrace(staking().trace, stakingContracts(false)).actions;
  assert.ok(!actions.some((a) => a.type === 'coffee_staking_deposit'), actions.map((a) => a.type).join());
  assert.ok(actions.some((a) => a.type === 'jetton_transfer' && a.ancestors.length === 0));
});

const [ADMIN, MASTER_USDT] = [0xad, 0xb6].map(account);
const POINTS = 12_345n;
/** staking_position_withdraw#cb03bfaf, each of its three steps. */
const withdrawFirst = (): Cell => op(0xcb03bfaf).endCell();
const withdrawSecond = (): Cell =>
  op(0xcb03bfaf)
    .storeUint(42, 64)
    .storeAddress(address(USER))
    .storeCoins(POINTS)
    .storeRef(beginCell().storeAddress(address(STAKING_VAULT_USDT)).storeCoins(USDT_IN))
    .endCell();
const withdrawThird = (): Cell =>
  op(0xcb03bfaf).storeAddress(address(STAKING_VAULT_USDT)).storeCoins(USDT_IN).storeAddress(address(USER)).endCell();
const claim = (): Cell =>
  op(0xb30c7310).storeAddress(address(MASTER_USDT)).storeCoins(USDT_IN).storeAddress(address(USER)).storeMaybeRef(null).endCell();
const withContracts = (): KnownContracts => {
  const known = stakingContracts(true);
  return { ...known, jettonWallets: new Map([...known.jettonWallets, [MASTER_USDT, { owner: STAKING_MASTER, jetton: USDT }]]) };
};
/** A USDT transfer paid by `from` through its wallet to the user, whose wallet may refuse it. */
const payUser = (from: string, fromWallet: string, refused = false): Step => ({
  to: fromWallet,
  body: transferFrom(USDT_IN, USER, from, beginCell().endCell()),
  then: [
    {
      to: USER_USDT,
      body: internalTransfer(USDT_IN, from),
      aborted: refused,
      then: refused
        ? []
        : [
            { to: from, body: excess() },
            { to: USER, body: notify(USDT_IN, from) },
          ],
    },
  ],
});
const withdrawal = (refused = false) =>
  buildTrace(USER, [
    {
      to: POSITION,
      body: withdrawFirst(),
      then: [
        {
          to: STAKING_MASTER,
          body: withdrawSecond(),
          logBodies: [withdrawThird()],
          then: [{ to: STAKING_VAULT, body: withdrawThird(), then: [payUser(STAKING_VAULT, STAKING_VAULT_USDT, refused)] }],
        },
      ],
    },
  ]);

test('coffee_staking_withdraw: a position withdrawn in three steps and paid in USDT; a failed payout is still one', () => {
  const { trace, messages } = withdrawal();
  const actions = classifyTrace(trace, withContracts()).actions;
  const withdrawn = actions.find((a) => a.type === 'coffee_staking_withdraw');
  assert.ok(withdrawn, actions.map((a) => a.type).join());
  assert.equal(withdrawn.success, true);
  const details = {
    source: USER,
    source_jetton_wallet: USER_USDT,
    pool: POSITION,
    pool_jetton_wallet: STAKING_VAULT_USDT,
    asset: USDT,
    amount: USDT_IN.toString(),
    nft_address: POSITION,
    nft_index: '42',
    points: POINTS.toString(),
  };
  assert.deepEqual(withdrawn.details, details);
  assert.equal(withdrawn.actionId, actionId(messages[0].hash, 'coffee_staking_withdraw'));
  for (const who of [USER, POSITION, STAKING_MASTER, STAKING_VAULT, STAKING_VAULT_USDT]) assert.ok(withdrawn.accounts.includes(who), who);
  againstSpec(withdrawn);
  const refused = classifyTrace(withdrawal(true).trace, withContracts()).actions;
  const kept = refused.find((a) => a.type === 'coffee_staking_withdraw');
  assert.ok(kept, refused.map((a) => a.type).join());
  assert.equal(kept.success, true);
  assert.deepEqual(kept.details, details);
  assert.equal(refused.find((a) => a.type === 'jetton_transfer')?.success, false, 'the payout itself failed');
});

test('coffee_staking_claim_rewards: the pool paying a claim in USDT with its log; a claim the pool refused is nothing', () => {
  const claimed = (refused: boolean) =>
    buildTrace(ADMIN, [
      {
        to: STAKING_MASTER,
        body: claim(),
        aborted: refused,
        logBodies: refused ? [] : [claim()],
        then: refused ? [] : [payUser(STAKING_MASTER, MASTER_USDT)],
      },
    ]);
  const actions = classifyTrace(claimed(false).trace, withContracts()).actions;
  const paid = actions.find((a) => a.type === 'coffee_staking_claim_rewards');
  assert.ok(paid, actions.map((a) => a.type).join());
  assert.equal(paid.success, true);
  assert.deepEqual(paid.details, {
    pool: STAKING_MASTER,
    pool_jetton_wallet: MASTER_USDT,
    recipient: USER,
    recipient_jetton_wallet: USER_USDT,
    asset: USDT,
    amount: USDT_IN.toString(),
  });
  for (const who of [ADMIN, STAKING_MASTER, MASTER_USDT, USER]) assert.ok(paid.accounts.includes(who), who);
  againstSpec(paid);
  const refused = classifyTrace(claimed(true).trace, withContracts()).actions;
  assert.ok(!refused.some((a) => a.type.startsWith('coffee_')), refused.map((a) => a.type).join());
});
