/**
 * The classifier on traces built by hand (support.ts): each action type toncenter's classifier finds in them, with
 * its id, bounds, transactions, accounts, success and details as ton-index-go writes them; what is not an action
 * (the external into the wallet, logs); the fallbacks (one tick-tock: none; nothing recognised: `unknown`).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { beginCell, internal, SendMode, storeMessageRelaxed, type Cell } from '@ton/core';
import { classifyTrace } from '../../../src/index/actions/classify.js';
import { balanceChanges, balanceChangesText } from '../../../src/index/actions/balance-changes.js';
import { NO_CONTRACTS, type KnownContracts } from '../../../src/index/actions/trace-input.js';
import { jettonBurnBody, jettonTransferBody, JETTON_OP, mintBody } from '../../../src/contracts/jetton/jetton.js';
import { nftTransferBody } from '../../../src/contracts/nft/nft.js';
import { changeDnsRecordBody, walletRecord } from '../../../src/contracts/dns/dns.js';
import { account, address, buildTrace, commentBody } from './support.js';

// Two owners, a jetton master and their wallets, an NFT item of a collection.
const [ALICE, BOB, MASTER, ALICE_JW, BOB_JW, ITEM, COLLECTION] = [0xa11ce, 0xb0b, 0x111, 0xa1, 0xb1, 0x1e, 0xc0].map(account);

const id = (hash: string, type: string) =>
  createHash('sha256')
    .update(hash + type)
    .digest('base64');
const boc = (cell: Cell) => cell.toBoc({ idx: false, crc32: true }).toString('base64');

const contracts: KnownContracts = {
  jettonWallets: new Map([
    [ALICE_JW, { owner: ALICE, jetton: MASTER }],
    [BOB_JW, { owner: BOB, jetton: MASTER }],
  ]),
  nftItems: new Map([[ITEM, { index: '7', collection: COLLECTION }]]),
  multisigOrders: new Map(),
};

const internalTransfer = (amount: bigint, from: string, forward = 0n) =>
  beginCell()
    .storeUint(JETTON_OP.internalTransfer, 32)
    .storeUint(5, 64)
    .storeCoins(amount)
    .storeAddress(address(from))
    .storeAddress(address(from))
    .storeCoins(forward)
    .storeBit(0)
    .endCell();
const notify = (amount: bigint, from: string) =>
  beginCell()
    .storeUint(JETTON_OP.transferNotification, 32)
    .storeUint(5, 64)
    .storeCoins(amount)
    .storeAddress(address(from))
    .storeBit(0)
    .endCell();
const excess = () => beginCell().storeUint(JETTON_OP.excesses, 32).storeUint(5, 64).endCell();

test('a TON transfer with a comment: one action, started by the wallet, the external into it is none', () => {
  const { trace, txs, messages } = buildTrace(ALICE, [{ to: BOB, value: 2_000_000_000n, body: commentBody('thanks!'), logs: 1 }]);
  const { state, actions } = classifyTrace(trace, NO_CONTRACTS);
  assert.equal(state, 'ok');
  assert.equal(actions.length, 1);
  const [a] = actions;
  assert.equal(a.type, 'ton_transfer');
  assert.equal(a.actionId, id(messages[0].hash, 'ton_transfer'));
  assert.deepEqual(a.details, {
    source: ALICE,
    destination: BOB,
    value: '2000000000',
    value_extra_currencies: {},
    comment: 'thanks!',
    encrypted: false,
  });
  assert.deepEqual(a.transactions, [txs[0].hash, txs[1].hash], "the receiver's transaction and the sender's that started it, by lt");
  assert.deepEqual(new Set(a.accounts), new Set([ALICE, BOB]));
  assert.equal(a.success, true);
  assert.equal(a.startLt, messages[0].createdLt, 'an action starts when its first message was created');
  assert.equal(a.endLt, txs[1].lt);
  assert.equal(a.traceEndLt, trace.endLt);
  assert.equal(a.traceExternalHash, trace.externalHash);
  assert.equal(a.traceExternalHashNorm, trace.externalHashNorm);
});

test('an encrypted comment is base64 and flagged; a binary comment keeps its bad bytes as \\xNN', () => {
  const secret = Buffer.from([1, 2, 3, 250]);
  const encrypted = beginCell().storeUint(0x2167da4b, 32).storeBuffer(secret).endCell();
  const { trace } = buildTrace(ALICE, [{ to: BOB, body: encrypted }]);
  assert.deepEqual(classifyTrace(trace, NO_CONTRACTS).actions[0].details, {
    source: ALICE,
    destination: BOB,
    value: '1000000000',
    value_extra_currencies: {},
    comment: secret.toString('base64'),
    encrypted: true,
  });
  const binary = beginCell()
    .storeUint(0, 32)
    .storeBuffer(Buffer.from([0x68, 0x69, 0xff, 0x00, 0xe2, 0x82]))
    .endCell();
  assert.equal(
    classifyTrace(buildTrace(ALICE, [{ to: BOB, body: binary }]).trace, NO_CONTRACTS).actions[0].details.comment,
    'hi\\xff\\xe2\\x82',
  );
});

test('a bounced transfer fails, and its bounce is a contract call of its own', () => {
  const bounce = beginCell().storeUint(0xffffffff, 32).storeUint(0, 32).endCell();
  const { trace } = buildTrace(ALICE, [
    { to: BOB, aborted: true, then: [{ to: ALICE, body: bounce, bounce: false, bounced: true, value: 990_000_000n }] },
  ]);
  const actions = classifyTrace(trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [
      ['ton_transfer', false],
      ['call_contract', true],
    ],
  );
  assert.deepEqual(actions[1].details, { opcode: '0xffffffff', source: BOB, destination: ALICE, value: '990000000', extra_currencies: {} });
});

test('a non-bounceable transfer to an empty account succeeds; one that deploys a contract adds contract_deploy', () => {
  const empty = buildTrace(ALICE, [{ to: BOB, bounce: false, aborted: true, endStatus: 'uninit', skipped: 'no_state' }]);
  assert.deepEqual(
    classifyTrace(empty.trace, NO_CONTRACTS).actions.map((a) => [a.type, a.success]),
    [['ton_transfer', true]],
  );
  const deploy = buildTrace(ALICE, [{ to: BOB, deploys: true, body: beginCell().storeUint(0x1234, 32).endCell() }]);
  const actions = classifyTrace(deploy.trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['call_contract', 'contract_deploy'],
  );
  assert.deepEqual(actions[1].details, { opcode: '0x00001234', source: ALICE, destination: BOB, value: '1000000000' });
  assert.equal(actions[1].actionId, id(deploy.messages[0].hash, 'contract_deploy'));
  // A wallet deployed by its first external: a deployment with no source, no other action.
  const wallet = buildTrace(ALICE, [], { walletDeploys: true });
  const only = classifyTrace(wallet.trace, NO_CONTRACTS).actions;
  assert.deepEqual(
    only.map((a) => [a.type, a.details]),
    [['contract_deploy', { destination: ALICE }]],
  );
});

test('a jetton transfer folds transfer, internal transfer, notification and excess into one action', () => {
  const forward = commentBody('for you');
  const { trace, txs, messages } = buildTrace(ALICE, [
    {
      to: ALICE_JW,
      value: 100_000_000n,
      body: jettonTransferBody({
        to: address(BOB),
        amount: 300n,
        response: address(ALICE),
        forwardTonAmount: 10_000_000n,
        forwardPayload: forward,
        queryId: 5n,
      }),
      then: [
        {
          to: BOB_JW,
          deploys: true,
          body: internalTransfer(300n, ALICE, 10_000_000n),
          then: [
            { to: BOB, body: notify(300n, ALICE), value: 10_000_000n },
            { to: ALICE, body: excess(), value: 50_000_000n },
          ],
        },
      ],
    },
  ]);
  const { state, actions } = classifyTrace(trace, contracts);
  assert.equal(state, 'ok');
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_transfer', 'contract_deploy'],
    "the receiver's new wallet is a deployment",
  );
  const [t] = actions;
  assert.equal(t.actionId, id(messages[0].hash, 'jetton_transfer'));
  assert.deepEqual(t.details, {
    asset: MASTER,
    sender: ALICE,
    receiver: BOB,
    sender_jetton_wallet: ALICE_JW,
    receiver_jetton_wallet: BOB_JW,
    amount: '300',
    comment: 'for you',
    is_encrypted_comment: false,
    query_id: '5',
    response_destination: ALICE,
    custom_payload: null,
    forward_payload: boc(forward),
    forward_amount: '10000000',
  });
  assert.deepEqual(
    t.transactions,
    txs.map((tx) => tx.hash),
    "every transaction of the trace but the external's... and that one, which started it",
  );
  assert.deepEqual(new Set(t.accounts), new Set([ALICE, ALICE_JW, BOB_JW, BOB]));
  assert.equal(t.success, true);
  assert.equal(t.startLt, messages[0].createdLt);
  assert.equal(t.endLt, trace.endLt);
  assert.deepEqual(actions[1].details, { opcode: '0x178d4519', source: ALICE_JW, destination: BOB_JW, value: '1000000000' });
});

test('a jetton transfer whose receiving wallet refuses it fails; onto a wallet the index does not know it is contract calls', () => {
  const bounced = buildTrace(ALICE, [
    {
      to: ALICE_JW,
      body: jettonTransferBody({ to: address(BOB), amount: 50n, response: address(ALICE) }),
      then: [
        {
          to: BOB_JW,
          aborted: true,
          body: internalTransfer(50n, ALICE),
          then: [{ to: ALICE_JW, bounce: false, bounced: true, body: beginCell().storeUint(0xffffffff, 32).endCell() }],
        },
      ],
    },
  ]);
  const actions = classifyTrace(bounced.trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => [a.type, a.success]),
    [['jetton_transfer', false]],
    'the bounce back is part of the transfer',
  );
  const unknownWallet = {
    jettonWallets: new Map([[ALICE_JW, contracts.jettonWallets.get(ALICE_JW)!]]),
    nftItems: new Map(),
    multisigOrders: new Map(),
  };
  const calls = classifyTrace(bounced.trace, unknownWallet).actions;
  assert.deepEqual(
    calls.map((a) => a.type),
    ['call_contract', 'call_contract', 'call_contract'],
  );
});

test('a jetton burn and a minter mint (op 0x15)', () => {
  const burn = buildTrace(BOB, [
    {
      to: BOB_JW,
      body: jettonBurnBody({ amount: 100n, response: address(BOB) }),
      then: [{ to: MASTER, body: beginCell().storeUint(JETTON_OP.burnNotification, 32).endCell(), then: [{ to: BOB, body: excess() }] }],
    },
  ]);
  const [b] = classifyTrace(burn.trace, contracts).actions;
  assert.equal(b.type, 'jetton_burn');
  assert.deepEqual(b.details, { owner: BOB, owner_jetton_wallet: BOB_JW, asset: MASTER, amount: '100' });
  assert.equal(b.transactions.length, 4, 'burn, notification, the excess of the master, and the wallet that sent the burn');

  const mint = buildTrace(account(0xad), [
    {
      to: MASTER,
      body: mintBody({ to: address(ALICE), amount: 1000n, tonAmount: 50_000_000n, response: address(account(0xad)) }),
      then: [{ to: ALICE_JW, deploys: true, body: internalTransfer(1000n, MASTER), then: [{ to: account(0xad), body: excess() }] }],
    },
  ]);
  const actions = classifyTrace(mint.trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_mint', 'contract_deploy'],
  );
  assert.deepEqual(actions[0].details, {
    asset: MASTER,
    receiver: ALICE,
    receiver_jetton_wallet: ALICE_JW,
    amount: '1000',
    ton_amount: '50000000',
  });
  assert.equal(actions[0].success, true);
});

test('a mint#642b7d07 whose receiver field is an external address: still a jetton_mint (its ton amount read after it)', () => {
  // Some minters write an addr_extern where the receiver goes; toncenter reads it past (pytoniq's load_address) and names
  // the receiver from the wallet the master minted into.
  const body = beginCell()
    .storeUint(0x642b7d07, 32)
    .storeUint(0, 64)
    .storeUint(1, 2)
    .storeUint(16, 9)
    .storeUint(0xbeef, 16)
    .storeCoins(77_000_000n)
    .endCell();
  const mint = buildTrace(ALICE, [
    {
      to: MASTER,
      body,
      then: [{ to: ALICE_JW, body: internalTransfer(4_853n, MASTER), then: [{ to: ALICE, body: excess() }] }],
    },
  ]);
  const actions = classifyTrace(mint.trace, contracts).actions;
  assert.deepEqual(
    actions.map((a) => a.type),
    ['jetton_mint'],
  );
  assert.deepEqual(actions[0].details, {
    asset: MASTER,
    receiver: ALICE,
    receiver_jetton_wallet: ALICE_JW,
    amount: '4853',
    ton_amount: '77000000',
  });
  assert.equal(actions[0].success, true);
  assert.equal(actions[0].actionId, id(mint.messages[0].hash, 'jetton_mint'));

  // Nothing passed on: the receiver is the body's, and an external one is no account (no mint, as toncenter's build fails).
  const refused = buildTrace(ALICE, [{ to: MASTER, body, aborted: true }]);
  assert.deepEqual(
    classifyTrace(refused.trace, contracts).actions.map((a) => a.type),
    ['call_contract'],
  );
});

test('an NFT mint and an NFT transfer on a known item', () => {
  const deploy = beginCell().storeUint(1, 32).storeUint(0, 64).endCell();
  const mint = buildTrace(ALICE, [
    { to: COLLECTION, body: deploy, then: [{ to: ITEM, deploys: true, body: beginCell().endCell(), value: 50_000_000n }] },
  ]);
  const minted = classifyTrace(mint.trace, contracts).actions;
  assert.deepEqual(
    minted.map((a) => a.type),
    ['call_contract', 'nft_mint', 'contract_deploy'],
  );
  assert.deepEqual(minted[1].details, { owner: COLLECTION, nft_item: ITEM, nft_collection: COLLECTION, nft_item_index: '7' });
  assert.equal(minted[1].actionId, id(mint.messages[1].hash, 'nft_mint'));

  const payload = commentBody('gift');
  const transfer = buildTrace(ALICE, [
    {
      to: ITEM,
      body: nftTransferBody({ newOwner: address(BOB), response: address(ALICE), forwardAmount: 1n, forwardPayload: payload }),
      then: [
        { to: BOB, body: beginCell().storeUint(0x05138d91, 32).storeUint(0, 64).storeAddress(address(ALICE)).storeBit(0).endCell() },
        { to: ALICE, body: excess() },
      ],
    },
  ]);
  const [t] = classifyTrace(transfer.trace, contracts).actions;
  assert.equal(t.type, 'nft_transfer');
  const { marketplace, real_old_owner, marketplace_address, payout_amount, payout_address, payout_comment, ...rest } = t.details;
  assert.deepEqual(
    [marketplace, real_old_owner, marketplace_address, payout_amount, payout_address, payout_comment],
    Array(6).fill(null),
    'no purchase: the sale fields are null',
  );
  assert.deepEqual(rest, {
    nft_collection: COLLECTION,
    nft_item: ITEM,
    nft_item_index: '7',
    old_owner: ALICE,
    new_owner: BOB,
    is_purchase: false,
    query_id: '0',
    response_destination: ALICE,
    custom_payload: null,
    forward_payload: boc(payload),
    forward_amount: '1',
    comment: 'gift',
    is_encrypted_comment: false,
    payout_comment_encrypted: null,
    payout_comment_encoded: null,
    royalty_amount: null,
    royalty_address: null,
  });
  assert.deepEqual(
    Object.keys(t.details).slice(0, 6),
    ['nft_collection', 'nft_item', 'nft_item_index', 'old_owner', 'new_owner', 'is_purchase'],
    "ton-index-go's key order",
  );
  assert.equal(t.transactions.length, 4);
});

test('DNS record changes: a value (change_dns), none (delete_dns), none under key 0 (renew_dns)', () => {
  const change = buildTrace(ALICE, [
    {
      to: ITEM,
      body: changeDnsRecordBody(0xe8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1bn, walletRecord(address(ALICE))),
    },
  ]);
  const [c] = classifyTrace(change.trace, contracts).actions;
  assert.equal(c.type, 'change_dns');
  assert.deepEqual(c.details, {
    key: 'e8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1b',
    value: {
      sum_type: 'DNSSmcAddress',
      dns_smc_address: ALICE,
      dns_adnl_address: null,
      dns_text: null,
      dns_next_resolver_address: null,
      dns_storage_address: null,
      flags: 0,
    },
    source: ALICE,
    asset: ITEM,
    nft_collection: COLLECTION,
  });
  const del = classifyTrace(buildTrace(ALICE, [{ to: ITEM, body: changeDnsRecordBody(1n, null) }]).trace, contracts).actions[0];
  assert.deepEqual(
    [del.type, del.details],
    ['delete_dns', { hash: '0'.repeat(63) + '1', source: ALICE, asset: ITEM, nft_collection: COLLECTION }],
  );
  const renew = classifyTrace(buildTrace(ALICE, [{ to: ITEM, body: changeDnsRecordBody(0n, null) }]).trace, contracts).actions[0];
  assert.deepEqual([renew.type, renew.details], ['renew_dns', { source: ALICE, asset: ITEM, nft_collection: COLLECTION }]);
});

test('a trace nothing describes is one unknown action; a lone tick-tock is none', () => {
  const lonely = buildTrace(ALICE, [], { walletAborted: true });
  const { actions } = classifyTrace(lonely.trace, NO_CONTRACTS);
  assert.deepEqual(
    actions.map((a) => [a.type, a.actionId, a.success, a.transactions, a.accounts, a.details]),
    [['unknown', lonely.trace.traceId, false, [lonely.txs[0].hash], [ALICE], { error: "unsupported action type: 'unknown'" }]],
  );
  assert.equal(actions[0].traceExternalHashNorm, null, 'toncenter leaves it out of unknown actions');
  const tick = { ...lonely.txs[0], tickTock: true, inMsg: null };
  assert.deepEqual(classifyTrace({ ...lonely.trace, transactions: [tick] }, NO_CONTRACTS), { state: 'ok', actions: [] });
});

test('a tick-tock that sends something is a tick_tock action (details {}), id from its transaction', () => {
  const sent = buildTrace(ALICE, [{ to: BOB, body: beginCell().storeUint(0x77, 32).endCell() }]);
  const tick = { ...sent.txs[0], tickTock: true, inMsg: null };
  const { actions } = classifyTrace({ ...sent.trace, transactions: [tick, sent.txs[1]] }, NO_CONTRACTS);
  assert.deepEqual(
    actions.map((a) => [a.type, a.details]),
    [
      ['tick_tock', {}],
      ['call_contract', { opcode: '0x00000077', source: ALICE, destination: BOB, value: '1000000000', extra_currencies: {} }],
    ],
  );
  assert.equal(actions[0].actionId, id(tick.hash, 'tick_tock'));
  assert.deepEqual(actions[0].accounts, [ALICE]);
});

test('a trace whose message leads out of it fails classification and keeps nothing it cannot build', () => {
  const { trace, txs } = buildTrace(ALICE, [{ to: BOB }]);
  const result = classifyTrace({ ...trace, transactions: [txs[0]] }, NO_CONTRACTS);
  assert.equal(result.state, 'failed');
  assert.deepEqual(result.actions, []);
});

test('the same trace always gives the same actions', () => {
  const { trace } = buildTrace(ALICE, [
    { to: ALICE_JW, body: jettonTransferBody({ to: address(BOB), amount: 1n }), then: [{ to: BOB_JW, body: internalTransfer(1n, ALICE) }] },
  ]);
  assert.deepEqual(
    classifyTrace(trace, contracts),
    classifyTrace({ ...trace, transactions: [...trace.transactions].reverse() }, contracts),
  );
});

test('balance changes of a jetton transfer, as ton-index-go computes them: TON net of fees, fees, jettons', () => {
  const { trace } = buildTrace(ALICE, [
    {
      to: ALICE_JW,
      value: 100_000_000n,
      body: jettonTransferBody({ to: address(BOB), amount: 300n, response: address(ALICE) }),
      then: [
        { to: BOB_JW, value: 60_000_000n, body: internalTransfer(300n, ALICE), then: [{ to: ALICE, body: excess(), value: 20_000_000n }] },
      ],
    },
  ]);
  const actions = classifyTrace(trace, contracts).actions.map((a) => ({
    actionId: a.actionId,
    type: a.type,
    transactions: a.transactions,
  }));
  const { trace: total, actions: byAction } = balanceChanges(trace, contracts.jettonWallets, actions);
  // Every transaction's fees (2,000 here) on its account, every forwarding fee (1,000) on the sender.
  assert.deepEqual(Object.fromEntries(total.fees), {
    [ALICE]: 2_000n + 1_000n + 2_000n,
    [ALICE_JW]: 2_000n + 1_000n,
    [BOB_JW]: 2_000n + 1_000n,
  });
  assert.deepEqual(Object.fromEntries(total.value), {
    [ALICE]: -100_000_000n + 20_000_000n,
    [ALICE_JW]: 100_000_000n - 60_000_000n,
    [BOB_JW]: 60_000_000n - 20_000_000n,
  });
  assert.deepEqual(Object.fromEntries([...total.jettons].map(([k, v]) => [k, Object.fromEntries(v)])), {
    [ALICE]: { [MASTER]: -300n },
    [BOB]: { [MASTER]: 300n },
  });
  const text = JSON.parse(balanceChangesText(total));
  assert.equal(text.changes[ALICE], -80_000_000 - 5_000, 'changes: TON net of fees, as JSON numbers');
  assert.deepEqual(Object.keys(text.fees), [...Object.keys(text.fees)].sort(), 'keys sorted, as Go writes maps');
  assert.deepEqual(text.jettons[BOB], { [MASTER]: '300' });
  // The transfer's own changes: every transaction of it (the wallet's took an external: it stays).
  assert.deepEqual(byAction.get(actions.find((a) => a.type === 'jetton_transfer')!.actionId), total);
  assert.equal(balanceChangesText(null), '{"changes":null,"fees":null,"jettons":null}');
});

test("a wallet request that sent nothing: its messages as failed actions (toncenter's ghosts), from a v4 or a v5r1 body", async () => {
  const { WalletContractV4, WalletContractV5R1 } = await import('@ton/ton');
  const { keyPairFromSeed } = await import('@ton/crypto');
  const keys = keyPairFromSeed(Buffer.alloc(32, 7));
  const messages = [
    internal({ to: address(BOB), value: 5_000_000_000n, body: 'hi' }),
    internal({
      to: address(ALICE_JW),
      value: 50_000_000n,
      body: jettonTransferBody({ to: address(BOB), amount: 7n, response: address(ALICE) }),
    }),
  ];
  const ghostId = (payload: Cell, index: number, type: string) =>
    id(Buffer.from(`${payload.hash().toString('base64')}${index}`).toString('base64'), type);
  const wallets = [
    {
      body: WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({
        seqno: 1,
        secretKey: keys.secretKey,
        messages,
      }),
      order: [0, 1],
    },
    // A v5r1 request lists its actions newest first: toncenter numbers them so.
    {
      body: WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({
        seqno: 1,
        secretKey: keys.secretKey,
        messages,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
      }) as Cell,
      order: [1, 0],
    },
  ];
  for (const { body, order } of wallets) {
    const { trace, txs } = buildTrace(ALICE, [], { externalBody: body });
    const { state, actions } = classifyTrace(trace, contracts);
    assert.equal(state, 'ok');
    const byType = new Map(actions.map((a) => [a.type, a]));
    assert.deepEqual([...byType.keys()].sort(), ['jetton_transfer', 'ton_transfer']);
    const ton = byType.get('ton_transfer')!;
    assert.deepEqual(
      [ton.success, ton.details, ton.transactions, ton.accounts],
      [
        false,
        { source: ALICE, destination: BOB, value: '5000000000', value_extra_currencies: {}, comment: 'hi', encrypted: false },
        [txs[0].hash],
        [ALICE],
      ],
    );
    const payload = (i: number) => beginCell().store(storeMessageRelaxed(messages[i])).endCell();
    assert.equal(ton.actionId, ghostId(payload(0), order.indexOf(0), 'ton_transfer'));
    const jetton = byType.get('jetton_transfer')!;
    assert.equal(jetton.success, false);
    assert.deepEqual(
      [
        jetton.details.asset,
        jetton.details.sender,
        jetton.details.sender_jetton_wallet,
        jetton.details.receiver,
        jetton.details.receiver_jetton_wallet,
        jetton.details.amount,
      ],
      [MASTER, ALICE, ALICE_JW, BOB, null, '7'],
    );
    assert.deepEqual(jetton.accounts, [ALICE, ALICE_JW], 'a request names no receiver among its accounts');
    assert.equal(jetton.actionId, ghostId(payload(1), order.indexOf(1), 'jetton_transfer'));
  }
  // A body that is no wallet request, or a request with nothing in it: unknown.
  assert.deepEqual(
    classifyTrace(buildTrace(ALICE, [], { externalBody: beginCell().storeUint(1, 8).endCell() }).trace, contracts).actions.map(
      (a) => a.type,
    ),
    ['unknown'],
  );
});
