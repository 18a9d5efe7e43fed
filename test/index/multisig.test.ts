/**
 * The multisig and vesting detectors without a chain (a runner that answers what the test says): a library-cell
 * code of the official multisig v2 named by its hash, the order cross-check (vouched once, refused, not initialized
 * yet), wrong shapes refused as NotThatContract, and a vesting whitelist's 264-bit keys read back as addresses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, Cell, Dictionary, type TupleItem } from '@ton/core';
import { interfacesOfMethods, tokenMethods } from '../../src/index/tokens/method-ids.js';
import { readMultisig, readMultisigOrder, VouchedOrders } from '../../src/index/multisig/detect.js';
import { whitelistOf } from '../../src/index/vesting/detect.js';
import type { GetMethodRunner } from '../../src/index/tokens/get-methods.js';
import type { TokenAccountCandidate } from '../../src/index/tokens/block-tokens.js';
import { NotThatContract } from '../../src/ton/stack-reader.js';
import type { VmValue } from '../../src/ton/vm-stack.js';
import { addressDict } from '../../src/contracts/multisig/multisig.js';

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
