/**
 * The token tables' queries, with ton-index-go's filters and orders (crud_jettons.go):
 *   masters    insertion order (first_lt, address)
 *   wallets    insertion order; by balance when `sort` is given; `address` -> address order;
 *              owner -> (owner, order); one jetton -> (jetton, order)
 *   transfers  tx_lt (tx_now when a utime bound is given), then tx_hash; aborted ones left out
 *   burns      the same, aborted ones kept (toncenter's own difference)
 */
import { eitherColumnPage } from './either-column-page.js';
import { offchainStates } from './metadata-store.js';
import type { OffchainContent } from '../metadata-fetch/token-info.js';
import type { SqlReads, SqlRow, SqlValue } from '../sql/driver.js';
import { bigint, bytes, int, optionalBytes, optionalText, text } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import type { Page, SortOrder, Window } from '../types.js';

export interface JettonMasterRecord {
  address: string;
  totalSupply: string;
  mintable: boolean;
  adminAddress: string | null;
  /** JSON text of the parsed content. */
  jettonContent: string;
  jettonWalletCodeHash: Buffer;
  codeHash: Buffer;
  dataHash: Buffer;
  lastTransactionLt: bigint;
}

export interface JettonWalletRecord {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

interface EventRecord {
  txHash: Buffer;
  txLt: bigint;
  txNow: number;
  txAborted: boolean;
  queryId: string;
  amount: string;
  jettonWallet: string;
  jettonMaster: string;
  responseDestination: string | null;
  customPayload: Buffer | null;
  traceId: Buffer | null;
}

export interface JettonTransferRecord extends EventRecord {
  source: string | null;
  destination: string | null;
  forwardTonAmount: string | null;
  forwardPayload: Buffer | null;
}

export interface JettonBurnRecord extends EventRecord {
  owner: string | null;
}

export interface JettonMasterFilter {
  addresses?: string[];
  admins?: string[];
}

export interface JettonWalletFilter {
  addresses?: string[];
  owners?: string[];
  jettons?: string[];
  excludeZeroBalance?: boolean;
}

export interface JettonTransferFilter extends Window {
  owners?: string[];
  /** With owners: in = received by them, out = sent by them; absent = either. */
  direction?: 'in' | 'out';
  wallets?: string[];
  master?: string;
}

export interface JettonBurnFilter extends Window {
  owners?: string[];
  wallets?: string[];
  master?: string;
}

const ZERO_BALANCE = '0'.repeat(40);
function masterOf(row: SqlRow): JettonMasterRecord {
  return {
    address: text(row.address),
    totalSupply: text(row.total_supply),
    mintable: int(row.mintable) !== 0,
    adminAddress: optionalText(row.admin_address),
    jettonContent: text(row.jetton_content),
    jettonWalletCodeHash: bytes(row.jetton_wallet_code_hash),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
    lastTransactionLt: bigint(row.last_transaction_lt),
  };
}

function walletOf(row: SqlRow): JettonWalletRecord {
  return {
    address: text(row.address),
    balance: text(row.balance),
    owner: text(row.owner),
    jetton: text(row.jetton),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
  };
}

function eventOf(row: SqlRow): EventRecord {
  return {
    txHash: bytes(row.tx_hash),
    txLt: bigint(row.tx_lt),
    txNow: int(row.tx_now),
    txAborted: int(row.tx_aborted) !== 0,
    queryId: text(row.query_id),
    amount: text(row.amount),
    jettonWallet: text(row.jetton_wallet_address),
    jettonMaster: text(row.jetton_master_address),
    responseDestination: optionalText(row.response_destination),
    customPayload: optionalBytes(row.custom_payload),
    traceId: optionalBytes(row.trace_id),
  };
}

/** The window's conditions, and the column the rows are ordered by (tx_now once a utime bound is given). */
function eventWindow(where: Where, window: Window): string {
  where
    .add('tx_now >= ?', window.startUtime)
    .add('tx_now <= ?', window.endUtime)
    .add('tx_lt >= ?', window.startLt)
    .add('tx_lt <= ?', window.endLt);
  return window.startUtime !== undefined || window.endUtime !== undefined ? 'tx_now' : 'tx_lt';
}

/**
 * Whether the account `account` (an SQL expression) has a row in one of the four tables token metadata is
 * read from (read/metadata.ts): as a condition, so a page's peer lookup can tell which of the
 * accounts it mentions need a metadata lookup at all (most accounts are wallets: none).
 */
export function tokenContractSql(account: string): string {
  return ['jetton_wallets', 'jetton_masters', 'nft_items', 'nft_collections']
    .map((table) => `EXISTS (SELECT 1 FROM ${table} WHERE address = ${account})`)
    .join(' OR ');
}

export class TokenReader {
  constructor(private readonly reads: SqlReads) {}

  /** What became of each content's offchain `uri` (metadata-store.ts): absent, pending, fetched or failed. */
  offchainStates(contents: readonly Record<string, string>[]): Promise<OffchainContent[]> {
    return offchainStates(this.reads, contents);
  }

  async jettonMasters(filter: JettonMasterFilter, p: Page): Promise<JettonMasterRecord[]> {
    const where = new Where().in('address', filter.addresses).in('admin_address', filter.admins);
    const rows = await this.reads.all(`SELECT * FROM jetton_masters ${where} ORDER BY first_lt, address ${pageSql(p)}`, where.params);
    return rows.map(masterOf);
  }

  async jettonWallets(filter: JettonWalletFilter, sort: SortOrder | undefined, p: Page): Promise<JettonWalletRecord[]> {
    const where = new Where().in('address', filter.addresses).in('owner', filter.owners).in('jetton', filter.jettons);
    if (filter.excludeZeroBalance) where.add('balance_order > ?', ZERO_BALANCE);
    const order = sort ? `balance_order ${orderSql(sort)}, address ${orderSql(sort)}` : 'first_lt, address';
    let orderBy = order;
    if (filter.addresses?.length) orderBy = 'address';
    if (filter.owners?.length) orderBy = `owner, ${order}`;
    if (filter.jettons?.length === 1) orderBy = `jetton, ${order}`;
    const rows = await this.reads.all(`SELECT * FROM jetton_wallets ${where} ORDER BY ${orderBy} ${pageSql(p)}`, where.params);
    return rows.map(walletOf);
  }

  async jettonTransfers(filter: JettonTransferFilter, sort: SortOrder, p: Page): Promise<JettonTransferRecord[]> {
    const where = new Where().add('tx_aborted = 0');
    const owners = filter.owners ?? [];
    if (filter.direction === 'in') where.in('destination', owners);
    else if (filter.direction === 'out') where.in('source', owners);
    where.in('jetton_wallet_address', filter.wallets).add('jetton_master_address = ?', filter.master);
    const orderBy = `${eventWindow(where, filter)} ${orderSql(sort)}, tx_hash ${orderSql(sort)}`;
    // Either side: two index scans merged (either-column-page.ts), not an OR.
    const { sql, params } =
      owners.length > 0 && !filter.direction
        ? eitherColumnPage({
            table: 'jetton_transfers',
            columns: ['source', 'destination'],
            values: owners,
            shared: where,
            orderBy,
            page: p,
          })
        : { sql: `SELECT * FROM jetton_transfers ${where} ORDER BY ${orderBy} ${pageSql(p)}`, params: where.params };
    const rows = await this.reads.all(sql, params);
    return rows.map((row) => ({
      ...eventOf(row),
      source: optionalText(row.source),
      destination: optionalText(row.destination),
      forwardTonAmount: optionalText(row.forward_ton_amount),
      forwardPayload: optionalBytes(row.forward_payload),
    }));
  }

  async jettonBurns(filter: JettonBurnFilter, sort: SortOrder, p: Page): Promise<JettonBurnRecord[]> {
    const where = new Where()
      .in('owner', filter.owners)
      .in('jetton_wallet_address', filter.wallets)
      .add('jetton_master_address = ?', filter.master);
    const column = eventWindow(where, filter);
    const rows = await this.reads.all(
      `SELECT * FROM jetton_burns ${where} ORDER BY ${column} ${orderSql(sort)}, tx_hash ${orderSql(sort)} ${pageSql(p)}`,
      where.params,
    );
    return rows.map((row) => ({ ...eventOf(row), owner: optionalText(row.owner) }));
  }

  /**
   * What /metadata needs: the jetton wallets among `addresses`, and the masters among them or those wallets'
   * masters. Both asked at once (one round trip on a reader thread; two parallel ones on PostgreSQL).
   */
  async tokenContracts(addresses: readonly string[]): Promise<{ wallets: JettonWalletRecord[]; masters: JettonMasterRecord[] }> {
    if (addresses.length === 0) return { wallets: [], masters: [] };
    const list = [...new Set(addresses)] as SqlValue[];
    const [wallets, masters] = await Promise.all([
      this.reads.all(`SELECT * FROM jetton_wallets WHERE address IN (${placeholders(list)})`, list),
      this.reads.all(
        `SELECT * FROM jetton_masters WHERE address IN (${placeholders(list)}) OR address IN (SELECT jetton FROM jetton_wallets WHERE address IN (${placeholders(list)}))`,
        [...list, ...list],
      ),
    ]);
    return { wallets: wallets.map(walletOf), masters: masters.map(masterOf) };
  }
}
