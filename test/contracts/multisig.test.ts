/**
 * tongate's multisig v2 wallet and orders (src/contracts/multisig) on a real local chain, driven by wallets v4
 * through TonClient: 3 signers and a proposer, threshold 2; an order created by a signer (its approval included),
 * approved by a second signer, executed (the TON sent); the refusals (a stranger's order, a second approval by the
 * same signer, an approval of an executed order answered approve_rejected); get_multisig_data and get_order_data at
 * each step, and get_order_address against the address computed here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Dictionary, internal, toNano, type Cell, type TupleReader } from '@ton/core';
import type { TonClient } from '@ton/ton';
import {
  approveBody,
  approveCommentBody,
  MULTISIG_OP,
  multisigInit,
  newOrderBody,
  orderAddress,
  packOrder,
} from '../../src/contracts/multisig/multisig.js';
import { contractAddress } from '@ton/core';
import { multisigCode } from './support/code.js';
import { inboundOp, outcome, startContractsChain, transactionsOf } from './support/contracts-chain.js';

const addresses = (cell: Cell | null): string[] =>
  cell
    ? Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell)
        .values()
        .map((a) => a.toRawString())
    : [];

async function orderData(client: TonClient, order: Address) {
  const { stack } = await client.runMethod(order, 'get_order_data');
  const s: TupleReader = stack;
  return {
    multisig: s.readAddress().toRawString(),
    seqno: s.readBigNumber(),
    threshold: s.readNumberOpt(),
    sent: s.readBooleanOpt(),
    signers: addresses(s.readCellOpt()),
    mask: s.readBigNumberOpt(),
    approvals: s.readNumberOpt(),
    expiration: s.readNumberOpt(),
    order: s.readCellOpt(),
  };
}

test('multisig v2: create, approve and execute an order; the refusals', async (t) => {
  const env = await startContractsChain(t);
  const { client } = env;
  const code = await multisigCode();
  const [s0, s1, s2, proposer, stranger, receiver] = await Promise.all([161, 162, 163, 164, 165, 166].map((seed) => env.actor(seed)));
  const params = { threshold: 2, signers: [s0.address, s1.address, s2.address], proposers: [proposer.address] };
  const init = multisigInit(code.wallet, params);
  const multisig = contractAddress(0, init);
  await s0.send(multisig, toNano(5), undefined, init);

  const { stack } = await client.runMethod(multisig, 'get_multisig_data');
  assert.equal(stack.readBigNumber(), 0n, 'next_order_seqno');
  assert.equal(stack.readNumber(), 2, 'threshold');
  assert.deepEqual(
    addresses(stack.readCellOpt()),
    params.signers.map((a) => a.toRawString()),
  );
  assert.deepEqual(addresses(stack.readCellOpt()), [proposer.address.toRawString()]);

  const order0 = orderAddress(code.order, multisig, 0n);
  const viaGetter = (await client.runMethod(multisig, 'get_order_address', [{ type: 'int', value: 0n }])).stack.readAddress();
  assert.ok(viaGetter.equals(order0), 'get_order_address');

  const now = Math.floor(env.clock.now() / 1000);
  const order = packOrder([
    { type: 'transfer', sendMode: 3, message: internal({ to: receiver.address, value: toNano(1), bounce: false }) },
  ]);
  // A stranger may not propose.
  await stranger.send(multisig, toNano(1), newOrderBody({ order, expirationDate: now + 3600, isSigner: true, index: 0 }));
  assert.equal(outcome((await transactionsOf(client, multisig, 1))[0]).exitCode, 1007, 'unauthorized_new_order');

  await s0.send(multisig, toNano(1), newOrderBody({ order, expirationDate: now + 3600, isSigner: true, index: 0, queryId: 7n }));
  let data = await orderData(client, order0);
  assert.deepEqual(
    [data.multisig, data.seqno, data.threshold, data.sent, data.mask, data.approvals, data.expiration],
    [multisig.toRawString(), 0n, 2, false, 1n, 1, now + 3600],
    'created with its creator approval',
  );
  assert.deepEqual(
    data.signers,
    params.signers.map((a) => a.toRawString()),
  );
  assert.ok(data.order!.equals(order));

  // s0 approving again is answered approve_rejected (107), nothing changes.
  await s0.send(order0, toNano('0.1'), approveBody(0));
  const rejected = (await transactionsOf(client, s0.address, 1))[0];
  assert.equal(inboundOp(rejected), MULTISIG_OP.approveRejected);
  assert.equal((await orderData(client, order0)).approvals, 1);

  const before = (await client.getBalance(receiver.address)) as bigint;
  await s2.send(order0, toNano('0.1'), approveCommentBody());
  data = await orderData(client, order0);
  assert.deepEqual([data.sent, data.mask, data.approvals], [true, 5n, 2], 'approved by s2 through the comment, sent');
  assert.equal((await client.getBalance(receiver.address)) - before, toNano(1), 'the order executed');
  assert.equal(
    (await transactionsOf(client, s2.address, 1))[0] && inboundOp((await transactionsOf(client, s2.address, 1))[0]),
    MULTISIG_OP.approveAccepted,
  );
  const next = (await client.runMethod(multisig, 'get_multisig_data')).stack.readBigNumber();
  assert.equal(next, 1n, 'next_order_seqno moved on');

  // An approval after execution: approve_rejected with already_executed (112).
  await s1.send(order0, toNano('0.1'), approveBody(1));
  const late = (await transactionsOf(client, s1.address, 1))[0];
  assert.equal(inboundOp(late), MULTISIG_OP.approveRejected);
  const body = late.inMessage!.body.beginParse();
  body.skip(32 + 64);
  assert.equal(body.loadUint(32), 112);

  // A proposer's order carries no approval.
  await proposer.send(multisig, toNano(1), newOrderBody({ order, expirationDate: now + 3600, isSigner: false, index: 0 }));
  data = await orderData(client, orderAddress(code.order, multisig, 1n));
  assert.deepEqual([data.seqno, data.approvals, data.sent], [1n, 0, false]);
});
