/** The account state tables' queries: account_states (documents by state hash) and latest_account_states. */
import type { SqlReads } from '../sql/driver.js';
import { bytes, text } from '../sql/values.js';
import { pageSql } from '../sql/where.js';
import type { Page } from '../types.js';
import { latestOf, type LatestStateRecord } from './records.js';

/** What an address book says of accounts: the latest states (no BoCs) of those that have one, and their domains. */
export interface AddressBookStates {
  /** The latest states (accounts without one are left out). */
  states: LatestStateRecord[];
  /** account -> its address book domain (dns/reader.ts). */
  domains: Map<string, string>;
}

export interface AccountBalanceRecord {
  account: string;
  balance: string;
}

export class AccountReader {
  constructor(private readonly reads: SqlReads) {}

  /** v3 AccountState documents by state hash. */
  async accountStateDocs(hashes: readonly Buffer[]): Promise<Map<string, string>> {
    if (hashes.length === 0) return new Map();
    const rows = await this.reads.all(`SELECT hash, doc FROM account_states WHERE hash IN (${hashes.map(() => '?').join(', ')})`, hashes);
    return new Map(rows.map((row) => [bytes(row.hash).toString('base64'), text(row.doc)]));
  }

  /** The newest state of each account that has one (unknown accounts are left out). */
  async latestStates(accounts: readonly string[], withBocs: boolean): Promise<LatestStateRecord[]> {
    if (accounts.length === 0) return [];
    const columns = withBocs
      ? '*'
      : 'account, state_hash, status, balance, extra_currencies, frozen_hash, code_hash, data_hash, NULL AS code_boc, NULL AS data_boc, last_trans_hash, last_trans_lt, wallet, interfaces';
    const rows = await this.reads.all(
      `SELECT ${columns} FROM latest_account_states WHERE account IN (${accounts.map(() => '?').join(', ')})`,
      [...accounts],
    );
    return rows.map(latestOf);
  }

  async topAccountsByBalance(page: Page): Promise<AccountBalanceRecord[]> {
    const rows = await this.reads.all(
      `SELECT account, balance FROM latest_account_states ORDER BY balance_order DESC, account ${pageSql(page)}`,
    );
    return rows.map((row) => ({ account: text(row.account), balance: text(row.balance) }));
  }
}
