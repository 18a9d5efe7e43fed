/**
 * The multisig tables' queries, with ton-index-go's filters and orders (crud_multisig.go): wallets by address and
 * by member (a signer or proposer of the wallet's current state), orders by address and by wallet, both in the order
 * they were first indexed (toncenter's insertion id: first_lt, then address), newest first by default; a wallet's
 * orders oldest first.
 */
import type { SqlReads, SqlRow } from '../sql/driver.js';
import { bigint, bytes, int, text } from '../sql/values.js';
import { orderSql, pageSql, placeholders, Where } from '../sql/where.js';
import type { Page } from '../types.js';

export interface MultisigRecord {
  address: string;
  nextOrderSeqno: string;
  threshold: number;
  signers: string[];
  proposers: string[];
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

export interface MultisigOrderRecord {
  address: string;
  multisigAddress: string;
  orderSeqno: string;
  threshold: number;
  sentForExecution: boolean;
  approvalsMask: string;
  approvalsNum: number;
  expirationDate: number;
  orderBoc: string;
  signers: string[];
  lastTransactionLt: bigint;
  codeHash: Buffer;
  dataHash: Buffer;
}

const list = (value: unknown): string[] => JSON.parse(text(value)) as string[];

function walletOf(row: SqlRow): MultisigRecord {
  return {
    address: text(row.address),
    nextOrderSeqno: text(row.next_order_seqno),
    threshold: int(row.threshold),
    signers: list(row.signers),
    proposers: list(row.proposers),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
  };
}

function orderOf(row: SqlRow): MultisigOrderRecord {
  return {
    address: text(row.address),
    multisigAddress: text(row.multisig_address),
    orderSeqno: text(row.order_seqno),
    threshold: int(row.threshold),
    sentForExecution: int(row.sent_for_execution) !== 0,
    approvalsMask: text(row.approvals_mask),
    approvalsNum: int(row.approvals_num),
    expirationDate: Number(bigint(row.expiration_date)),
    orderBoc: text(row.order_boc),
    signers: list(row.signers),
    lastTransactionLt: bigint(row.last_transaction_lt),
    codeHash: bytes(row.code_hash),
    dataHash: bytes(row.data_hash),
  };
}

export interface MultisigFilter {
  addresses?: string[];
  /** Signers or proposers (of the wallet's current state). */
  members?: string[];
}

export class MultisigReader {
  constructor(private readonly reads: SqlReads) {}

  async wallets(filter: MultisigFilter, sort: 'asc' | 'desc', page: Page): Promise<MultisigRecord[]> {
    const where = new Where().in('w.address', filter.addresses);
    if (filter.members && filter.members.length > 0) {
      // A member row of an older state of the wallet is a former member (schema.ts).
      where.add(
        `w.address IN (SELECT m.multisig_address FROM multisig_members m JOIN multisig_wallets c ON c.address = m.multisig_address ` +
          `AND c.last_transaction_lt = m.last_transaction_lt WHERE m.wallet_address IN (${placeholders(filter.members)}))`,
        ...filter.members,
      );
    }
    const order = orderSql(sort);
    const rows = await this.reads.all(
      `SELECT w.* FROM multisig_wallets w ${where} ORDER BY w.first_lt ${order}, w.address ${order} ${pageSql(page)}`,
      where.params,
    );
    return rows.map(walletOf);
  }

  async orders(filter: { addresses?: string[]; multisigs?: string[] }, sort: 'asc' | 'desc', page: Page): Promise<MultisigOrderRecord[]> {
    const where = new Where().in('address', filter.addresses).in('multisig_address', filter.multisigs);
    const order = orderSql(sort);
    const rows = await this.reads.all(
      `SELECT * FROM multisig_orders ${where} ORDER BY first_lt ${order}, address ${order} ${pageSql(page)}`,
      where.params,
    );
    return rows.map(orderOf);
  }

  /** Every order of these wallets, oldest first (the `orders` of /multisig/wallets). */
  async ordersOf(multisigs: string[]): Promise<MultisigOrderRecord[]> {
    if (multisigs.length === 0) return [];
    const rows = await this.reads.all(
      `SELECT * FROM multisig_orders WHERE multisig_address IN (${placeholders(multisigs)}) ORDER BY first_lt, address`,
      multisigs,
    );
    return rows.map(orderOf);
  }

  /** The orders among `addresses` (what the actions classifier needs: an order's signers). */
  async ordersByAddress(addresses: string[]): Promise<MultisigOrderRecord[]> {
    if (addresses.length === 0) return [];
    const rows = await this.reads.all(`SELECT * FROM multisig_orders WHERE address IN (${placeholders(addresses)})`, addresses);
    return rows.map(orderOf);
  }
}
