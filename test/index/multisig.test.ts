/**
 * The multisig and vesting detectors without a chain (a runner that answers what the test says): a library-cell
 * code of the official multisig v2 named by its hash, the order cross-check (vouched once, refused, not initialized
 * yet), wrong shapes refused as NotThatContract, a vesting whitelist's 264-bit keys read back as addresses, and an
 * order's actions read as toncenter's parse_actions writes them (bodies by opcode, an action or an order that does not read).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, Dictionary, internal, type TupleItem } from '@ton/core';
import { interfacesOfMethods, tokenMethods } from '../../src/index/tokens/method-ids.js';
import { readMultisig, readMultisigOrder, VouchedOrders } from '../../src/index/multisig/detect.js';
import { whitelistOf } from '../../src/index/vesting/detect.js';
import type { GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import type { TokenAccountCandidate } from '../../src/index/tokens/block-tokens.js';
import { NotThatContract } from '../../src/ton/stack-reader.js';
import type { VmValue } from '../../src/ton/vm-stack.js';
import { addressDict, packOrder } from '../../src/contracts/multisig/multisig.js';
import { actionAddresses, orderActions } from '../../src/index/multisig/order-actions.js';

const A = (n: number) => new Address(0, Buffer.alloc(32, n));
const raw = (n: number) => `0:${Buffer.alloc(32, n).toString('hex').toUpperCase()}`;
const slice = (a: Address | null): VmValue => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });
const int = (v: bigint | number): VmValue => ({ type: 'int', value: BigInt(v) });
const cell = (c: Cell): VmValue => ({ type: 'cell', cell: c });
const candidate = (account: string): TokenAccountCandidate => ({
  account,
  codeHash: Buffer.alloc(32, 9),
  dataHash: Buffer.alloc(32, 8),
  lastTxLt: 77n,
  methods: [],
});

/** A runner answering by `address method`; counts the calls. */
function runner(answers: Record<string, VmValue[] | null>): GetMethodRunner & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async run(address: string, method: string, _stack: TupleItem[]) {
      calls.push(`${address} ${method}`);
      return answers[`${address} ${method}`] ?? null;
    },
  };
}

test('known code: a library cell naming the official multisig v2 code has its methods', () => {
  const library = (hex: string) =>
    new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.from(hex, 'hex')).endCell().bits });
  const multisig = library('D3D14DA9A627F0EC3533341829762AF92B9540B21BF03665FAC09C2B46EABBAC');
  assert.deepEqual(tokenMethods(multisig), ['get_multisig_data', 'get_order_address']);
  assert.deepEqual(interfacesOfMethods(tokenMethods(multisig)), ['multisig_v2']);
  assert.deepEqual(interfacesOfMethods(tokenMethods(library('A01E057FBD4288402B9898D78D67BD4E90254C93C5866879BC2D1D12865436BC'))), [
    'multisig_order_v2',
  ]);
  assert.deepEqual(tokenMethods(library('00'.repeat(32))), [], 'another library: nothing known');
});

test('multisig: the wallet read; an order vouched for once, refused, or not initialized yet', async () => {
  const signers = beginCell()
    .storeDictDirect(addressDict([A(1), A(2), A(3)]))
    .endCell();
  const M = raw(5);
  const O = raw(6);
  const wallet = await readMultisig(
    runner({ [`${M} get_multisig_data`]: [int(4), int(2), cell(signers), { type: 'null' }] }),
    candidate(M),
    10,
  );
  assert.deepEqual([wallet.nextOrderSeqno, wallet.threshold, wallet.signers, wallet.proposers], [4n, 2, [raw(1), raw(2), raw(3)], []]);
  await assert.rejects(readMultisig(runner({ [`${M} get_multisig_data`]: [int(4)] }), candidate(M), 10), NotThatContract);

  const orderData = [
    slice(new Address(0, Buffer.alloc(32, 5))),
    int(3),
    int(2),
    int(0),
    cell(signers),
    int(1),
    int(1),
    int(1_800_000_000),
    cell(signers),
  ];
  const good = runner({ [`${O} get_order_data`]: orderData, [`${M} get_order_address`]: [slice(new Address(0, Buffer.alloc(32, 6)))] });
  const vouched = new VouchedOrders();
  const row = await readMultisigOrder(good, candidate(O), 10, vouched);
  assert.deepEqual([row?.multisig, row?.orderSeqno, row?.approvalsNum, row?.signers], [M, 3n, 1, [raw(1), raw(2), raw(3)]]);
  await readMultisigOrder(good, candidate(O), 11, vouched);
  assert.equal(good.calls.filter((c) => c.endsWith('get_order_address')).length, 1, 'vouched once');
  const stranger = runner({ [`${O} get_order_data`]: orderData, [`${M} get_order_address`]: [slice(A(7))] });
  assert.equal(await readMultisigOrder(stranger, candidate(O), 10, new VouchedOrders()), null, 'its wallet names another order');
  const uninit = runner({ [`${O} get_order_data`]: [orderData[0], int(3), { type: 'null' }, { type: 'null' }] });
  assert.equal(await readMultisigOrder(uninit, candidate(O), 10, new VouchedOrders()), null, 'not initialized yet');
});

test('vesting: whitelist keys (workchain int8, hash) read back as raw addresses', () => {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(264), Dictionary.Values.Bool());
  dict.set((BigInt.asUintN(8, -1n) << 256n) | BigInt(`0x${'AB'.repeat(32)}`), true);
  dict.set(BigInt(`0x${'01'.repeat(32)}`), true);
  assert.deepEqual(whitelistOf(beginCell().storeDictDirect(dict).endCell()), [`-1:${'AB'.repeat(32)}`, `0:${'01'.repeat(32)}`]);
  assert.deepEqual(whitelistOf(null), []);
});

test('order actions: message bodies read as toncenter names them; an action that does not read; an order that is not one', () => {
  const to = A(7);
  const transfer = (body: Cell, mode = 3) =>
    ({ type: 'transfer', sendMode: mode, message: internal({ to, value: 5n, body, bounce: true }) }) as const;
  const forward = beginCell().storeUint(0, 32).storeStringTail('thanks').endCell();
  const jetton = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(9, 64)
    .storeCoins(1000n)
    .storeAddress(A(8))
    .storeAddress(A(9))
    .storeMaybeRef(null)
    .storeCoins(1n)
    .storeBit(1)
    .storeRef(forward)
    .endCell();
  const nft = beginCell()
    .storeUint(0x5fcc3d14, 32)
    .storeUint(4, 64)
    .storeAddress(A(8))
    .storeAddress(null)
    .storeMaybeRef(null)
    .storeCoins(0n)
    .storeBit(0)
    .endCell();
  const other = beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 8).endCell();
  const broken = beginCell().storeUint(0x595f07bc, 32).storeUint(1, 8).endCell();
  const order = packOrder([
    transfer(jetton),
    transfer(nft, 1),
    transfer(other),
    transfer(broken),
    { type: 'update', threshold: 2, signers: [A(1), A(2)], proposers: [A(3)] },
  ]);
  const actions = orderActions(order.toBoc().toString('base64'))!;
  const boc64 = (c: Cell) => c.toBoc({ idx: false, crc32: true }).toString('base64');
  assert.equal(actions.length, 5);
  assert.deepEqual(actions[0], {
    destination: raw(7),
    value: '5',
    body_raw: boc64(jetton),
    parsed: true,
    error: null,
    parsed_body: {
      query_id: 9,
      amount: '1000',
      destination: raw(8),
      response: raw(9),
      custom_payload: null,
      forward_amount: '1',
      forward_payload: boc64(forward),
      comment: 'thanks',
      encrypted_comment: false,
      payload_sum_type: 'TextComment',
      stonfi_swap_body: null,
    },
    parsed_body_type: 'jetton_transfer',
    send_mode: 3,
  });
  assert.deepEqual(
    [actions[1].parsed_body_type, actions[1].send_mode, actions[1].parsed_body!.new_owner, actions[1].parsed_body!.response_destination],
    ['nft_transfer', 1, raw(8), null],
  );
  assert.deepEqual([actions[2].parsed_body_type, actions[2].parsed_body], ['unknown', { opcode: 0xdeadbeef, data: boc64(other) }]);
  assert.deepEqual([actions[3].parsed_body_type, actions[3].parsed_body!.opcode], ['unknown', 0x595f07bc], 'a burn that does not read');
  assert.deepEqual(actions[4].parsed_body, { new_threshold: 2, new_signers: [raw(1), raw(2)], new_proposers: [raw(3)] });
  assert.deepEqual(
    actionAddresses(actions).sort(),
    [raw(1), raw(2), raw(3), raw(7), raw(7), raw(7), raw(7), raw(8), raw(8), raw(9)].sort(),
  );

  const strange = beginCell()
    .storeDictDirect(
      Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell()).set(0, beginCell().storeUint(0x12345678, 32).endCell()),
    )
    .endCell();
  assert.deepEqual(orderActions(strange.toBoc().toString('base64')), [
    {
      destination: null,
      value: null,
      body_raw: null,
      parsed: false,
      error: `failed to parse order action: unknown order action type: ${0x12345678}`,
      parsed_body: null,
      parsed_body_type: 'unknown',
      send_mode: 0,
    },
  ]);
  assert.equal(orderActions(beginCell().storeUint(1, 3).endCell().toBoc().toString('base64')), null, 'not a dictionary');
});
