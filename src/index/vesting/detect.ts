/**
 * Vesting wallets, detected by their get-method as toncenter's indexer reads them (smc-interfaces/Vesting.cpp):
 *   get_vesting_data -> (int vesting_start_time, int vesting_total_duration, int unlock_period, int cliff_duration,
 *                        int vesting_total_amount, slice vesting_sender_address, slice owner_address,
 *                        cell|null whitelist)   whitelist: HashmapE 264 (workchain:int8 hash:uint256) -> anything
 * toncenter also requires the standard contract's code hash (known-code.ts); here any code that answers this shape
 * is a vesting wallet (tongate's own, src/contracts/vesting, among them), as the token detectors decide by answers.
 */
import { Dictionary, type Cell } from '@ton/core';
import { formatRawUpper } from '../../ton/address.js';
import { NotThatContract, StackReader } from '../../ton/stack-reader.js';
import type { TokenAccountCandidate } from '../tokens/block-tokens.js';
import type { GetMethodRunner } from '../tokens/get-methods.js';
import type { VestingRow } from './rows.js';

const IGNORED = { serialize: () => {}, parse: () => null };

/** The whitelist's addresses, raw uppercase, sorted. */
export function whitelistOf(cell: Cell | null): string[] {
  if (!cell) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(264), IGNORED, cell);
    return dict
      .keys()
      .map((key) => {
        const wc = Number(BigInt.asIntN(8, key >> 256n));
        const hash = (key & ((1n << 256n) - 1n)).toString(16).padStart(64, '0').toUpperCase();
        return `${wc}:${hash}`;
      })
      .sort();
  } catch (error) {
    throw new NotThatContract(`get_vesting_data: whitelist is not a dictionary (${(error as Error).message})`);
  }
}

function within(value: bigint, bits: number, what: string): bigint {
  if (value < 0n || value >= 1n << BigInt(bits)) throw new NotThatContract(`get_vesting_data: ${what} out of range`);
  return value;
}

export async function readVesting(runner: GetMethodRunner, c: TokenAccountCandidate, seqno: number): Promise<VestingRow> {
  const values = await runner.run(c.account, 'get_vesting_data', [], seqno);
  if (values === null) throw new NotThatContract('get_vesting_data failed');
  const s = new StackReader(values, 'get_vesting_data');
  const sender = s.address(5);
  const owner = s.address(6);
  if (!sender || !owner) throw new NotThatContract('get_vesting_data: no sender or owner');
  return {
    address: c.account,
    startTime: within(s.int(0), 63, 'vesting_start_time'),
    totalDuration: within(s.int(1), 32, 'vesting_total_duration'),
    unlockPeriod: within(s.int(2), 32, 'unlock_period'),
    cliffDuration: within(s.int(3), 32, 'cliff_duration'),
    totalAmount: within(s.int(4), 120, 'vesting_total_amount'),
    sender: formatRawUpper(sender),
    owner: formatRawUpper(owner),
    whitelist: whitelistOf(values[7]?.type === 'null' || values[7] === undefined ? null : s.cell(7)),
    lastTxLt: c.lastTxLt,
    codeHash: c.codeHash,
    dataHash: c.dataHash,
  };
}
