/**
 * The vesting tables' queries, with ton-index-go's filters and order (crud_vesting.go): by contract, or by wallet
 * (the owner or the vesting sender; with check_whitelist also a whitelisted address), in the order first indexed;
 * each contract's whitelist alphabetically.
 */
import type { SqlReads, SqlRow } from '../sql/driver.js';
import { bigint, text } from '../sql/values.js';
import { pageSql, placeholders, Where } from '../sql/where.js';
import type { Page } from '../types.js';

export interface VestingRecord {
  address: string;
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: string;
  senderAddress: string;
  ownerAddress: string;
  whitelist: string[];
}

export interface VestingFilter {
  contracts?: string[];
  wallets?: string[];
  checkWhitelist?: boolean;
}

function vestingOf(row: SqlRow): VestingRecord {
  return {
    address: text(row.address),
    startTime: Number(bigint(row.start_time)),
    totalDuration: Number(bigint(row.total_duration)),
    unlockPeriod: Number(bigint(row.unlock_period)),
    cliffDuration: Number(bigint(row.cliff_duration)),
    totalAmount: text(row.total_amount),
    senderAddress: text(row.sender_address),
    ownerAddress: text(row.owner_address),
    whitelist: [],
  };
}

export class VestingReader {
  constructor(private readonly reads: SqlReads) {}

  async contracts(filter: VestingFilter, page: Page): Promise<VestingRecord[]> {
    const where = new Where().in('V.address', filter.contracts);
    const wallets = filter.wallets ?? [];
    if (wallets.length > 0) {
      const marks = placeholders(wallets);
      const either = [`V.owner_address IN (${marks})`, `V.sender_address IN (${marks})`];
      const params = [...wallets, ...wallets];
      if (filter.checkWhitelist) {
        either.push(`V.address IN (SELECT vesting_address FROM vesting_whitelist WHERE wallet_address IN (${marks}))`);
        params.push(...wallets);
      }
      where.add(`(${either.join(' OR ')})`, ...params);
    }
    const rows = await this.reads.all(
      `SELECT V.* FROM vesting_contracts V ${where} ORDER BY V.first_lt, V.address ${pageSql(page)}`,
      where.params,
    );
    const found = rows.map(vestingOf);
    if (found.length === 0) return found;
    const byAddress = new Map(found.map((v) => [v.address, v]));
    const listed = await this.reads.all(
      `SELECT vesting_address, wallet_address FROM vesting_whitelist WHERE vesting_address IN (${placeholders(found)}) ORDER BY vesting_address, wallet_address`,
      found.map((v) => v.address),
    );
    for (const row of listed) byAddress.get(text(row.vesting_address))?.whitelist.push(text(row.wallet_address));
    return found;
  }
}
