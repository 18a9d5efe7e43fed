/**
 * Multisig v2 wallets and orders, detected as toncenter's indexer does (smc-interfaces/Multisig.cpp):
 *   wallet  get_multisig_data -> (int next_order_seqno, int threshold, cell|null signers, cell|null proposers),
 *           signers and proposers dictionaries keyed by uint8 with MsgAddressInt values
 *   order   get_order_data -> (slice multisig, int order_seqno, int threshold, int sent_for_execution, cell signers,
 *           int approvals_mask, int approvals_num, int expiration_date, cell order); the multisig's
 *           get_order_address(int order_seqno) must be this order
 * An answer of the wrong shape throws NotThatContract (remembered by code hash, tokens/contracts.ts); an order not
 * initialized yet (nulls) or one its multisig does not vouch for is a matter of data: null, not cached.
 */
import { Dictionary, type Cell } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { VmValue } from '../../ton/vm-stack.js';
import type { TokenAccountCandidate } from '../tokens/block-tokens.js';
import type { GetMethodRunner } from '../tokens/get-methods.js';
import type { MultisigOrderRow, MultisigRow } from './rows.js';

/** Raw addresses of a uint8-keyed address dictionary, in key order (none for a null). */
export function addressList(cell: Cell | null, what: string): string[] {
  if (!cell) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
    return [...dict.keys()].sort((a, b) => a - b).map((key) => formatRawUpper(dict.get(key)!));
  } catch (error) {
    throw new NotThatContract(`${what}: not an address dictionary (${(error as Error).message})`);
  }
}

const optionalCell = (values: VmValue[], s: StackReader, index: number): Cell | null =>
  values[index]?.type === 'null' ? null : s.cell(index);

function small(value: bigint, bits: number, what: string): number {
  if (value < 0n || value >= 1n << BigInt(bits)) throw new NotThatContract(`${what}: out of range`);
  return Number(value);
}

export async function readMultisig(runner: GetMethodRunner, c: TokenAccountCandidate, seqno: number): Promise<MultisigRow> {
  const values = await runner.run(c.account, 'get_multisig_data', [], seqno);
  if (values === null) throw new NotThatContract('get_multisig_data failed');
  const s = new StackReader(values, 'get_multisig_data');
  const nextOrderSeqno = s.int(0);
  if (nextOrderSeqno < -1n || nextOrderSeqno >= 1n << 256n) throw new NotThatContract('get_multisig_data: next_order_seqno out of range');
  return {
    address: c.account,
    nextOrderSeqno,
    threshold: small(s.int(1), 8, 'get_multisig_data threshold'),
    signers: addressList(optionalCell(values, s, 2), 'get_multisig_data signers'),
    proposers: addressList(optionalCell(values, s, 3), 'get_multisig_data proposers'),
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
}

/** Orders whose multisig vouched for them, by the facts it was asked (multisig|seqno): asked once per order. */
export class VouchedOrders {
  private readonly entries = new Map<string, string>();
  constructor(private readonly capacity = 100_000) {}
  has(order: string, facts: string): boolean {
    return this.entries.get(order) === facts;
  }
  add(order: string, facts: string): void {
    this.entries.delete(order);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(order, facts);
  }
}

export async function readMultisigOrder(
  runner: GetMethodRunner,
  c: TokenAccountCandidate,
  seqno: number,
  vouched: VouchedOrders,
): Promise<MultisigOrderRow | null> {
  const values = await runner.run(c.account, 'get_order_data', [], seqno);
  if (values === null) throw new NotThatContract('get_order_data failed');
  const s = new StackReader(values, 'get_order_data');
  const multisig = s.address(0);
  if (!multisig) throw new NotThatContract('get_order_data: no multisig');
  const orderSeqno = s.int(1);
  if (orderSeqno < 0n || orderSeqno >= 1n << 256n) throw new NotThatContract('get_order_data: order_seqno out of range');
  // Not initialized yet: the multisig's init has not arrived (toncenter's detector fails on these nulls too).
  if (values[2]?.type === 'null') return null;
  const row: MultisigOrderRow = {
    address: c.account,
    multisig: formatRawUpper(multisig),
    orderSeqno,
    threshold: small(s.int(2), 8, 'get_order_data threshold'),
    sentForExecution: s.int(3) !== 0n,
    signers: addressList(s.cell(4), 'get_order_data signers'),
    approvalsMask: s.int(5),
    approvalsNum: small(s.int(6), 8, 'get_order_data approvals_num'),
    expirationDate: BigInt(small(s.int(7), 48, 'get_order_data expiration_date')),
    orderBoc: s.cell(8).toBoc().toString('base64'),
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
  const facts = `${row.multisig}|${orderSeqno}`;
  if (!vouched.has(c.account, facts)) {
    const answer = await runner.run(row.multisig, 'get_order_address', [{ type: 'int', value: orderSeqno }], seqno);
    if (vouchedAddress(answer) !== c.account) return null;
    vouched.add(c.account, facts);
  }
  return row;
}

/** The address a wallet's get_order_address answered; null when it did not answer one. */
function vouchedAddress(answer: VmValue[] | null): string | null {
  try {
    const address = answer && answer.length > 0 ? new StackReader(answer, 'get_order_address').address(0) : null;
    return address ? formatRawUpper(address) : null;
  } catch {
    return null;
  }
}
