/**
 * Calling get-methods on the chain from inside a v2 method (getTokenData, dnsResolve), with typed reads
 * of the answer. A contract that lacks the method, fails it or answers the wrong shape is "not that kind
 * of contract": the readers return null / throw NotThatContract, and the caller decides what to answer.
 */
import { Address, type Cell, type TupleItem } from '@ton/core';
import { parseVmStack, type VmValue } from '../../../ton/vm-stack.js';
import type { NetworkContext } from '../../network-context.js';
import { runGetMethodAt } from '../get-method-cache.js';

/** The answer of a contract does not fit the interface it was asked about. */
export class NotThatContract extends Error {}

/** The result stack (bottom first) of a successful call, or null for a non-zero exit code. */
export async function callGetMethod(
  network: NetworkContext,
  address: Address,
  method: string,
  args: TupleItem[] = [],
  seqno?: number,
): Promise<VmValue[] | null> {
  const result = await runGetMethodAt(network.chain, address, method, args, seqno);
  return result.exitCode === 0 || result.exitCode === 1 ? parseVmStack(result.stackBoc) : null;
}

/** Typed access to a result stack, each read naming what it expected. */
export class StackReader {
  constructor(
    private readonly values: VmValue[],
    private readonly what: string,
  ) {
    if (values.length === 0) throw new NotThatContract(`${what}: empty result`);
  }

  private at(index: number): VmValue {
    const value = this.values[index];
    if (!value) throw new NotThatContract(`${this.what}: no value at ${index}`);
    return value;
  }

  int(index: number): bigint {
    const value = this.at(index);
    if (value.type !== 'int') throw new NotThatContract(`${this.what}: expected an integer at ${index}, got ${value.type}`);
    return value.value;
  }

  cell(index: number): Cell {
    const value = this.at(index);
    if (value.type !== 'cell' && value.type !== 'slice') throw new NotThatContract(`${this.what}: expected a cell at ${index}, got ${value.type}`);
    return value.cell;
  }

  /** An address in a slice (MsgAddress); null for addr_none. */
  address(index: number): Address | null {
    const cs = this.cell(index).beginParse();
    try {
      const address = cs.loadAddressAny();
      if (address === null) return null;
      if (!Address.isAddress(address)) throw new Error('an external address');
      return address;
    } catch (error) {
      throw new NotThatContract(`${this.what}: expected an address at ${index} (${(error as Error).message})`);
    }
  }
}
