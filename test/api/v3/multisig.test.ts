/**
 * Multisig v2 and vesting wallets on the local chain, through a real server, on both stores: tongate's own contracts
 * (src/contracts/multisig, src/contracts/vesting) driven by wallets v4 through @ton/ton's TonClient. A multisig with
 * 3 signers, threshold 2 and a proposer: an order created by a signer (its approval included), approved by a second
 * signer (executed: the TON sent), approved late by the third (approve_rejected, 112). /multisig/wallets and
 * /multisig/orders at each step, every filter; the five actions through /api/v3/actions with toncenter's details and
 * the version filter (v1 clients see contract calls). A vesting wallet: deployed, an address whitelisted, a message
 * sent by its owner; /vesting by contract, by owner, by a whitelisted wallet with and without check_whitelist; the
 * 422s. Every answer checked against toncenter's v3 spec and ours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Address, beginCell, contractAddress, internal, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import {
  approveBody,
  approveCommentBody,
  multisigInit,
  newOrderBody,
  orderAddress,
  packOrder,
} from '../../../src/contracts/multisig/multisig.js';
import { addWhitelistBody, vestingInit, vestingSendBody } from '../../../src/contracts/vesting/vesting.js';
import { formatRawUpper } from '../../../src/ton/address.js';
import { testWallet } from '../../chain/local/support/local-chain.js';
import { multisigCode, vestingCode } from '../../contracts/support/code.js';
import { openStore } from '../../index/support/stores.js';
import { sealBlocks, serveIndex } from './support/server.js';
import { transferAndSeal } from './support/wallet-transfer.js';
import { specCheckedGet } from './support/spec.js';

const raw = (a: Address) => formatRawUpper(a);
/** An empty message body as toncenter's body_raw writes it (BoC with CRC32C, base64). */
const emptyCellBoc = beginCell().endCell().toBoc({ idx: false, crc32: true }).toString('base64');
/** The local chain's clock stands still here (serveIndex's ManualClock). */
const NOW = 1_700_000_000;

for (const store of ['sqlite', 'postgres'] as const) {
  test(`/multisig/wallets, /multisig/orders, /vesting and their actions on a local chain [${store}]`, async (t) => {
    const opened = await openStore(t, store);
    if (!opened) return;
    const server = await serveIndex(t, opened.index, 'testnet', true);
    const client = new TonClient({ endpoint: `${server.base}/api/v2/jsonRPC` });
    const get = await specCheckedGet(server);
    const seal = (blocks = 6) => sealBlocks(server, blocks);
    const people = [181, 182, 183, 184, 185, 186, 187, 188].map((seed) => testWallet(seed));
    const [s0, s1, s2, proposer, receiver, vestingSender, vestingOwner, pool] = people;
    const send = transferAndSeal(server);
    // Funding waits for the block that carries it.
    await Promise.all([...people.map((p) => server.chain.fund(p.wallet.address, toNano(50))), seal(1)]);
    await seal(2);

    // --- multisig: deployed
    const code = await multisigCode();
    const params = { threshold: 2, signers: [s0, s1, s2].map((s) => s.wallet.address), proposers: [proposer.wallet.address] };
    const init = multisigInit(code.wallet, params);
    const M = contractAddress(0, init);
    await send(s0, M, toNano(5), undefined, init);
    let wallets = (await get(`/api/v3/multisig/wallets?address=${M.toString()}`)).multisigs as any[];
    assert.equal(wallets.length, 1);
    assert.deepEqual(
      { ...wallets[0], code_hash: undefined, data_hash: undefined, last_transaction_lt: undefined },
      {
        address: raw(M),
        next_order_seqno: '0',
        threshold: 2,
        signers: params.signers.map(raw),
        proposers: [raw(proposer.wallet.address)],
        code_hash: undefined,
        data_hash: undefined,
        last_transaction_lt: undefined,
        orders: [],
      },
    );
    assert.equal(wallets[0].code_hash, code.wallet.hash().toString('base64'));

    // --- an order: 1 TON to the receiver, created by s0 (its approval included)
    const order = packOrder([
      { type: 'transfer', sendMode: 3, message: internal({ to: receiver.wallet.address, value: toNano(1), bounce: false }) },
    ]);
    const O = orderAddress(code.order, M, 0n);
    await send(s0, M, toNano(1), newOrderBody({ order, expirationDate: NOW + 86_400, isSigner: true, index: 0, queryId: 11n }));
    let orders = (await get(`/api/v3/multisig/orders?multisig_address=${raw(M)}`)).orders as any[];
    assert.equal(orders.length, 1);
    const expectedOrder = {
      address: raw(O),
      multisig_address: raw(M),
      order_seqno: '0',
      threshold: 2,
      sent_for_execution: false,
      approvals_mask: '1',
      approvals_num: 1,
      expiration_date: NOW + 86_400,
      order_boc: order.toBoc().toString('base64'),
      signers: params.signers.map(raw),
      actions: null,
    };
    assert.deepEqual(
      { ...orders[0], last_transaction_lt: undefined, code_hash: undefined, data_hash: undefined },
      {
        ...expectedOrder,
        last_transaction_lt: undefined,
        code_hash: undefined,
        data_hash: undefined,
      },
    );
    wallets = (await get(`/api/v3/multisig/wallets?wallet_address=${s1.wallet.address.toString()}`)).multisigs as any[];
    assert.deepEqual(
      wallets.map((w) => [w.address, w.next_order_seqno, w.orders.map((o: any) => o.address)]),
      [[raw(M), '1', [raw(O)]]],
      'found by a signer, with its order',
    );
    assert.equal(((await get(`/api/v3/multisig/wallets?wallet_address=${raw(proposer.wallet.address)}`)).multisigs as any[]).length, 1);
    assert.equal(((await get(`/api/v3/multisig/wallets?wallet_address=${raw(receiver.wallet.address)}`)).multisigs as any[]).length, 0);
    const noOrders = (await get(`/api/v3/multisig/wallets?address=${raw(M)}&include_orders=false`)).multisigs as any[];
    assert.equal(noOrders[0].orders, null, 'include_orders=false: null, as toncenter');
    assert.ok((await get(`/api/v3/multisig/orders?address=${raw(O)}`)).address_book[raw(O)], 'the order in the address book');
    // parse_actions: the order's one action read, toncenter's OrderAction; its destination in the address book
    const parsedOrder = await get(`/api/v3/multisig/orders?address=${raw(O)}&parse_actions=true`);
    assert.deepEqual(parsedOrder.orders[0].actions, [
      {
        destination: raw(receiver.wallet.address),
        value: toNano(1).toString(),
        body_raw: emptyCellBoc,
        parsed: true,
        error: null,
        parsed_body: { comment: '', encrypted: false },
        parsed_body_type: 'ton_transfer',
        send_mode: 3,
      },
    ]);
    assert.ok(parsedOrder.address_book[raw(receiver.wallet.address)], "the action's destination in the address book");
    assert.equal((await get(`/api/v3/multisig/orders?address=${raw(O)}&parse_actions=false`)).orders[0].actions, null);

    const created = (await get(`/api/v3/actions?account=${raw(M)}&action_type=multisig_create_order&include_accounts=true`))
      .actions as any[];
    assert.equal(created.length, 1);
    assert.equal(created[0].success, true);
    assert.deepEqual(created[0].details, {
      query_id: '11',
      order_seqno: ((1n << 256n) - 1n).toString(),
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: NOW + 86_400,
      order_boc: order.toBoc({ idx: false, crc32: false }).toString('base64'), // as toncenter writes it: no CRC
      source: raw(s0.wallet.address),
      destination: raw(M),
      destination_order: raw(O),
    });
    for (const account of params.signers) assert.ok(created[0].accounts.includes(raw(account)), 'the signers among its accounts');

    // --- s1 approves: the order executes
    const before = await client.getBalance(receiver.wallet.address);
    await send(s1, O, toNano('0.1'), approveBody(1, 12n));
    assert.equal((await client.getBalance(receiver.wallet.address)) - before, toNano(1), 'executed');
    orders = (await get(`/api/v3/multisig/orders?address=${raw(O)}`)).orders as any[];
    assert.deepEqual([orders[0].approvals_num, orders[0].approvals_mask, orders[0].sent_for_execution], [2, '3', true]);
    const approvals = (await get(`/api/v3/actions?account=${raw(O)}&action_type=multisig_approve`)).actions as any[];
    assert.deepEqual(
      approvals.map((a) => [a.success, a.details]),
      [[true, { signer_index: 1, exit_code: 0, source: raw(s1.wallet.address), destination: raw(O) }]],
    );
    const executed = (await get(`/api/v3/actions?account=${raw(M)}&action_type=multisig_execute`)).actions as any[];
    assert.equal(executed.length, 1);
    assert.equal(executed[0].success, true);
    assert.equal(executed[0].trace_id, approvals[0].trace_id, 'the approval and the execution are one trace');
    assert.deepEqual(
      { ...executed[0].details, signers_hash: undefined },
      {
        query_id: '12',
        order_seqno: '0',
        expiration_date: NOW + 86_400,
        approvals_num: 2,
        signers_hash: undefined,
        order_boc: order.toBoc({ idx: false, crc32: false }).toString('base64'), // as toncenter writes it: no CRC
        source: raw(O),
        destination: raw(M),
      },
    );
    assert.equal(Buffer.from(executed[0].details.signers_hash, 'base64').length, 32);

    // --- s2 approves late, by comment: approve_rejected with already_executed (112), a failed action
    await send(s2, O, toNano('0.1'), approveCommentBody());
    const late = ((await get(`/api/v3/actions?account=${raw(s2.wallet.address)}&action_type=multisig_approve`)).actions as any[])[0];
    assert.deepEqual([late.success, late.details.signer_index, late.details.exit_code], [false, -1, 112]);

    // --- the version filter: multisig types came with v2; a v1 client sees the contract calls
    const v1 = (await get(`/api/v3/actions?account=${raw(M)}&limit=100&supported_action_types=v1`)).actions as any[];
    assert.ok(v1.length > 0 && v1.every((a) => !a.type.startsWith('multisig_')), 'no multisig type for v1');
    const v2 = (await get(`/api/v3/actions?account=${raw(M)}&limit=100&supported_action_types=v2`)).actions as any[];
    assert.ok(v2.some((a) => a.type === 'multisig_create_order') && v2.some((a) => a.type === 'multisig_execute'));

    // --- a proposer's order (seqno 1, not approved): a transfer with a comment and an update of the parameters, parsed
    const secondOrder = packOrder([
      {
        type: 'transfer',
        sendMode: 1,
        message: internal({ to: receiver.wallet.address, value: toNano('0.5'), body: 'rent', bounce: true }),
      },
      { type: 'update', threshold: 3, signers: params.signers, proposers: [] },
    ]);
    await send(proposer, M, toNano(1), newOrderBody({ order: secondOrder, expirationDate: NOW + 3_600, isSigner: false, index: 0 }));
    const O1 = orderAddress(code.order, M, 1n);
    const second = (await get(`/api/v3/multisig/orders?address=${raw(O1)}&parse_actions=true`)).orders as any[];
    assert.equal(second.length, 1, 'the proposed order detected');
    assert.deepEqual(second[0].actions, [
      {
        destination: raw(receiver.wallet.address),
        value: toNano('0.5').toString(),
        body_raw: beginCell().storeUint(0, 32).storeStringTail('rent').endCell().toBoc({ idx: false, crc32: true }).toString('base64'),
        parsed: true,
        error: null,
        parsed_body: { comment: 'rent', encrypted: false },
        parsed_body_type: 'ton_transfer',
        send_mode: 1,
      },
      {
        destination: null,
        value: null,
        body_raw: null,
        parsed: true,
        error: null,
        parsed_body: { new_threshold: 3, new_signers: params.signers.map(raw), new_proposers: null },
        parsed_body_type: 'multisig_update_params',
        send_mode: 0,
      },
    ]);
    const both = (await get(`/api/v3/multisig/orders?multisig_address=${raw(M)}&parse_actions=true&sort=asc`)).orders as any[];
    assert.deepEqual(
      both.map((o) => [o.order_seqno, o.actions.length]),
      [
        ['0', 1],
        ['1', 2],
      ],
      'every order of the page parsed',
    );

    // --- vesting: deployed by its sender, a pool whitelisted, a message sent by the owner
    const vesting = {
      subwalletId: 3,
      publicKey: vestingOwner.keys.publicKey,
      startTime: NOW - 100,
      totalDuration: 1000,
      unlockPeriod: 100,
      cliffDuration: 200,
      totalAmount: toNano(10),
      sender: vestingSender.wallet.address,
      owner: vestingOwner.wallet.address,
    };
    const vInit = vestingInit(await vestingCode(), vesting);
    const V = contractAddress(0, vInit);
    await send(vestingSender, V, toNano(12), undefined, vInit);
    const vestingRow = {
      address: raw(V),
      start_time: NOW - 100,
      total_duration: 1000,
      unlock_period: 100,
      cliff_duration: 200,
      sender_address: raw(vestingSender.wallet.address),
      owner_address: raw(vestingOwner.wallet.address),
      total_amount: toNano(10).toString(),
      whitelist: [] as string[],
    };
    assert.deepEqual((await get(`/api/v3/vesting?contract_address=${V.toString()}`)).vesting_contracts, [vestingRow]);
    await send(vestingSender, V, toNano('0.1'), addWhitelistBody([pool.wallet.address], 21n));
    vestingRow.whitelist = [raw(pool.wallet.address)];
    assert.deepEqual((await get(`/api/v3/vesting?wallet_address=${raw(vestingOwner.wallet.address)}`)).vesting_contracts, [vestingRow]);
    assert.deepEqual((await get(`/api/v3/vesting?wallet_address=${raw(vestingSender.wallet.address)}`)).vesting_contracts, [vestingRow]);
    assert.deepEqual(
      (await get(`/api/v3/vesting?wallet_address=${raw(pool.wallet.address)}`)).vesting_contracts,
      [],
      'whitelisted, not asked',
    );
    assert.deepEqual((await get(`/api/v3/vesting?wallet_address=${raw(pool.wallet.address)}&check_whitelist=true`)).vesting_contracts, [
      vestingRow,
    ]);
    const message = internal({ to: pool.wallet.address, value: toNano(2), bounce: true });
    await send(vestingOwner, V, toNano('0.1'), vestingSendBody(message, 3, 22n));

    const added = (await get(`/api/v3/actions?account=${raw(V)}&action_type=vesting_add_whitelist`)).actions as any[];
    assert.deepEqual(
      added.map((a) => [a.success, a.details]),
      [[true, { query_id: '21', accounts_added: [raw(pool.wallet.address)], source: raw(vestingSender.wallet.address), vesting: raw(V) }]],
    );
    const sent = (await get(`/api/v3/actions?account=${raw(V)}&action_type=vesting_send_message&include_accounts=true`)).actions as any[];
    assert.equal(sent.length, 1);
    assert.equal(sent[0].success, true);
    assert.deepEqual(
      { ...sent[0].details, message_boc: undefined },
      {
        query_id: '22',
        message_boc: undefined,
        source: raw(vestingOwner.wallet.address),
        vesting: raw(V),
        destination: raw(pool.wallet.address),
        amount: toNano(2).toString(),
      },
    );
    assert.ok(sent[0].details.message_boc.startsWith('te6ccg'), 'the message as a BoC without index or CRC, as toncenter writes it');
    assert.ok(sent[0].accounts.includes(raw(pool.wallet.address)), "the message's destination among the accounts");

    // --- bad input
    const bad = async (path: string, words: string) => {
      const reply = await server.get(path);
      assert.equal(reply.status, 422, path);
      assert.match(JSON.stringify(reply.body), new RegExp(words), path);
    };
    await bad('/api/v3/vesting', 'at least one of contract_address or wallet_address is required');
    await bad(
      `/api/v3/vesting?contract_address=${raw(V)}&wallet_address=${raw(pool.wallet.address)}`,
      'only one of contract_address or wallet_address',
    );
    await bad('/api/v3/multisig/wallets?address=nope', 'address');
    await bad('/api/v3/multisig/orders?sort=sideways', 'sort');
  });
}
