/** The vesting tables' rows and upserts (a newer state replaces an older one; first_lt, the insertion order, stays). */
import type { InsertBatch } from '../sql/driver.js';
import { newestState } from '../tokens/token-rows.js';

export interface VestingRow {
  /** first_lt when the contract was met earlier in the same group of blocks (tokens/detector.ts); else lastTxLt. */
  firstLt?: bigint;
  address: string;
  startTime: bigint;
  totalDuration: bigint;
  unlockPeriod: bigint;
  cliffDuration: bigint;
  totalAmount: bigint;
  sender: string;
  owner: string;
  /** Raw addresses, sorted. */
  whitelist: string[];
  lastTxLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const COLUMNS = [
  'address',
  'start_time',
  'total_duration',
  'unlock_period',
  'cliff_duration',
  'total_amount',
  'sender_address',
  'owner_address',
  'last_transaction_lt',
  'code_hash',
  'data_hash',
  'first_lt',
];

export function vestingBatch(rows: VestingRow[]): InsertBatch {
  return {
    table: 'vesting_contracts',
    columns: COLUMNS,
    rows: rows.map((r) => [
      r.address,
      r.startTime,
      r.totalDuration,
      r.unlockPeriod,
      r.cliffDuration,
      r.totalAmount.toString(),
      r.sender,
      r.owner,
      r.lastTxLt,
      r.codeHash,
      r.dataHash,
      r.firstLt ?? r.lastTxLt,
    ]),
    conflict: newestState('vesting_contracts', COLUMNS),
  };
}

/** null when no wallet of `rows` has a whitelisted address. */
export function whitelistBatch(rows: VestingRow[]): InsertBatch | null {
  const pairs = rows.flatMap((r) => r.whitelist.map((wallet) => [r.address, wallet]));
  if (pairs.length === 0) return null;
  return {
    table: 'vesting_whitelist',
    columns: ['vesting_address', 'wallet_address'],
    rows: pairs,
    conflict: 'ON CONFLICT (vesting_address, wallet_address) DO NOTHING',
  };
}
