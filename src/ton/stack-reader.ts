/**
 * Typed reads of a get-method's result stack (ton/vm-stack.ts values), each naming what it expected.
 * A contract that answers the wrong shape is "not that kind of contract" (NotThatContract): the caller
 * decides what that means (v2 getTokenData answers null, the token index does not record it).
 */
import { Address, type Cell } from '@ton/core';
import type { VmValue } from './vm-stack.js';

/** The answer of a contract does not fit the interface it was asked about. */
export class NotThatContract extends Error {}

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
    if (value.type !== 'cell' && value.type !== 'slice')
      throw new NotThatContract(`${this.what}: expected a cell at ${index}, got ${value.type}`);
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
