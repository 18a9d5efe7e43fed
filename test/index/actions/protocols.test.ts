/**
 * The classifier's protocol types on traces built by hand (support.ts), where a local chain cannot make them:
 * validator stakes (`election_deposit`, `election_recover`: confirmed, returned, bounced) and a getgems listing
 * (`nft_put_on_sale`: an NFT handed to a listing contract that deploys the sale and passes the NFT on; the sale's
 * terms read from its StateInit in the layout its code hash names, an unknown code read as v4r1 as toncenter does).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beginCell, internal, storeMessageRelaxed, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import type { KnownContracts } from '../../../src/index/actions/trace-input.js';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { account, address, buildTrace } from './support.js';

const ELECTOR = `-1:${'3'.repeat(64)}`;
const VALIDATOR = `-1:${'A'.repeat(64)}`;
const [ALICE, ITEM, COLLECTION, LISTING, SALE, MARKET, CREATOR] = [0xa11ce, 0x1e, 0xc0, 0x115, 0x5a1e, 0x3a, 0xc3].map(account);

const op = (code: number, queryId = 1n) => beginCell().storeUint(code, 32).storeUint(queryId, 64);

test('election_deposit: the confirmation makes it a success; a returned stake fails it; not the elector: a contract call', () => {
  const request = op(0x4e73744b).storeUint(1n, 256).endCell();
  const taken = buildTrace(VALIDATOR, [
    {
      to: ELECTOR,
      value: 10_000_000_000n,
      body: request,
      then: [{ to: VALIDATOR, value: 1_000_000_000n, body: op(0xf374484c).storeUint(0, 32).endCell() }],
    },
  ]);
  const [deposit] = classifyTrace(taken.trace, { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() }).actions;
  assert.equal(deposit.type, 'election_deposit');
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, { stake_holder: VALIDATOR, amount: '10000000000' });
  assert.deepEqual(deposit.accounts, [ELECTOR, VALIDATOR]);
  assert.equal(deposit.transactions.length, 3);

  const returned = buildTrace(VALIDATOR, [
    { to: ELECTOR, value: 5n, body: request, then: [{ to: VALIDATOR, value: 5n, body: op(0xee6f454c).storeUint(0, 32).endCell() }] },
  ]);
  const actions = classifyTrace(returned.trace, { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() }).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['election_deposit', false],
      ['call_contract', true],
    ],
    'the returned stake is a call of its own',
  );

  // Not the elector: a contract call.
  const elsewhere = buildTrace(VALIDATOR, [{ to: account(9), body: request }]);
  assert.equal(
    classifyTrace(elsewhere.trace, { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() }).actions[0].type,
    'call_contract',
  );
});

test('election_recover: the amount is what came back; refused, no amount and failed', () => {
  const none = { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() };
  const ok = buildTrace(VALIDATOR, [
    {
      to: ELECTOR,
      value: 1_000_000_000n,
      body: op(0x47657424).endCell(),
      then: [{ to: VALIDATOR, value: 7_000_000_000n, body: op(0xf96f7324).endCell() }],
    },
  ]);
  const [recovered] = classifyTrace(ok.trace, none).actions;
  assert.deepEqual(
    [recovered.type, recovered.success, recovered.details],
    ['election_recover', true, { stake_holder: VALIDATOR, amount: '7000000000' }],
  );
  const refused = buildTrace(VALIDATOR, [
    {
      to: ELECTOR,
      value: 1_000_000_000n,
      body: op(0x47657424).endCell(),
      then: [{ to: VALIDATOR, body: op(0xfffffffe).storeUint(0x47657424, 32).endCell() }],
    },
  ]);
  const [failed] = classifyTrace(refused.trace, none).actions;
  assert.deepEqual([failed.type, failed.success, failed.details], ['election_recover', false, { stake_holder: VALIDATOR }]);
});

/** A sale's StateInit: code `code`, data `data`. */
const stateInit = (code: Cell, data: Cell) =>
  beginCell().storeBit(0).storeBit(0).storeMaybeRef(code).storeMaybeRef(data).storeBit(0).endCell();
/** getgems v4r1's data layout (what toncenter reads for a code it does not know). */
const v4r1Data = () =>
  beginCell()
    .storeUint(0, 1)
    .storeAddress(address(MARKET))
    .storeAddress(address(ALICE))
    .storeCoins(3_000_000_000n)
    .storeUint(0, 32)
    .storeUint(0, 64)
    .storeRef(beginCell().storeAddress(address(MARKET)).storeAddress(address(CREATOR)).storeUint(5000, 17).storeUint(2000, 17))
    .endCell();
/** The older layout (v2/v3: created_at, the NFT, fee amounts), which tongate's own sale has. */
const v3Data = () =>
  beginCell()
    .storeUint(0, 1)
    .storeUint(1_750_000_000, 32)
    .storeAddress(address(MARKET))
    .storeAddress(address(ITEM))
    .storeAddress(null)
    .storeCoins(3_000_000_000n)
    .storeRef(beginCell().storeAddress(address(MARKET)).storeCoins(1n).storeAddress(address(CREATOR)).storeCoins(2n))
    .endCell();
const assigned = (prevOwner: string) =>
  beginCell().storeUint(0x05138d91, 32).storeUint(0, 64).storeAddress(address(prevOwner)).storeBit(0).endCell();

/** Alice hands the NFT to the listing contract, which deploys the sale and passes the NFT on to it. */
function listing(init: Cell) {
  return buildTrace(ALICE, [
    {
      to: ITEM,
      body: nftTransferBody({ newOwner: address(LISTING), response: address(ALICE), forwardAmount: 100_000_000n }),
      then: [
        {
          to: LISTING,
          body: assigned(ALICE),
          then: [
            { to: SALE, value: 50_000_000n, init, deploys: true },
            {
              to: ITEM,
              body: nftTransferBody({ newOwner: address(SALE), response: address(ALICE), forwardAmount: 10_000_000n }),
              then: [{ to: SALE, body: assigned(LISTING) }],
            },
          ],
        },
      ],
    },
  ]);
}

const saleContracts = (codeHash: string): KnownContracts => ({
  jettonWallets: new Map(),
  nftItems: new Map([[ITEM, { index: '7', collection: COLLECTION }]]),
  multisigOrders: new Map(),
  nftSales: new Map([[SALE, { nft: ITEM, owner: ALICE, marketplace: MARKET, fullPrice: '3000000000', codeHash }]]),
});

test('nft_put_on_sale: the terms from the sale StateInit in the layout of its code hash (unknown: v4r1, as toncenter)', () => {
  const code = beginCell().storeUint(0xc0de, 16).endCell();
  const trace = listing(stateInit(code, v4r1Data()));
  const actions = classifyTrace(trace.trace, saleContracts(code.hash().toString('base64'))).actions;
  const put = actions.find((a) => a.type === 'nft_put_on_sale');
  assert.ok(put, JSON.stringify(actions.map((a) => a.type)));
  assert.equal(put.success, true);
  assert.deepEqual(put.details, {
    nft_collection: COLLECTION,
    nft_item: ITEM,
    nft_item_index: '7',
    owner: ALICE,
    listing_address: LISTING,
    sale_address: SALE,
    marketplace_address: null,
    full_price: '3000000000',
    marketplace_fee: null,
    royalty_amount: null,
    marketplace_fee_address: MARKET,
    royalty_address: CREATOR,
    marketplace: null,
  });
  for (const who of [ALICE, LISTING, SALE, ITEM]) assert.ok(put.accounts.includes(who), who);
  assert.equal(put.transactions.length, trace.txs.length, 'every step of the listing');
  // Its parts (what a v2 client sees): both transfers and the transfer that deployed the sale; the deployment itself
  // is an action of its own, as for any trace.
  assert.deepEqual(
    actions
      .filter((a) => a.ancestors.includes('nft_put_on_sale'))
      .map((a) => a.type)
      .sort(),
    ['nft_transfer', 'nft_transfer', 'ton_transfer'],
  );
  assert.ok(actions.some((a) => a.type === 'contract_deploy' && a.ancestors.length === 0));

  // The older layout under a code toncenter does not know: read as v4r1, it does not parse: two plain transfers.
  const old = classifyTrace(listing(stateInit(code, v3Data())).trace, saleContracts(code.hash().toString('base64'))).actions;
  assert.ok(!old.some((a) => a.type === 'nft_put_on_sale'));
  assert.equal(old.filter((a) => a.type === 'nft_transfer').length, 2);
  // A sale the index did not detect: no listing either.
  const unknown = classifyTrace(trace.trace, { ...saleContracts('x'), nftSales: new Map() }).actions;
  assert.ok(!unknown.some((a) => a.type === 'nft_put_on_sale'));
});

// STON.fi v2 liquidity: the user's and the router's jetton wallets of two tokens, the pool (the LP master), an LP
// account, the user's LP wallet.
const [USER, ROUTER, POOL, LP_ACCOUNT, TOKEN_A, TOKEN_B, USER_A, USER_B, ROUTER_A, ROUTER_B, USER_LP] = [
  0x05e4, 0x4047e4, 0x9001, 0x1ac, 0xa, 0xb, 0x5a, 0x5b, 0x4a, 0x4b, 0x51,
].map(account);
const liquidityContracts: KnownContracts = {
  jettonWallets: new Map([
    [USER_A, { owner: USER, jetton: TOKEN_A }],
    [USER_B, { owner: USER, jetton: TOKEN_B }],
    [ROUTER_A, { owner: ROUTER, jetton: TOKEN_A }],
    [ROUTER_B, { owner: ROUTER, jetton: TOKEN_B }],
    [USER_LP, { owner: USER, jetton: POOL }],
  ]),
  nftItems: new Map(),
  multisigOrders: new Map(),
};
const internalTransfer = (amount: bigint, from: string) =>
  op(0x178d4519).storeCoins(amount).storeAddress(address(from)).storeAddress(address(from)).storeCoins(0).storeBit(0).endCell();
const notification = (amount: bigint, from: string) => op(0x7362d09c).storeCoins(amount).storeAddress(address(from)).storeBit(0).endCell();
const excess = () => op(0xd53276db).endCell();
const jettonTransfer = (amount: bigint, to: string) =>
  op(0x0f8a7ea5)
    .storeCoins(amount)
    .storeAddress(address(to))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(300_000_000n)
    .storeBit(0)
    .endCell();

test('dex_deposit_liquidity (stonfi_v2): the transfer into the router, provide_lp, the LP account and the LP mint', () => {
  const { trace } = buildTrace(USER, [
    {
      to: USER_A,
      body: jettonTransfer(100n, ROUTER),
      then: [
        {
          to: ROUTER_A,
          body: internalTransfer(100n, USER),
          then: [
            {
              to: ROUTER,
              body: notification(100n, USER),
              then: [
                {
                  to: POOL,
                  body: op(0x37c096df).storeAddress(address(USER)).storeCoins(100n).storeCoins(0n).endCell(),
                  then: [
                    {
                      to: LP_ACCOUNT,
                      body: op(0x50c6a654).endCell(),
                      then: [
                        {
                          to: POOL,
                          body: op(0x06ecd527).endCell(),
                          then: [{ to: USER_LP, body: internalTransfer(42n, POOL), then: [{ to: USER, body: excess() }] }],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
            { to: USER, body: excess() },
          ],
        },
      ],
    },
  ]);
  const actions = classifyTrace(trace, liquidityContracts).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['dex_deposit_liquidity'],
  );
  const [deposit] = actions;
  assert.equal(deposit.success, true);
  assert.deepEqual(deposit.details, {
    dex: 'stonfi_v2',
    amount_1: '100',
    amount_2: null,
    asset_1: TOKEN_A,
    asset_2: null,
    user_jetton_wallet_1: USER_A,
    user_jetton_wallet_2: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    lp_tokens_minted: '42',
    target_asset_1: null,
    target_asset_2: null,
    target_amount_1: null,
    target_amount_2: null,
    vault_excesses: [],
    tick_lower: null,
    tick_upper: null,
    nft_index: null,
    nft_address: null,
  });
  assert.equal(deposit.transactions.length, trace.transactions.length, 'every step');
});

test('dex_withdraw_liquidity (stonfi_v2): the LP burn, burn_notification_ext, both pay_to and their transfers out', () => {
  const payout = (routerWallet: string, userWallet: string, amount: bigint) => ({
    to: ROUTER,
    body: op(0x657b54f5).endCell(),
    then: [
      {
        to: routerWallet,
        body: jettonTransfer(amount, USER),
        then: [{ to: userWallet, body: internalTransfer(amount, ROUTER), then: [{ to: USER, body: excess() }] }],
      },
    ],
  });
  const { trace } = buildTrace(USER, [
    {
      to: USER_LP,
      body: op(0x595f07bc).storeCoins(42n).storeAddress(address(USER)).storeBit(0).endCell(),
      then: [
        { to: POOL, body: op(0x297437cf).storeCoins(42n).endCell(), then: [payout(ROUTER_A, USER_A, 50n), payout(ROUTER_B, USER_B, 60n)] },
      ],
    },
  ]);
  const actions = classifyTrace(trace, liquidityContracts).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['dex_withdraw_liquidity'],
  );
  const [withdraw] = actions;
  assert.equal(withdraw.success, true);
  assert.deepEqual(withdraw.details, {
    dex: 'stonfi_v2',
    amount_1: '50',
    amount_2: '60',
    asset_1: TOKEN_A,
    asset_2: TOKEN_B,
    user_jetton_wallet_1: USER_A,
    user_jetton_wallet_2: USER_B,
    lp_tokens_burnt: '42',
    is_refund: null,
    source: USER,
    pool: POOL,
    destination_liquidity: POOL,
    burnt_nft_index: null,
    burnt_nft_address: null,
    tick_lower: null,
    tick_upper: null,
  });
  for (const who of [USER, USER_LP, POOL, ROUTER, USER_A, USER_B]) assert.ok(withdraw.accounts.includes(who), who);
  assert.equal(withdraw.transactions.length, trace.transactions.length, 'every step');
});

test('jetton_swap (stonfi): the transfer in, swap, payment request and the transfer out; a refund fails it', () => {
  const PAIR = account(0x9a12);
  const swapPayload = beginCell()
    .storeUint(0x25938561, 32)
    .storeAddress(address(ROUTER_B))
    .storeCoins(1n)
    .storeAddress(address(USER))
    .storeBit(0)
    .endCell();
  const transferIn = op(0x0f8a7ea5)
    .storeCoins(100n)
    .storeAddress(address(ROUTER))
    .storeAddress(address(USER))
    .storeBit(0)
    .storeCoins(300_000_000n)
    .storeBit(1)
    .storeRef(swapPayload)
    .endCell();
  const swapMessage = op(0x25938561)
    .storeAddress(address(USER))
    .storeAddress(address(ROUTER_A))
    .storeCoins(100n)
    .storeCoins(1n)
    .storeBit(0)
    .storeRef(beginCell().storeAddress(address(USER)))
    .endCell();
  const payTo = (exitCode: number, amount0: bigint, amount1: bigint) =>
    op(0xf93bb43f)
      .storeAddress(address(USER))
      .storeUint(exitCode, 32)
      .storeRef(beginCell().storeCoins(amount0).storeAddress(address(ROUTER_A)).storeCoins(amount1).storeAddress(address(ROUTER_B)))
      .endCell();
  const swapTrace = (exitCode: number, amount0: bigint, amount1: bigint) => {
    const [outWallet, userWallet, amount] = amount1 > 0n ? [ROUTER_B, USER_B, amount1] : [ROUTER_A, USER_A, amount0];
    return buildTrace(USER, [
      {
        to: USER_A,
        body: transferIn,
        then: [
          {
            to: ROUTER_A,
            body: internalTransfer(100n, USER),
            then: [
              {
                to: ROUTER,
                body: notification(100n, USER),
                then: [
                  {
                    to: PAIR,
                    body: swapMessage,
                    then: [
                      {
                        to: ROUTER,
                        body: payTo(exitCode, amount0, amount1),
                        then: [
                          {
                            to: outWallet,
                            body: jettonTransfer(amount, USER),
                            then: [{ to: userWallet, body: internalTransfer(amount, ROUTER), then: [{ to: USER, body: excess() }] }],
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
              { to: USER, body: excess() },
            ],
          },
        ],
      },
    ]).trace;
  };
  const paid = swapTrace(0xc64370e5, 0n, 99n);
  const actions = classifyTrace(paid, liquidityContracts).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_swap'],
  );
  const [swap] = actions;
  assert.equal(swap.success, true);
  assert.deepEqual(swap.details, {
    dex: 'stonfi',
    sender: USER,
    asset_in: TOKEN_A,
    asset_out: TOKEN_B,
    dex_incoming_transfer: {
      asset: TOKEN_A,
      source: USER,
      destination: ROUTER,
      source_jetton_wallet: USER_A,
      destination_jetton_wallet: ROUTER_A,
      amount: '100',
    },
    dex_outgoing_transfer: {
      asset: TOKEN_B,
      source: ROUTER,
      destination: USER,
      source_jetton_wallet: ROUTER_B,
      destination_jetton_wallet: USER_B,
      amount: '99',
    },
    peer_swaps: [],
  });
  assert.equal(swap.transactions.length, paid.transactions.length);
  assert.ok(swap.accounts.includes(PAIR));

  const [refunded] = classifyTrace(swapTrace(0x5ffe1295, 100n, 0n), liquidityContracts).actions;
  assert.deepEqual([refunded.type, refunded.success, refunded.details.asset_out], ['jetton_swap', false, TOKEN_B]);
  assert.equal((refunded.details.dex_outgoing_transfer as { asset: string }).asset, TOKEN_A);

  // The router's wallet of the offered token unknown: no swap, the transfers stay.
  const unknown = classifyTrace(paid, {
    ...liquidityContracts,
    jettonWallets: new Map([...liquidityContracts.jettonWallets].filter(([a]) => a !== ROUTER_A)),
  });
  assert.ok(!unknown.actions.some((a) => a.type === 'jetton_swap'));
});

test('vesting_send_message: the message it carried as a BoC without index or CRC (te6ccg...), as toncenter writes it', () => {
  const [OWNER, VESTING, TARGET] = [0x0e, 0x7e, 0x7a].map(account);
  const carried = beginCell()
    .store(
      storeMessageRelaxed(
        internal({
          to: address(TARGET),
          value: 2_000_000_000n,
          bounce: true,
          body: beginCell().storeUint(0, 32).storeStringTail('Deposit').endCell(),
        }),
      ),
    )
    .endCell();
  const request = op(0xa7733acd, 22n).storeUint(3, 8).storeRef(carried).endCell();
  const built = buildTrace(OWNER, [
    {
      to: VESTING,
      body: request,
      then: [
        { to: OWNER, body: op(0xf7733acd, 22n).endCell() },
        { to: TARGET, value: 2_000_000_000n },
      ],
    },
  ]);
  const sent = classifyTrace(built.trace, { jettonWallets: new Map(), nftItems: new Map(), multisigOrders: new Map() }).actions.find(
    (a) => a.type === 'vesting_send_message',
  );
  assert.ok(sent);
  const plain = carried.toBoc({ idx: false, crc32: false }).toString('base64');
  assert.ok(plain.startsWith('te6ccg'));
  assert.deepEqual(sent.details, {
    query_id: '22',
    message_boc: plain,
    source: OWNER,
    vesting: VESTING,
    destination: TARGET,
    amount: '2000000000',
  });
  assert.equal(sent.success, true);
});
